package main

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Everything an agent says reaches a terminal: card fields, status texts, messages, artifact names
// and text, error texts, questions. A terminal obeys control sequences in what it prints, so an
// agent could set the title (OSC 0), write the clipboard (OSC 52), hide a link (OSC 8), clear the
// screen or move the cursor back over what the user saw around a question. So every such text is
// made inert before it is printed or rendered, the way gh and kubectl do since CVE-2021-25743: C0
// and C1 control characters (newline and tab aside), DEL, and the bidirectional controls that
// reorder what a line shows become visible escapes (\x1b, \u009b, \u202e). Only a2aport's own
// styling ever writes an escape sequence.

// clean makes s inert for a terminal, keeping its lines and tabs.
func clean(s string) string {
	if !needsCleaning(s, true) {
		return s
	}
	return cleanWith(s, true)
}

// cleanLine is clean for one line (a status line, a name): newlines become visible too.
func cleanLine(s string) string {
	if !needsCleaning(s, false) {
		return s
	}
	return cleanWith(s, false)
}

func needsCleaning(s string, keepLines bool) bool {
	for _, r := range s {
		if unsafeRune(r, keepLines) {
			return true
		}
	}
	return false
}

func cleanWith(s string, keepLines bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if !unsafeRune(r, keepLines) {
			b.WriteRune(r)
			continue
		}
		if r < 0x80 {
			fmt.Fprintf(&b, `\x%02x`, r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// unsafeRune reports whether r may change what a terminal does or shows: a control character
// (C0 but newline and tab when lines are kept, DEL, C1) or a bidirectional control.
func unsafeRune(r rune, keepLines bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !keepLines
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// jsonSafe escapes, in a line of JSON, what encoding/json leaves raw but a terminal may obey: DEL,
// C1 controls and bidirectional controls (it escapes C0 itself). They only occur inside strings,
// where \u escapes mean the same.
func jsonSafe(line []byte) []byte {
	if !needsCleaning(string(line), true) {
		return line
	}
	var b bytes.Buffer
	for len(line) > 0 {
		r, n := utf8.DecodeRune(line)
		if unsafeRune(r, true) && r != '\n' && r != '\t' {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.Write(line[:n])
		}
		line = line[n:]
	}
	return b.Bytes()
}
