package a2aclient

import (
	"reflect"
	"strings"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/growing"
)

// outcomeBuilder collects what a Work produced: artifacts (merged across stream chunks and task
// snapshots), the latest status text and the history of the last snapshot.
type outcomeBuilder struct {
	order     []string
	artifacts map[string]*trackedArtifact
	status    string
	history   []*a2a.Message
	total     int // the size of every artifact together (MaxWorkBytes)
}

// trackedArtifact is one artifact as merged so far. Its text grows without copying what came
// before and its parts are shared with the events that showed them, so a stream of n chunks costs
// O(n) in all.
type trackedArtifact struct {
	a2aport.Artifact // Parts is stale: parts is the truth until event() refreshes it
	version, emitted int

	parts growing.List[a2aport.Part]
	text  growing.Text           // the last part's text while streamed text extends it
	delta *a2aport.ArtifactDelta // what was appended since the last event; nil: show the artifact whole
	size  int                    // bytes of text and raw content, for MaxArtifactBytes
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
	before := t.size
	defer func() { b.total += t.size - before }()
	parts := convertParts(ev.Artifact.Parts)
	if ev.Append {
		changed := false
		for _, p := range parts {
			if last := t.parts.Last(); last != nil && joins(*last, p) && p.Text == "" && len(p.Raw) == 0 {
				continue // an empty continuation changes nothing: no event for it
			}
			t.append(p)
			changed = true
		}
		if !changed {
			return nil
		}
		t.version++
		return t
	}
	return b.replace(t, parts)
}

// snapshot applies a Task's artifacts. A snapshot replaces artifacts it names and never drops
// artifacts it lacks: those may have been streamed before the server stored them.
func (b *outcomeBuilder) snapshot(task *a2a.Task) []*trackedArtifact {
	var changed []*trackedArtifact
	last := map[a2a.ArtifactID]int{} // a task that lists an artifact twice means its last entry
	for i, art := range task.Artifacts {
		if art != nil {
			last[art.ID] = i
		}
	}
	for i, art := range task.Artifacts {
		if art == nil || last[art.ID] != i {
			continue
		}
		t := b.track(art)
		before := t.size
		if b.replace(t, convertParts(art.Parts)) != nil {
			changed = append(changed, t)
		}
		b.total += t.size - before
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
		t = &trackedArtifact{Artifact: a2aport.Artifact{ID: id}}
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

func (b *outcomeBuilder) replace(t *trackedArtifact, parts []a2aport.Part) *trackedArtifact {
	// Join runs the way streamed chunks are joined, so a polled snapshot and a stream of the same
	// artifact give the same parts.
	var joined trackedArtifact
	for _, p := range parts {
		joined.append(p)
	}
	if t.version > 0 && reflect.DeepEqual(t.parts.Items(), joined.parts.Items()) {
		return nil
	}
	t.parts.Reset(joined.parts.Items())
	t.size = joined.size
	t.delta = nil
	t.version++
	return t
}

// append adds p, joining it to a trailing part of the same kind and type so that streamed text
// arrives as one text part, and records it in the pending delta.
func (t *trackedArtifact) append(p a2aport.Part) {
	t.size += len(p.Text) + len(p.Raw)
	last := t.parts.Last()
	if last == nil || !joins(*last, p) {
		t.parts.Push(p)
		if t.delta != nil {
			t.delta.Parts = append(t.delta.Parts, p)
		}
		return
	}
	// The delta grows its own last new part, or else the part it continues.
	var grown *a2aport.Part
	if t.delta != nil && len(t.delta.Parts) > 0 {
		grown = &t.delta.Parts[len(t.delta.Parts)-1]
	}
	switch p.Type {
	case a2aport.PartText:
		last.Text = t.text.Extend(last.Text, p.Text)
		switch {
		case grown != nil:
			grown.Text += p.Text
		case t.delta != nil:
			t.delta.Text += p.Text
		}
	case a2aport.PartRaw:
		last.Raw = append(last.Raw, p.Raw...)
		switch {
		case grown != nil:
			grown.Raw = append(grown.Raw, p.Raw...)
		case t.delta != nil:
			t.delta.Raw = append(t.delta.Raw, p.Raw...)
		}
	}
}

// joins says whether p continues last: streamed text and bytes of one kind form one part.
func joins(last, p a2aport.Part) bool {
	return last.Type == p.Type && (p.Type == a2aport.PartText || p.Type == a2aport.PartRaw) &&
		last.MediaType == p.MediaType && last.Filename == p.Filename
}

// event returns the artifact as the next event shows it (its parts shared and read-only), with
// the delta since the previous event (nil when it must be shown whole), and starts a new delta.
func (t *trackedArtifact) event() (*a2aport.Artifact, *a2aport.ArtifactDelta) {
	t.Parts = t.parts.Items()
	art := t.Artifact
	delta := t.delta
	t.delta = &a2aport.ArtifactDelta{}
	return &art, delta
}

// outcome assembles the result: final status text plus artifact text (deduplicated), the
// history's agent text only when both are empty.
func (b *outcomeBuilder) outcome() a2aport.Outcome {
	out := a2aport.Outcome{Artifacts: make([]a2aport.Artifact, 0, len(b.order))}
	var texts []string
	seen := map[string]bool{} // one pass over the texts: linear in how many artifacts there are
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s != "" && !seen[s] {
			seen[s] = true
			texts = append(texts, s)
		}
	}
	add(b.status)
	for _, id := range b.order {
		t := b.artifacts[id]
		art := t.Artifact
		art.Parts = t.parts.Items()
		if art.Parts == nil {
			art.Parts = []a2aport.Part{}
		}
		out.Artifacts = append(out.Artifacts, art)
		add(artifactText(art.Parts))
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

// artifactText joins the text parts; one text part is returned as it is, not copied (a long
// streamed answer is one part, and the content shares its bytes).
func artifactText(parts []a2aport.Part) string {
	return a2aport.Artifact{Parts: parts}.Text()
}

// messageOutcome is the outcome of a reply that is a Message, not a Task: its text is the
// content and its other parts form one artifact.
func messageOutcome(m *a2a.Message) a2aport.Outcome {
	out := a2aport.Outcome{Content: messageText(m), Artifacts: []a2aport.Artifact{}, MessageReply: m.TaskID == ""}
	var rest []a2aport.Part
	for _, p := range convertParts(m.Parts) {
		if p.Type != a2aport.PartText {
			rest = append(rest, p)
		}
	}
	if len(rest) > 0 {
		out.Artifacts = append(out.Artifacts, a2aport.Artifact{ID: "message-" + m.ID, Name: "message", Parts: rest})
	}
	return out
}
