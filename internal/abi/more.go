package abi

import (
	"errors"

	"github.com/a2aport/a2aport"
)

// continuation is one call's last event, as WireEvent sent it, whose delta appended text alone:
// the next such event that differs from it only in that text crosses as KindMore, its text
// alone. Most of a streamed answer is such events; in JSON each would repeat the Work's and the
// artifact's identity, which both sides then encode and parse once per chunk.
type continuation struct {
	last a2aport.Event // its Delta nil; Type == "" until there is one
}

// next records ev when its delta is text alone and reports whether ev is the recorded event
// again but for that text.
func (c *continuation) next(ev a2aport.Event) (same bool) {
	if !textOnly(ev.Delta) || ev.Artifact == nil || ev.Artifact.Parts != nil || ev.Input != nil {
		return false
	}
	ev.Delta = nil
	if prev := c.last; prev.Type != "" && sameIdentity(prev.Artifact, ev.Artifact) && sameFields(prev, ev) {
		return true
	}
	art := *ev.Artifact
	ev.Artifact = &art // the caller's artifact changes as the host rebuilds it
	c.last = ev
	return false
}

// sameIdentity compares two artifacts as WireEvent sends them with a delta: without parts.
func sameIdentity(a, b *a2aport.Artifact) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Description == b.Description
}

// sameFields compares two events that have no delta, no input and artifacts of equal identity.
func sameFields(a, b a2aport.Event) bool {
	a.Artifact, b.Artifact = nil, nil
	return a == b
}

// textOnly says whether d appends text and nothing else.
func textOnly(d *a2aport.ArtifactDelta) bool {
	return d != nil && d.Text != "" && d.Raw == nil && len(d.Parts) == 0
}

// More returns the event a KindMore envelope stands for: the call's last event with a text-only
// delta (as Rebuild received it), appending text instead. Rebuild then gives it its whole artifact.
func (a *Artifacts) More(text string) (a2aport.Event, error) {
	ev := a.text.last
	if ev.Type == "" || text == "" {
		return a2aport.Event{}, errors.New("abi: more text for a call that sent no text delta to continue")
	}
	art := *ev.Artifact
	ev.Artifact, ev.Delta = &art, &a2aport.ArtifactDelta{Text: text}
	return ev, nil
}
