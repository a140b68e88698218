package a2aclient

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestOutcomeMergesChunksAndSnapshots(t *testing.T) {
	t.Parallel()
	b := newOutcomeBuilder(nil)
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
	want := a2aport.Outcome{Content: "done\n\npart-1 part-2\n\nside", Artifacts: []a2aport.Artifact{
		{ID: "report", Name: "report", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "part-1 part-2"}}},
		{ID: "other", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "side"}}},
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
	b := newOutcomeBuilder(nil)
	b.snapshot(&a2a.Task{ID: "t", Artifacts: []*a2a.Artifact{{ID: "a", Parts: a2a.ContentParts{a2a.NewTextPart("same")}}}})
	b.status = "same"
	if got := b.outcome().Content; got != "same" {
		t.Errorf("outcome().Content = %q, want %q (deduplicated)", got, "same")
	}
	h := newOutcomeBuilder(nil)
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
	if got.Content != "plain reply" || len(got.Artifacts) != 1 || got.Artifacts[0].Parts[0].Type != a2aport.PartData {
		t.Errorf("messageOutcome() = %+v, want text as content and the data part as one artifact", got)
	}
}

// TestArtifactEventsCarryExactDeltas streams a mix of chunks (text runs, bytes, other parts,
// replacements) and checks after each one that the event's delta applied to the previous event's
// artifact gives the new one, and that no event's artifact changes afterwards.
func TestArtifactEventsCarryExactDeltas(t *testing.T) {
	t.Parallel()
	info := a2a.TaskInfo{TaskID: "t", ContextID: "c"}
	text := func(s, mime string) *a2a.Part { p := a2a.NewTextPart(s); p.MediaType = mime; return p }
	chunks := []struct {
		append bool
		parts  []*a2a.Part
	}{
		{false, []*a2a.Part{text("a", "")}},
		{true, []*a2a.Part{text("b", "")}},
		{true, []*a2a.Part{text("c", ""), text("d", "")}},
		{true, []*a2a.Part{a2a.NewRawPart([]byte{1}), a2a.NewRawPart([]byte{2})}},
		{true, []*a2a.Part{a2a.NewRawPart([]byte{3})}},
		{true, []*a2a.Part{a2a.NewDataPart(map[string]any{"k": "v"}), text("e", ""), text("f", "")}},
		{true, []*a2a.Part{text("g", "text/markdown")}},
		{true, []*a2a.Part{text("h", "text/markdown")}},
		{false, []*a2a.Part{text("x", ""), text("y", "")}},
		{true, []*a2a.Part{text("z", "")}},
	}
	b := newOutcomeBuilder(nil)
	var shown []a2aport.Artifact // what each event showed, as the listener saw it
	var frozen []string          // the same, printed at the time
	var prev *a2aport.Artifact
	for i, c := range chunks {
		ev := a2a.NewArtifactUpdateEvent(info, "a", c.parts...)
		ev.Append = c.append
		tr := b.chunk(ev)
		if tr == nil {
			t.Fatalf("chunk %d: no change reported", i)
		}
		art, delta := tr.event()
		switch {
		case i == 0 || !c.append:
			if delta != nil {
				t.Fatalf("chunk %d: a new or replaced artifact came with a delta %+v", i, delta)
			}
		case delta == nil:
			t.Fatalf("chunk %d: an append came without a delta", i)
		default:
			if got := applyDelta(*prev, delta); !reflect.DeepEqual(got.Parts, art.Parts) {
				t.Fatalf("chunk %d: previous + delta = %+v, want %+v", i, got.Parts, art.Parts)
			}
		}
		shown = append(shown, *art)
		frozen = append(frozen, fmt.Sprintf("%+v", art.Parts))
		prev = art
	}
	for i := range shown {
		if got := fmt.Sprintf("%+v", shown[i].Parts); got != frozen[i] {
			t.Errorf("event %d's artifact changed after delivery: %s, was %s", i, got, frozen[i])
		}
	}
	if got, want := fmt.Sprintf("%+v", prev.Parts), fmt.Sprintf("%+v", []a2aport.Part{{Type: a2aport.PartText, Text: "xyz"}}); got != want {
		t.Errorf("final parts = %s, want %s", got, want)
	}
}

// applyDelta is the plain reading of ArtifactDelta's contract.
func applyDelta(a a2aport.Artifact, d *a2aport.ArtifactDelta) a2aport.Artifact {
	parts := append([]a2aport.Part(nil), a.Parts...)
	if n := len(parts); n > 0 {
		parts[n-1].Text += d.Text
		parts[n-1].Raw = append(append([]byte(nil), parts[n-1].Raw...), d.Raw...)
		if len(parts[n-1].Raw) == 0 {
			parts[n-1].Raw = a.Parts[n-1].Raw
		}
	}
	a.Parts = append(parts, d.Parts...)
	return a
}

// BenchmarkOutcomeManyArtifacts assembles the outcome of a Work with n distinct artifacts: linear
// in n (its texts are de-duplicated through a set; they were compared pairwise, 8 s for 80,000).
func BenchmarkOutcomeManyArtifacts(b *testing.B) {
	for _, n := range []int{10_000, 80_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			builder := newOutcomeBuilder(nil)
			for i := range n {
				id := a2a.ArtifactID(fmt.Sprintf("a%d", i))
				builder.chunk(&a2a.TaskArtifactUpdateEvent{Artifact: &a2a.Artifact{ID: id, Parts: []*a2a.Part{a2a.NewTextPart(fmt.Sprintf("text %d", i))}}})
			}
			b.ResetTimer()
			for range b.N {
				if out := builder.outcome(); len(out.Artifacts) != n {
					b.Fatalf("%d artifacts", len(out.Artifacts))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/artifact")
		})
	}
}
