package abi

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
)

func text(s string) a2aport.Part { return a2aport.Part{Type: a2aport.PartText, Text: s} }

// TestArtifactsRebuild replays what WireEvent sends for a stream (whole, then deltas that extend
// text and bytes and add parts, then a replacement) and checks every rebuilt artifact, including
// that none changes after it was handed out.
func TestArtifactsRebuild(t *testing.T) {
	t.Parallel()
	raw := a2aport.Part{Type: a2aport.PartRaw, Raw: []byte{1}}
	steps := []struct {
		sent a2aport.Event
		want []a2aport.Part
	}{
		{a2aport.Event{Artifact: &a2aport.Artifact{ID: "r", Parts: []a2aport.Part{text("a ")}}}, []a2aport.Part{text("a ")}},
		{a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Text: "b "}}, []a2aport.Part{text("a b ")}},
		{a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Text: "c ", Parts: []a2aport.Part{raw}}}, []a2aport.Part{text("a b c "), raw}},
		{a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Raw: []byte{2}}}, []a2aport.Part{text("a b c "), {Type: a2aport.PartRaw, Raw: []byte{1, 2}}}},
		{a2aport.Event{Artifact: &a2aport.Artifact{ID: "other", Parts: []a2aport.Part{text("x")}}}, []a2aport.Part{text("x")}},
		{a2aport.Event{Artifact: &a2aport.Artifact{ID: "r", Parts: []a2aport.Part{text("new")}}}, []a2aport.Part{text("new")}},
		{a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Text: "er"}}, []a2aport.Part{text("newer")}},
	}
	var a Artifacts
	var got []a2aport.Event
	for i, s := range steps {
		ev := s.sent
		if err := a.Rebuild(&ev); err != nil {
			t.Fatalf("step %d: Rebuild() = %v", i, err)
		}
		if !reflect.DeepEqual(ev.Artifact.Parts, s.want) {
			t.Fatalf("step %d: parts = %+v, want %+v", i, ev.Artifact.Parts, s.want)
		}
		got = append(got, ev)
	}
	for i, ev := range got {
		if !reflect.DeepEqual(ev.Artifact.Parts, steps[i].want) {
			t.Errorf("step %d's artifact changed after it was handed out: %+v", i, ev.Artifact.Parts)
		}
	}
}

func TestArtifactsRebuildRefusesDeltasThatDoNotFit(t *testing.T) {
	t.Parallel()
	whole := a2aport.Event{Artifact: &a2aport.Artifact{ID: "r", Parts: []a2aport.Part{text("a")}}}
	for _, tt := range []struct {
		name  string
		first *a2aport.Event
		delta a2aport.Event
	}{
		{"unknown artifact", nil, a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Text: "b"}}},
		{"bytes after text", &whole, a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Raw: []byte{1}}}},
		{"no part to extend", &a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}}, a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Text: "b"}}},
	} {
		var a Artifacts
		if tt.first != nil {
			first := *tt.first
			if err := a.Rebuild(&first); err != nil {
				t.Fatalf("%s: first Rebuild() = %v", tt.name, err)
			}
		}
		if err := a.Rebuild(&tt.delta); err == nil {
			t.Errorf("%s: Rebuild() accepted a delta that does not fit", tt.name)
		}
	}
}

// BenchmarkArtifactsRebuild shows the host's cost per chunk staying flat as the artifact grows.
func BenchmarkArtifactsRebuild(b *testing.B) {
	chunk := strings.Repeat("x", 300)
	for _, n := range []int{2_000, 20_000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			for b.Loop() {
				var a Artifacts
				ev := a2aport.Event{Artifact: &a2aport.Artifact{ID: "r", Parts: []a2aport.Part{text(chunk)}}}
				_ = a.Rebuild(&ev)
				for range n - 1 {
					ev := a2aport.Event{Artifact: &a2aport.Artifact{ID: "r"}, Delta: &a2aport.ArtifactDelta{Text: chunk}}
					if err := a.Rebuild(&ev); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/chunk")
		})
	}
}

