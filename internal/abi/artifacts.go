package abi

import (
	"fmt"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/growing"
)

// WireEvent is ev as the module sends it: an artifact event that has a delta carries the
// artifact's identity and the delta only, never the parts the host already has, so a stream of n
// chunks crosses the boundary in O(n) bytes. Artifacts rebuilds the whole artifact on the host.
func WireEvent(ev adapter.Event) adapter.Event {
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
}

type hostArtifact struct {
	parts growing.List[adapter.Part]
	text  growing.Text
}

// Rebuild gives ev (as received) its whole artifact. An event that is not an artifact event is
// left alone. A delta that does not fit what came before is an error: the module is not sane.
func (a *Artifacts) Rebuild(ev *adapter.Event) error {
	if ev.Artifact == nil {
		return nil
	}
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
		case d.Text != "" && last.Type == adapter.PartText:
			last.Text = v.text.Extend(last.Text, d.Text)
		case len(d.Raw) > 0 && last.Type == adapter.PartRaw:
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
