package termmd

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Options say how Render lays markdown out.
type Options struct {
	// Width is the column text is wrapped at (0: 80).
	Width int
	// Color writes SGR codes for headings, emphasis, code and links; without it the layout alone
	// (https://no-color.org), code spans keep their backticks and headings their #.
	Color bool
}

// Render lays src out for a terminal. src must already be inert (no control characters of its
// own): the codes in the result are Render's.
func Render(src string, o Options) string {
	if o.Width <= 0 {
		o.Width = 80
	}
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\t", "    ")
	return strings.Join(blocks(strings.Split(src, "\n"), o), "\n\n")
}

// blocks renders lines as the blocks they make, each a string of lines.
func blocks(lines []string, o Options) []string {
	var out []string
	for i := 0; i < len(lines); {
		line := lines[i]
		indent, rest := indentOf(line)
		switch {
		case rest == "":
			i++
			continue
		case indent >= 4:
			n := indentedCode(lines[i:])
			out = append(out, codeBlock(dedentAll(lines[i:i+n], 4), o))
			i += n
		case isFence(rest):
			n, code := fenced(lines[i:], indent)
			out = append(out, codeBlock(code, o))
			i += n
		case headingLevel(rest) > 0:
			out = append(out, heading(headingLevel(rest), headingText(rest), o))
			i++
		case isRule(rest):
			out = append(out, style(o, "2", strings.Repeat("─", min(o.Width, 40)), "22"))
			i++
		case strings.HasPrefix(rest, ">"):
			n, inner := quoted(lines[i:])
			out = append(out, prefixLines(strings.Join(blocks(inner, narrower(o, 2)), "\n\n"), style(o, "2", "│", "22")+" ", style(o, "2", "│", "22")+" "))
			i += n
		case listMarker(rest) != "":
			n, text := list(lines[i:], o)
			out = append(out, text)
			i += n
		case i+1 < len(lines) && strings.Contains(rest, "|") && isDelimiterRow(lines[i+1]):
			n, text := table(lines[i:], o)
			out = append(out, text)
			i += n
		default:
			n, text := paragraph(lines[i:], o)
			out = append(out, text)
			i += n
		}
	}
	return out
}

// indentOf is a line's leading spaces and what follows them.
func indentOf(line string) (int, string) {
	rest := strings.TrimLeft(line, " ")
	return len(line) - len(rest), strings.TrimRight(rest, " ")
}

func narrower(o Options, by int) Options {
	o.Width = max(o.Width-by, 20)
	return o
}

// style wraps s in the SGR codes on and off when colours are on.
func style(o Options, on, s, off string) string {
	if !o.Color || s == "" {
		return s
	}
	return "\x1b[" + on + "m" + s + "\x1b[" + off + "m"
}

// prefixLines puts first before the first line of s and rest before the others.
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		lines[i] = strings.TrimRight(p+lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

func dedentAll(lines []string, n int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		indent, _ := indentOf(l)
		out[i] = l[min(indent, n):]
	}
	return out
}

// Code.

func indentedCode(lines []string) int {
	n := 0
	for i, l := range lines {
		indent, rest := indentOf(l)
		if rest != "" && indent < 4 {
			break
		}
		if rest != "" {
			n = i + 1 // trailing blank lines are not the code's
		}
	}
	return n
}

func isFence(rest string) bool {
	return strings.HasPrefix(rest, "```") || strings.HasPrefix(rest, "~~~")
}

// fenced reads a fenced code block: the lines it takes and its content (to the end of lines when
// it is never closed).
func fenced(lines []string, indent int) (int, []string) {
	_, open := indentOf(lines[0])
	fence := open[:len(open)-len(strings.TrimLeft(open, open[:1]))]
	var code []string
	for i := 1; i < len(lines); i++ {
		_, rest := indentOf(lines[i])
		if strings.HasPrefix(rest, fence) && strings.Trim(rest, fence[:1]) == "" {
			return i + 1, code
		}
		code = append(code, dedentAll(lines[i:i+1], indent)[0])
	}
	return len(lines), code
}

func codeBlock(lines []string, o Options) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight("  "+style(o, "36", l, "39"), " ")
	}
	return strings.Join(out, "\n")
}

// Headings and rules.

func headingLevel(rest string) int {
	n := len(rest) - len(strings.TrimLeft(rest, "#"))
	if n < 1 || n > 6 || (len(rest) > n && rest[n] != ' ') {
		return 0
	}
	return n
}

func headingText(rest string) string {
	text := strings.TrimSpace(strings.TrimLeft(rest, "#"))
	if trimmed := strings.TrimRight(text, "#"); trimmed == "" || strings.HasSuffix(trimmed, " ") {
		text = strings.TrimSpace(trimmed) // a closing sequence of #
	}
	return text
}

func heading(level int, text string, o Options) string {
	text = inline(text, o)
	marks := strings.Repeat("#", level) + " "
	switch {
	case !o.Color:
		return marks + text
	case level == 1:
		return style(o, "1;4", text, "22;24")
	case level == 2:
		return style(o, "1", text, "22")
	}
	return style(o, "2", marks, "22") + style(o, "1", text, "22")
}

