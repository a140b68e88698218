package abi

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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
// the artifacts that are exactly what that artifact's last event showed (named in Reuse), and its
// content as pieces when the adapter gave it so (a2aclient.WithContentPieces): the usual long
// answer is one streamed artifact, and the host already holds its text.
func (s *Sent) Outcome(out a2aport.Outcome, content []ContentPiece) Envelope {
	var e Envelope
	arts := make([]a2aport.Artifact, len(out.Artifacts))
	for i, art := range out.Artifacts {
		if last, ok := s.last[art.ID]; ok && sameParts(last, art.Parts) {
			art.Parts = nil
			e.Reuse = append(e.Reuse, art.ID)
		}
		arts[i] = art
	}
	out.Artifacts = arts
	e.Outcome, e.Content = &out, content
	return e
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
// event of each artifact named in e.Reuse, and the content from e.Content's pieces.
func (a *Artifacts) Outcome(e *Envelope) error {
	out := e.Outcome
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
	if len(e.Content) == 0 {
		return nil
	}
	texts := make([]string, len(e.Content))
	for i, piece := range e.Content {
		if piece.From == "" {
			texts[i] = piece.Text
			continue
		}
		j := slices.IndexFunc(out.Artifacts, func(art a2aport.Artifact) bool { return art.ID == piece.From })
		if j < 0 {
			return fmt.Errorf("abi: the outcome's content refers to artifact %q, which the outcome lacks", piece.From)
		}
		text, ok := trim(out.Artifacts[j].Text(), piece.Head, piece.Tail)
		if !ok {
			return fmt.Errorf("abi: the outcome's content trims %d and %d characters of artifact %q's text, which has no such white space", piece.Head, piece.Tail, piece.From)
		}
		texts[i] = text
	}
	out.Content = strings.Join(texts, "\n\n") // one piece is returned as it is, not copied
	return nil
}

// trim drops head white space characters from the start of text and tail from its end.
func trim(text string, head, tail int) (string, bool) {
	if head < 0 || tail < 0 {
		return "", false
	}
	for range head {
		r, n := utf8.DecodeRuneInString(text)
		if n == 0 || !unicode.IsSpace(r) {
			return "", false
		}
		text = text[n:]
	}
	for range tail {
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
