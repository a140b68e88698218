package abi

import (
	"fmt"
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

// Outcome returns out as it crosses the boundary, with the ids of the artifacts whose parts it
// left out because they are exactly what that artifact's last event showed, and the id of the
// one whose only part's text is the content (then left out too), if any: the usual long answer
// is one streamed artifact and a final status without text.
func (s *Sent) Outcome(out a2aport.Outcome) (wire a2aport.Outcome, reuse []string, contentFrom string) {
	arts := make([]a2aport.Artifact, len(out.Artifacts))
	for i, art := range out.Artifacts {
		if last, ok := s.last[art.ID]; ok && sameParts(last, art.Parts) {
			if contentFrom == "" && len(art.Parts) == 1 && sameString(art.Parts[0].Text, out.Content) {
				contentFrom, out.Content = art.ID, ""
			}
			art.Parts = nil
			reuse = append(reuse, art.ID)
		}
		arts[i] = art
	}
	out.Artifacts = arts
	return out, reuse, contentFrom
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

// Outcome gives back to out what the module left out (Sent.Outcome): the parts of the last event
// of each artifact named in reuse, and the content when it is the text of artifact contentFrom.
func (a *Artifacts) Outcome(out *a2aport.Outcome, reuse []string, contentFrom string) error {
	if contentFrom != "" {
		v := a.byID[contentFrom]
		if v == nil || v.parts.Len() != 1 {
			return fmt.Errorf("abi: the outcome's content refers to artifact %q, which no event sent as one part", contentFrom)
		}
		out.Content = v.parts.Items()[0].Text
	}
	for _, id := range reuse {
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