func isRule(rest string) bool {
	c := rest[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case c:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

// Block quotes.

// quoted reads a block quote: the lines it takes and their content without the markers; a line
// without one continues the quote's paragraph (lazily) until a blank line.
func quoted(lines []string) (int, []string) {
	var inner []string
	i := 0
	for ; i < len(lines); i++ {
		_, rest := indentOf(lines[i])
		if body, ok := strings.CutPrefix(rest, ">"); ok {
			inner = append(inner, strings.TrimPrefix(body, " "))
			continue
		}
		if rest == "" || startsBlock(rest) {
			break
		}
		inner = append(inner, rest)
	}
	return i, inner
}

// startsBlock reports whether a line's text begins a block other than a paragraph.
func startsBlock(rest string) bool {
	return isFence(rest) || headingLevel(rest) > 0 || isRule(rest) || strings.HasPrefix(rest, ">") || listMarker(rest) != ""
}

// Lists.

// listMarker is the marker of a list item that rest begins with ("- ", "1. "), or "".
func listMarker(rest string) string {
	if len(rest) >= 1 && strings.ContainsRune("-*+", rune(rest[0])) && (len(rest) == 1 || rest[1] == ' ') {
		return rest[:min(2, len(rest))]
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits < 1 || digits > 9 || digits >= len(rest) || (rest[digits] != '.' && rest[digits] != ')') {
		return ""
	}
	if digits+1 == len(rest) || rest[digits+1] == ' ' {
		return rest[:min(digits+2, len(rest))]
	}
	return ""
}

func ordered(marker string) bool { return marker[0] >= '0' && marker[0] <= '9' }

// list reads a list and renders it: its items' markers, their content indented beneath.
func list(lines []string, o Options) (int, string) {
	indent, rest := indentOf(lines[0])
	first := listMarker(rest)
	number, _ := strconv.Atoi(strings.TrimRight(first, ".) "))
	var items []string
	loose, blank := false, false
	i := 0
	for i < len(lines) {
		ind, rest := indentOf(lines[i])
		marker := listMarker(rest)
		if marker == "" || ind >= indent+4 || ordered(marker) != ordered(first) || (!ordered(first) && marker[0] != first[0]) {
			break
		}
		loose = loose || blank // a blank line between two items
		content := ind + len(marker)
		body := []string{strings.TrimPrefix(rest[len(marker):], " ")}
		if len(rest) > len(marker) {
			content += len(rest[len(marker):]) - len(strings.TrimLeft(rest[len(marker):], " "))
		}
		i++
		blank = false
		for i < len(lines) {
			ind, rest := indentOf(lines[i])
			switch {
			case rest == "":
				blank = true
				body = append(body, "")
				i++
				continue
			case ind >= content:
				body = append(body, lines[i][content:])
			case !blank && !startsBlock(rest):
				body = append(body, rest) // a lazy continuation of the item's paragraph
			default:
				goto next
			}
			if blank {
				loose = true
			}
			blank = false
			i++
		}
	next:
		label := "• "
		if ordered(first) {
			label = strconv.Itoa(number) + ". "
			number++
		}
		label = taskBox(&body, label)
		sep := "\n"
		if loose {
			sep = "\n\n"
		}
		pad := strings.Repeat(" ", ansi.StringWidth(label))
		items = append(items, prefixLines(strings.Join(blocks(body, narrower(o, len(pad))), sep), label, pad))
	}
	sep := "\n"
	if loose {
		sep = "\n\n"
	}
	return i, strings.Join(items, sep)
}

// taskBox turns a task list item's "[ ]" or "[x]" into a box after the label.
func taskBox(body *[]string, label string) string {
	first := (*body)[0]
	for box, mark := range map[string]string{"[ ] ": "☐ ", "[x] ": "☑ ", "[X] ": "☑ "} {
		if strings.HasPrefix(first, box) {
			(*body)[0] = first[len(box):]
			return label + mark
		}
	}
	return label
}

// Paragraphs.

// paragraph reads the lines of a paragraph (a setext underline makes it a heading) and renders
// it, wrapped; a line that ends with two spaces or a backslash breaks there.
func paragraph(lines []string, o Options) (int, string) {
	var text strings.Builder
	i := 0
	for ; i < len(lines); i++ {
		line := lines[i]
		_, rest := indentOf(line)
		if rest == "" || (i > 0 && (startsBlock(rest) && !isSetext(rest))) {
			break
		}
		if i > 0 && isSetext(rest) {
			level := 1
			if rest[0] == '-' {
				level = 2
			}
			return i + 1, heading(level, strings.TrimSpace(text.String()), o)
		}
		if i > 0 && !strings.HasSuffix(text.String(), "\n") {
			text.WriteByte(' ')
		}
		switch {
		case strings.HasSuffix(line, "  "):
			text.WriteString(rest + "\n")
		case strings.HasSuffix(rest, "\\") && !strings.HasSuffix(rest, "\\\\"):
			text.WriteString(strings.TrimSuffix(rest, "\\") + "\n")
		default:
			text.WriteString(rest)
		}
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(text.String(), "\n"), "\n") {
		out = append(out, ansi.Wrap(inline(l, o), o.Width, ""))
	}
	return i, strings.Join(out, "\n")
}

func isSetext(rest string) bool {
	return (strings.Trim(rest, "=") == "" || strings.Trim(rest, "-") == "") && rest != ""
}
