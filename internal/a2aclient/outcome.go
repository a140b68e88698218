package a2aclient

import (
	"context"
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

	// pieces, when set, receives the content as pieces, and appended text is summarized, not kept
	// (WithContentPieces): the caller rebuilds the artifacts from the events' deltas.
	pieces *[]ContentPiece
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

	// Where appended text is summarized (outcomeBuilder.pieces): the text parts' text together,
	// and each part's text length. A part's Text then stops growing at its first piece: events
	// after it carry deltas, from which the caller rebuilds the rest.
	sum      *growing.Summary
	textLens []int
}

func newOutcomeBuilder(pieces *[]ContentPiece) *outcomeBuilder {
	return &outcomeBuilder{artifacts: map[string]*trackedArtifact{}, pieces: pieces}
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
			if last, ok := t.parts.Peek(); ok && joins(last, p) && p.Text == "" && len(p.Raw) == 0 {
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
		if b.pieces != nil {
			t.sum = &growing.Summary{}
		}
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
	if t.version > 0 && t.same(joined.parts.Items()) {
		return nil
	}
	t.parts.Reset(joined.parts.Items())
	if t.sum != nil {
		t.sum, t.textLens = &growing.Summary{}, nil
		for _, p := range joined.parts.Items() {
			t.sum.Add(p.Text)
			t.textLens = append(t.textLens, len(p.Text))
		}
	}
	t.size = joined.size
	t.delta = nil
	t.version++
	return t
}

// append adds p, joining it to a trailing part of the same kind and type so that streamed text
// arrives as one text part, and records it in the pending delta.
func (t *trackedArtifact) append(p a2aport.Part) {
	t.size += len(p.Text) + len(p.Raw)
	if t.sum != nil && p.Type == a2aport.PartText {
		t.sum.Add(p.Text)
	}
	last := t.parts.Last()
	if last == nil || !joins(*last, p) {
		if t.sum != nil {
			t.textLens = append(t.textLens, len(p.Text))
		}
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
		if t.sum != nil {
			t.textLens[len(t.textLens)-1] += len(p.Text)
		} else {
			last.Text = t.text.Extend(last.Text, p.Text)
		}
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

// same reports whether parts are the artifact's parts: compared whole, or where its text is
// summarized, every part but its text, each text part's length, and the text parts' text together.
func (t *trackedArtifact) same(parts []a2aport.Part) bool {
	mine := t.parts.Items()
	if t.sum == nil {
		return reflect.DeepEqual(mine, parts)
	}
	if len(mine) != len(parts) {
		return false
	}
	for i := range mine {
		a, b := mine[i], parts[i]
		if t.textLens[i] != len(b.Text) {
			return false
		}
		a.Text, b.Text = "", ""
		if !reflect.DeepEqual(a, b) {
			return false
		}
	}
	return t.sum.Equal(artifactText(parts))
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
// history's agent text only when both are empty. Where text is summarized, the content goes to
// b.pieces instead when an artifact's text is part of it.
func (b *outcomeBuilder) outcome() a2aport.Outcome {
	out := a2aport.Outcome{Artifacts: make([]a2aport.Artifact, 0, len(b.order))}
	var pieces []ContentPiece
	referred := false
	// One pass over the texts, linear in how many artifacts there are. A text is its own key, but
	// where the artifacts' text is summarized all texts are keyed by their summary's key.
	seen := map[any]bool{}
	add := func(piece ContentPiece, key any, empty bool) {
		if !empty && !seen[key] {
			seen[key] = true
			pieces = append(pieces, piece)
			referred = referred || piece.From != ""
		}
	}
	addText := func(s string) {
		s = strings.TrimSpace(s)
		if b.pieces != nil {
			add(ContentPiece{Text: s}, growing.KeyOf(s), s == "")
		} else {
			add(ContentPiece{Text: s}, s, s == "")
		}
	}
	addText(b.status)
	for _, id := range b.order {
		t := b.artifacts[id]
		art := t.Artifact
		art.Parts = t.parts.Items()
		if art.Parts == nil {
			art.Parts = []a2aport.Part{}
		}
		out.Artifacts = append(out.Artifacts, art)
		if t.sum == nil {
			addText(artifactText(art.Parts))
		} else {
			key, head, tail := t.sum.Trimmed()
			add(ContentPiece{From: id, Head: head, Tail: tail}, key, key.Len == 0)
		}
	}
	if len(pieces) == 0 {
		for i := len(b.history) - 1; i >= 0; i-- {
			if m := b.history[i]; m != nil && m.Role == a2a.MessageRoleAgent {
				if addText(messageText(m)); len(pieces) > 0 {
					break
				}
			}
		}
	}
	if referred {
		*b.pieces = pieces
		return out
	}
	texts := make([]string, len(pieces))
	for i, p := range pieces {
		texts[i] = p.Text
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

// ContentPiece is one text of an outcome's content, for a caller that rebuilds the artifacts from
// the events' deltas (WithContentPieces): Text, or the text of artifact From (its text parts
// joined) less Head white space characters at its start and Tail at its end. The content is the
// pieces' texts joined by a blank line.
type ContentPiece struct {
	Text       string
	From       string
	Head, Tail int
}

type piecesKey struct{}

// WithContentPieces is ctx for a Submit or Resume call whose caller rebuilds the artifacts from
// the events' deltas, as the module's host does: the adapter does not keep the text that chunks
// append (only a growing.Summary of it), an artifact event's parts are then its first text where
// it carries a delta, and when an artifact's text is part of the outcome's content the content
// goes to *pieces, Outcome.Content left empty. The module holds each text once: its host does.
func WithContentPieces(ctx context.Context, pieces *[]ContentPiece) context.Context {
	return context.WithValue(ctx, piecesKey{}, pieces)
}

func contentPieces(ctx context.Context) *[]ContentPiece {
	p, _ := ctx.Value(piecesKey{}).(*[]ContentPiece)
	return p
}
