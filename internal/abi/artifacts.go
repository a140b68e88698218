package abi

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/growing"
)

// Sent is the module's side of one Submit call: it remembers the parts each artifact's last event
// showed, so that events carry deltas (WireEvent) and the outcome refers to parts the host has
// instead of sending them again. The zero value is ready to use.
type Sent struct {
	last map[string][]a2aport.Part
	text continuation
}

// Event records ev and returns it as it crosses the boundary. more says that wire is the call's
// last event with a text-only delta again but for that text: then only the text needs to cross
// (KindMore).
func (s *Sent) Event(ev a2aport.Event) (wire a2aport.Event, more bool) {
	if ev.Artifact != nil {
		if s.last == nil {
			s.last = map[string][]a2aport.Part{}
		}
		s.last[ev.Artifact.ID] = ev.Artifact.Parts
	}
	wire = WireEvent(ev)
	return wire, s.text.next(wire)
}

// Outcome returns the result envelope of out as it crosses the boundary: out without the parts of
// the artifacts that are exactly what that artifact's last event showed (named in Reuse), and
// without its content when the content is the text of such an artifact's only part, trimmed or
// not (ContentFrom, ContentTrim): the usual long answer is one streamed artifact and a final
// status without text, and the host already holds its text.
func (s *Sent) Outcome(out a2aport.Outcome) Envelope {
	var e Envelope
	arts := make([]a2aport.Artifact, len(out.Artifacts))
	for i, art := range out.Artifacts {
		if last, ok := s.last[art.ID]; ok && sameParts(last, art.Parts) {
			if e.ContentFrom == "" && len(art.Parts) == 1 {
				if head, tail, ok := trimmedFrom(art.Parts[0].Text, out.Content); ok {
					e.ContentFrom, out.Content = art.ID, ""
					if head > 0 || tail > 0 {
						e.ContentTrim = []int{head, tail}
					}
				}
			}
			art.Parts = nil
			e.Reuse = append(e.Reuse, art.ID)
		}
		arts[i] = art
	}
	out.Artifacts = arts
	e.Outcome = &out
	return e
}

// trimmedFrom reports whether content is text's own bytes (not merely equal to them) with only
// white space around it, and how many characters of it there are at the start and at the end.
func trimmedFrom(text, content string) (head, tail int, ok bool) {
	if len(content) == 0 || len(content) > len(text) {
		return 0, 0, false
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(content))) - uintptr(unsafe.Pointer(unsafe.StringData(text)))
	if start > uintptr(len(text)-len(content)) { // before text (wrapped around) or past it
		return 0, 0, false
	}
	before, after := text[:start], text[int(start)+len(content):]
	if !sameString(text[start:int(start)+len(content)], content) || !allSpace(before) || !allSpace(after) {
		return 0, 0, false
	}
	return utf8.RuneCountInString(before), utf8.RuneCountInString(after), true
}

func allSpace(s string) bool {
	return strings.TrimLeftFunc(s, unicode.IsSpace) == ""
}

// sameString reports whether a and b are the same bytes in memory (not merely equal).
func sameString(a, b string) bool {
	return len(a) == len(b) && len(a) > 0 && unsafe.StringData(a) == unsafe.StringData(b)
}

// sameParts reports whether a and b are the same list (not merely equal): the adapter hands out
// an artifact's parts unchanged until the artifact changes.
func sameParts(a, b []a2aport.Part) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// WireEvent is ev as the module sends it: an artifact event that has a delta carries the
// artifact's identity and the delta only, never the parts the host already has, so a stream of n
// chunks crosses the boundary in O(n) bytes. Artifacts rebuilds the whole artifact on the host.
func WireEvent(ev a2aport.Event) a2aport.Event {
	if ev.Artifact != nil && ev.Delta != nil {
		art := *ev.Artifact
		art.Parts = nil
		ev.Artifact = &art
	}
	return ev
}

