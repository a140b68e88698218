package facade

import (
	"reflect"
	"slices"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport"
)

// A Port's Outcome is the task's result, whether or not the Port told of it in events: a Port may
// finish without emitting anything, or emit only part of what it returns. What the events have
// shown is remembered per artifact; when the Work ends, every artifact of the outcome that was not
// shown as it is now is added to the task whole, and the outcome's text goes on the final status.

// show remembers what an artifact event shows of its artifact.
func (p *portRun) show(ev a2aport.Event) {
	if ev.Type != a2aport.EventArtifact || ev.Artifact == nil {
		return
	}
	if p.shown == nil {
		p.shown = map[string]a2aport.Artifact{}
	}
	p.shown[ev.Artifact.ID] = *ev.Artifact
}

// unshown are the events that put the rest of out on the task: each artifact the events did not
// show as out has it, whole.
func (p *portRun) unshown(ec *a2asrv.ExecutorContext, out a2aport.Outcome) []a2a.Event {
	var events []a2a.Event
	for _, art := range out.Artifacts {
		if seen, ok := p.shown[art.ID]; ok && sameArtifact(seen, art) {
			continue
		}
		ev := a2a.NewArtifactEvent(ec, parts(art.Parts)...)
		ev.Artifact.ID, ev.Artifact.Name, ev.Artifact.Description = a2a.ArtifactID(art.ID), art.Name, art.Description
		events = append(events, ev)
	}
	return events
}

func sameArtifact(a, b a2aport.Artifact) bool {
	if a.Name != b.Name || a.Description != b.Description || len(a.Parts) != len(b.Parts) {
		return false
	}
	return len(a.Parts) == 0 || reflect.DeepEqual(a.Parts, b.Parts)
}

// statusText is the text of the final status of a Work that produced out: its content without the
// artifacts' text, which the task carries already. a2aport's adapter writes its content as the
// agent's status text, then each artifact's text, separated by blank lines; what another Port
// writes stays whole unless it ends the same way.
func statusText(out a2aport.Outcome) string {
	content := strings.TrimSpace(out.Content)
	for _, art := range slices.Backward(out.Artifacts) {
		text := strings.TrimSpace(artifactText(art.Parts))
		switch {
		case text == "":
		case content == text:
			content = ""
		case strings.HasSuffix(content, "\n\n"+text):
			content = strings.TrimSpace(strings.TrimSuffix(content, text))
		}
	}
	return content
}

func artifactText(parts []a2aport.Part) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Type == a2aport.PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}