// TestSentOutcomeRoundTrip sends a stream's events and outcome through Sent, as the module does,
// and rebuilds them with Artifacts, as a host does: the host's outcome is the module's, and only
// what the host could not have is sent again.
func TestSentOutcomeRoundTrip(t *testing.T) {
	t.Parallel()
	answer := []a2aport.Part{text("the whole answer")}
	changed := []a2aport.Part{text("changed after its last event")}
	var sent Sent
	var host Artifacts
	for _, ev := range []a2aport.Event{
		{Artifact: &a2aport.Artifact{ID: "answer", Name: "answer", Parts: answer}},
		{Artifact: &a2aport.Artifact{ID: "stale", Parts: []a2aport.Part{text("old")}}},
	} {
		wire, _ := sent.Event(ev)
		if err := host.Rebuild(&wire); err != nil {
			t.Fatal(err)
		}
	}
	out := a2aport.Outcome{Content: answer[0].Text, Artifacts: []a2aport.Artifact{
		{ID: "answer", Name: "answer", Parts: answer},
		{ID: "stale", Parts: changed},
		{ID: "message-1", Name: "message", Parts: []a2aport.Part{{Type: a2aport.PartURL, URL: "https://x.example/f"}}},
	}}
	wire := out
	wire.Content = ""
	e := sent.Outcome(wire, []ContentPiece{{From: "answer"}})
	if !reflect.DeepEqual(e.Reuse, []string{"answer"}) || e.Outcome.Artifacts[0].Parts != nil || e.Outcome.Artifacts[1].Parts == nil {
		t.Fatalf("Sent.Outcome() = %+v, reuse %v: want the answer's parts left out, nothing else", e.Outcome, e.Reuse)
	}
	crossed := throughFrame(t, e)
	if err := host.Outcome(&crossed); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*crossed.Outcome, out) {
		t.Errorf("rebuilt outcome = %+v, want %+v", *crossed.Outcome, out)
	}
	if err := (&Artifacts{}).Outcome(&Envelope{Outcome: &a2aport.Outcome{}, Reuse: []string{"never-sent"}}); err == nil {
		t.Error("Outcome() accepted a reference to an artifact no event sent")
	}
}

// TestContentPieces: the host assembles the content from its pieces as the adapter composed it:
// texts and artifacts' texts (their text parts joined) trimmed of the white space counted, of any
// script, a blank line apart.
func TestContentPieces(t *testing.T) {
	t.Parallel()
	arts := []a2aport.Artifact{
		{ID: "a", Parts: []a2aport.Part{text("\n\t answer\u3000 \u0085")}},
		{ID: "b", Parts: []a2aport.Part{text("\u00a0é "), {Type: a2aport.PartData, Data: []byte(`{}`)}, text("ü\u2029")}},
		{ID: "c", Parts: []a2aport.Part{text("no space")}},
	}
	var host Artifacts
	e := Envelope{Outcome: &a2aport.Outcome{Artifacts: arts}, Content: []ContentPiece{
		{Text: "done"}, {From: "a", Head: 3, Tail: 3}, {From: "b", Head: 1, Tail: 1}, {From: "c"},
	}}
	crossed := throughFrame(t, e)
	if err := host.Outcome(&crossed); err != nil {
		t.Fatal(err)
	}
	if want := "done\n\nanswer\n\né ü\n\nno space"; crossed.Outcome.Content != want {
		t.Errorf("content = %q, want %q", crossed.Outcome.Content, want)
	}
}

// TestArtifactsRefuseABadTrim: a trim that would cut more than white space, or a piece of an
// artifact the outcome lacks, is the module not being sane, not a shorter answer.
func TestArtifactsRefuseABadTrim(t *testing.T) {
	t.Parallel()
	for _, piece := range []ContentPiece{{From: "a", Head: 1}, {From: "a", Tail: 2}, {From: "a", Tail: 9}, {From: "a", Head: -1}, {From: "z"}} {
		var host Artifacts
		ev := a2aport.Event{Artifact: &a2aport.Artifact{ID: "a", Parts: []a2aport.Part{text("answer\n")}}}
		if err := host.Rebuild(&ev); err != nil {
			t.Fatal(err)
		}
		e := Envelope{Outcome: &a2aport.Outcome{Artifacts: []a2aport.Artifact{{ID: "a"}}}, Reuse: []string{"a"}, Content: []ContentPiece{piece}}
		if err := host.Outcome(&e); err == nil {
			t.Errorf("piece %+v of %q accepted: content %q", piece, "answer\n", e.Outcome.Content)
		}
	}
}

// throughFrame is e as a host reads it from a frame the module wrote.
func throughFrame(t *testing.T, e Envelope) Envelope {
	t.Helper()
	var w Writer
	w.Add(e)
	frame, err := w.Frame(0)
	if err != nil {
		t.Fatal(err)
	}
	batch, _, err := ReadFrame(frame)
	if err != nil || len(batch.Envelopes) != 1 {
		t.Fatalf("ReadFrame() = %v, %v", batch, err)
	}
	return batch.Envelopes[0]
}