// Artifacts rebuilds, on the host, the whole artifacts of one call's events from what WireEvent
// sent. Each side keeps its own merged view; the host's grows in linear time as the module's does.
// The zero value is ready to use.
type Artifacts struct {
	byID map[string]*hostArtifact
	text continuation
}

type hostArtifact struct {
	parts growing.List[a2aport.Part]
	text  growing.Text
}

// Outcome gives back to e.Outcome what the module left out (Sent.Outcome): the parts of the last
// event of each artifact named in e.Reuse, and the content when it is the text of artifact
// e.ContentFrom, less e.ContentTrim's white space.
func (a *Artifacts) Outcome(e *Envelope) error {
	out := e.Outcome
	if e.ContentFrom != "" {
		v := a.byID[e.ContentFrom]
		if v == nil || v.parts.Len() != 1 {
			return fmt.Errorf("abi: the outcome's content refers to artifact %q, which no event sent as one part", e.ContentFrom)
		}
		content, ok := trim(v.parts.Items()[0].Text, e.ContentTrim)
		if !ok {
			return fmt.Errorf("abi: the outcome's content trims %v characters of artifact %q's text, which has no such white space", e.ContentTrim, e.ContentFrom)
		}
		out.Content = content
	}
	for _, id := range e.Reuse {
		v := a.byID[id]
		if v == nil {
			return fmt.Errorf("abi: the outcome refers to artifact %q, which no event sent", id)
		}
		for i := range out.Artifacts {
			if out.Artifacts[i].ID == id {
				out.Artifacts[i].Parts = v.parts.Items()
			}
		}
	}
	return nil
}

// trim drops trim[0] white space characters from the start of text and trim[1] from its end.
func trim(text string, trim []int) (string, bool) {
	if len(trim) == 0 {
		return text, true
	}
	if len(trim) != 2 {
		return "", false
	}
	for range trim[0] {
		r, n := utf8.DecodeRuneInString(text)
		if n == 0 || !unicode.IsSpace(r) {
			return "", false
		}
		text = text[n:]
	}
	for range trim[1] {
		r, n := utf8.DecodeLastRuneInString(text)
		if n == 0 || !unicode.IsSpace(r) {
			return "", false
		}
		text = text[:len(text)-n]
	}
	return text, true
}

// Rebuild gives ev (as received) its whole artifact. An event that is not an artifact event is
// left alone. A delta that does not fit what came before is an error: the module is not sane.
func (a *Artifacts) Rebuild(ev *a2aport.Event) error {
	if ev.Artifact == nil {
		return nil
	}
	a.text.next(*ev) // before ev takes its whole artifact
	if a.byID == nil {
		a.byID = map[string]*hostArtifact{}
	}
	id := ev.Artifact.ID
	v := a.byID[id]
	if ev.Delta == nil {
		v = &hostArtifact{}
		v.parts.Reset(ev.Artifact.Parts)
		a.byID[id] = v
		return nil
	}
	if v == nil {
		return fmt.Errorf("abi: a delta for artifact %q, which was never sent whole", id)
	}
	d := ev.Delta
	if d.Text != "" || len(d.Raw) > 0 {
		last := v.parts.Last()
		switch {
		case last == nil:
			return fmt.Errorf("abi: a delta continues the last part of artifact %q, which has none", id)
		case d.Text != "" && last.Type == a2aport.PartText:
			last.Text = v.text.Extend(last.Text, d.Text)
		case len(d.Raw) > 0 && last.Type == a2aport.PartRaw:
			last.Raw = append(last.Raw, d.Raw...)
		default:
			return fmt.Errorf("abi: a delta continues a %s part of artifact %q with other content", last.Type, id)
		}
	}
	for _, p := range d.Parts {
		v.parts.Push(p)
	}
	art := *ev.Artifact
	art.Parts = v.parts.Items()
	ev.Artifact = &art
	return nil
}
