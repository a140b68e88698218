package adapter

import (
	"reflect"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// outcomeBuilder collects what a Work produced: artifacts (merged across stream chunks and task
// snapshots), the latest status text and the history of the last snapshot.
type outcomeBuilder struct {
	order     []string
	artifacts map[string]*trackedArtifact
	status    string
	history   []*a2a.Message
}

type trackedArtifact struct {
	Artifact
	version, emitted int
}

func newOutcomeBuilder() *outcomeBuilder {
	return &outcomeBuilder{artifacts: map[string]*trackedArtifact{}}
}

// chunk applies a streamed artifact update: append adds parts (joining text or raw runs),
// otherwise the artifact is replaced. It returns the artifact when its content changed.
func (b *outcomeBuilder) chunk(ev *a2a.TaskArtifactUpdateEvent) *trackedArtifact {
	if ev.Artifact == nil {
		return nil
	}
	t := b.track(ev.Artifact)
	parts := convertParts(ev.Artifact.Parts)
	if ev.Append {
		if len(parts) == 0 {
			return nil
		}
		for _, p := range parts {
			t.Parts = appendPart(t.Parts, p)
		}
		t.version++
		return t
	}
	return b.replace(t, ev.Artifact, parts)
}

// snapshot applies a Task's artifacts. A snapshot replaces artifacts it names and never drops
// artifacts it lacks: those may have been streamed before the server stored them.
func (b *outcomeBuilder) snapshot(task *a2a.Task) []*trackedArtifact {
	var changed []*trackedArtifact
	for _, art := range task.Artifacts {
		if art == nil {
			continue
		}
		if t := b.replace(b.track(art), art, convertParts(art.Parts)); t != nil {
			changed = append(changed, t)
		}
	}
	if len(task.History) > 0 {
		b.history = task.History
	}
	return changed
}

func (b *outcomeBuilder) track(art *a2a.Artifact) *trackedArtifact {
	id := string(art.ID)
	t, ok := b.artifacts[id]
	if !ok {
		t = &trackedArtifact{Artifact: Artifact{ID: id, Parts: []Part{}}}
		b.artifacts[id] = t
		b.order = append(b.order, id)
	}
	if art.Name != "" {
		t.Name = art.Name
	}
	if art.Description != "" {
		t.Description = art.Description
	}
	return t
}

func (b *outcomeBuilder) replace(t *trackedArtifact, art *a2a.Artifact, parts []Part) *trackedArtifact {
	// Join runs the way streamed chunks are joined, so a polled snapshot and a stream of the same
	// artifact give the same parts.
	joined := make([]Part, 0, len(parts))
	for _, p := range parts {
		joined = appendPart(joined, p)
	}
	parts = joined
	if t.version > 0 && reflect.DeepEqual(t.Parts, parts) {
		return nil
	}
	t.Parts = parts
	t.version++
	return t
}

// appendPart adds p, joining it to a trailing part of the same kind and type so that streamed
// text arrives as one text part.
func appendPart(parts []Part, p Part) []Part {
	if n := len(parts); n > 0 {
		last := &parts[n-1]
		if last.Type == p.Type && last.MediaType == p.MediaType && last.Filename == p.Filename {
			switch p.Type {
			case PartText:
				last.Text += p.Text
				return parts
			case PartRaw:
				last.Raw = append(last.Raw, p.Raw...)
				return parts
			}
		}
	}
	return append(parts, p)
}

// outcome assembles the result: final status text plus artifact text (deduplicated), the
// history's agent text only when both are empty.
func (b *outcomeBuilder) outcome() Outcome {
	out := Outcome{Artifacts: make([]Artifact, 0, len(b.order))}
	var texts []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		for _, t := range texts {
			if t == s {
				return
			}
		}
		if s != "" {
			texts = append(texts, s)
		}
	}
	add(b.status)
	for _, id := range b.order {
		art := b.artifacts[id].Artifact
		out.Artifacts = append(out.Artifacts, art)
		var text strings.Builder
		for _, p := range art.Parts {
			if p.Type == PartText {
				text.WriteString(p.Text)
			}
		}
		add(text.String())
	}
	if len(texts) == 0 {
		for i := len(b.history) - 1; i >= 0; i-- {
			if m := b.history[i]; m != nil && m.Role == a2a.MessageRoleAgent {
				if add(messageText(m)); len(texts) > 0 {
					break
				}
			}
		}
	}
	out.Content = strings.Join(texts, "\n\n")
	return out
}

// messageOutcome is the outcome of a reply that is a Message, not a Task: its text is the
// content and its other parts form one artifact.
func messageOutcome(m *a2a.Message) Outcome {
	out := Outcome{Content: messageText(m), Artifacts: []Artifact{}}
	var rest []Part
	for _, p := range convertParts(m.Parts) {
		if p.Type != PartText {
			rest = append(rest, p)
		}
	}
	if len(rest) > 0 {
		out.Artifacts = append(out.Artifacts, Artifact{ID: "message-" + m.ID, Name: "message", Parts: rest})
	}
	return out
}
