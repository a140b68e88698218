package main

import (
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/a2aport/a2aport"
)

// An artifact of text is shown as it arrives: each event's delta is written at once, so the user
// reads along while the agent writes (in a pipe too: `| less` pages it live). On a terminal, an
// artifact that turns out to be markdown is rendered once it is complete, in place of the plain
// text shown meanwhile, when that text is still on the screen; otherwise the plain text stays.
// What cannot be appended (a file, data, an artifact replaced by a new one) is shown whole at the
// artifact's end, as before.

// liveArtifact is the artifact being shown as it arrives.
type liveArtifact struct {
	id    string
	parts int  // parts written so far (the last one may still grow)
	open  bool // text is on the screen and the artifact is not complete
	// whole: from here on it is shown at its end: parts from parts on, or all of it if replaced.
	whole    bool
	replaced bool
}

// showLive writes what artifact event ev added, when it can be appended; prev is the artifact as
// the previous event showed it.
func (r *renderer) showLive(ev a2aport.Event, prev a2aport.Artifact) {
	a := ev.Artifact
	if r.live.id != a.ID {
		r.live = liveArtifact{id: a.ID}
		r.printTitle(*a)
		r.writeParts(a.Parts)
		return
	}
	switch d := ev.Delta; {
	case r.live.whole:
	case d == nil:
		// Shown whole: a new artifact under the same id, or a polled snapshot, which may just
		// extend the one before.
		text, parts, ok := extension(prev.Parts, a.Parts)
		if !ok {
			r.live.whole, r.live.replaced = true, true
			return
		}
		r.writeLive(clean(text))
		r.writeParts(parts)
	case d.Raw != nil:
		r.live.whole = true
	default:
		if d.Text != "" {
			r.writeLive(clean(d.Text))
		}
		r.writeParts(d.Parts)
	}
}

// extension is what cur adds to prev when it only appends to it: text continuing prev's last
// part, then parts after it.
func extension(prev, cur []a2aport.Part) (string, []a2aport.Part, bool) {
	if len(prev) == 0 || len(cur) < len(prev) {
		return "", nil, false
	}
	last := len(prev) - 1
	for i := range last {
		if !reflect.DeepEqual(prev[i], cur[i]) {
			return "", nil, false
		}
	}
	was, now := prev[last], cur[last]
	text, ok := strings.CutPrefix(now.Text, was.Text)
	now.Text = was.Text
	if !ok || !reflect.DeepEqual(was, now) {
		return "", nil, false
	}
	return text, cur[len(prev):], true
}

// writeParts writes text parts as new parts (a line apart) up to the first of another kind.
func (r *renderer) writeParts(parts []a2aport.Part) {
	for _, p := range parts {
		if r.live.whole || p.Type != a2aport.PartText {
			r.live.whole = true
			return
		}
		if r.live.parts > 0 {
			r.writeLive("\n")
		}
		r.writeLive(clean(p.Text))
		r.live.parts++
	}
}

// writeLive writes text to stdout. While text of an artifact is open on a terminal the status
// line is not drawn: it would be drawn over the line being written.
func (r *renderer) writeLive(s string) {
	if s == "" {
		return
	}
	r.clearStatus()
	fmt.Fprint(r.stdout, s)
	r.live.open = true
}

// endLive completes the live artifact a: the markdown rendering in place of its text where it
// can be, else a line end; then what could not be appended.
func (r *renderer) endLive(a a2aport.Artifact) {
	live := r.live
	r.live = liveArtifact{}
	if live.open {
		text := liveText(a.Parts[:min(live.parts, len(a.Parts))])
		if !r.rerender(text, mediaTypeOf(a)) && !strings.HasSuffix(text, "\n") {
			fmt.Fprintln(r.stdout)
		}
	}
	switch {
	case live.replaced:
		r.printArtifact(a)
	case live.whole:
		r.printParts(a, live.parts)
	}
}

// liveText is what was written of parts: their text, inert, a line apart.
func liveText(parts []a2aport.Part) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(clean(p.Text))
	}
	return b.String()
}

// mediaTypeOf is the media type of a's first part.
func mediaTypeOf(a a2aport.Artifact) string {
	if len(a.Parts) == 0 {
		return ""
	}
	return a.Parts[0].MediaType
}

// rerender replaces text, just written to a terminal, with its markdown rendering, when it is
// markdown and all of it is still on the screen (rows that scrolled away cannot be rewritten).
func (r *renderer) rerender(text, mediaType string) bool {
	f, ok := r.stdout.(*os.File)
	if r.markdown == nil || !ok {
		return false
	}
	cols, rows, err := term.GetSize(int(f.Fd()))
	if err != nil || cols <= 0 || screenRows(text, cols) >= rows {
		return false
	}
	rendered := r.render(text, mediaType)
	if rendered == text {
		return false // not markdown, or not rendered within bounds
	}
	// Back to the first row of the text, then clear from there to the end of the screen.
	if up := screenRows(text, cols) - 1; up > 0 {
		fmt.Fprint(r.stdout, ansi.CursorUp(up))
	}
	fmt.Fprint(r.stdout, "\r"+ansi.EraseScreenBelow)
	r.print(rendered)
	return true
}

// screenRows is how many rows text takes on a terminal cols wide, counting the row the cursor is
// left on: each line wraps at cols, a tab moves to the next multiple of 8.
func screenRows(text string, cols int) int {
	rows := 0
	for line := range strings.SplitSeq(text, "\n") {
		w := 0
		for i, g := range strings.Split(line, "\t") {
			if i > 0 {
				w = (w/8 + 1) * 8
			}
			w += ansi.StringWidth(g)
		}
		rows += max(1, (w+cols-1)/cols)
	}
	return rows
}
