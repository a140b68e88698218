package adapter

import (
	"reflect"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestOutcomeMergesChunksAndSnapshots(t *testing.T) {
	t.Parallel()
	b := newOutcomeBuilder()
	info := a2a.TaskInfo{TaskID: "t", ContextID: "c"}
	first := a2a.NewArtifactEvent(info, a2a.NewTextPart("part-1 "))
	first.Artifact.ID, first.Artifact.Name = "report", "report"
	if b.chunk(first) == nil {
		t.Fatal("chunk(first) reported no change")
	}
	second := a2a.NewArtifactUpdateEvent(info, "report", a2a.NewTextPart("part-2"))
	second.LastChunk = true
	b.chunk(second)
	// A snapshot that lacks the streamed artifact must not lose it; one it names replaces it.
	b.snapshot(&a2a.Task{ID: "t", Artifacts: []*a2a.Artifact{{ID: "other", Parts: a2a.ContentParts{a2a.NewTextPart("side")}}}})
	b.status = "done"
	got := b.outcome()
	want := Outcome{Content: "done\n\npart-1 part-2\n\nside", Artifacts: []Artifact{
		{ID: "report", Name: "report", Parts: []Part{{Type: PartText, Text: "part-1 part-2"}}},
		{ID: "other", Parts: []Part{{Type: PartText, Text: "side"}}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outcome() = %+v, want %+v", got, want)
	}
	if b.snapshot(&a2a.Task{ID: "t", Artifacts: []*a2a.Artifact{{ID: "other", Parts: a2a.ContentParts{a2a.NewTextPart("side")}}}}) != nil {
		t.Error("an unchanged snapshot reported a change; artifact events must fire once per change")
	}
}

func TestOutcomeDeduplicatesAndFallsBackToHistory(t *testing.T) {
	t.Parallel()
	b := newOutcomeBuilder()
	b.snapshot(&a2a.Task{ID: "t", Artifacts: []*a2a.Artifact{{ID: "a", Parts: a2a.ContentParts{a2a.NewTextPart("same")}}}})
	b.status = "same"
	if got := b.outcome().Content; got != "same" {
		t.Errorf("outcome().Content = %q, want %q (deduplicated)", got, "same")
	}
	h := newOutcomeBuilder()
	h.snapshot(&a2a.Task{ID: "t", History: []*a2a.Message{
		a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("question")),
		a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("answer")),
	}})
	if got := h.outcome().Content; got != "answer" {
		t.Errorf("outcome().Content = %q, want the agent's history text %q", got, "answer")
	}
}

func TestMessageOutcome(t *testing.T) {
	t.Parallel()
	m := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("plain reply"), a2a.NewDataPart(map[string]any{"kind": "message"}))
	got := messageOutcome(m)
	if got.Content != "plain reply" || len(got.Artifacts) != 1 || got.Artifacts[0].Parts[0].Type != PartData {
		t.Errorf("messageOutcome() = %+v, want text as content and the data part as one artifact", got)
	}
}
