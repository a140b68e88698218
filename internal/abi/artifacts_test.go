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
	wire, reuse, contentFrom := sent.Outcome(out)
	if !reflect.DeepEqual(reuse, []string{"answer"}) || contentFrom != "answer" || wire.Content != "" || wire.Artifacts[0].Parts != nil {
		t.Fatalf("Sent.Outcome() = %+v, reuse %v, contentFrom %q: want the answer's parts and content left out, nothing else", wire, reuse, contentFrom)
	}
	if err := host.Outcome(&wire, reuse, contentFrom); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(wire, out) {
		t.Errorf("rebuilt outcome = %+v, want %+v", wire, out)
	}
	if err := (&Artifacts{}).Outcome(&a2aport.Outcome{}, []string{"never-sent"}, ""); err == nil {
		t.Error("Outcome() accepted a reference to an artifact no event sent")
	}
}
