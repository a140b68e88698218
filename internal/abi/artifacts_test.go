package abi

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/adapter"
)

func text(s string) adapter.Part { return adapter.Part{Type: adapter.PartText, Text: s} }

// TestArtifactsRebuild replays what WireEvent sends for a stream (whole, then deltas that extend
// text and bytes and add parts, then a replacement) and checks every rebuilt artifact, including
// that none changes after it was handed out.
func TestArtifactsRebuild(t *testing.T) {
	t.Parallel()
	raw := adapter.Part{Type: adapter.PartRaw, Raw: []byte{1}}
	steps := []struct {
		sent adapter.Event
		want []adapter.Part
	}{
		{adapter.Event{Artifact: &adapter.Artifact{ID: "r", Parts: []adapter.Part{text("a ")}}}, []adapter.Part{text("a ")}},
		{adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Text: "b "}}, []adapter.Part{text("a b ")}},
		{adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Text: "c ", Parts: []adapter.Part{raw}}}, []adapter.Part{text("a b c "), raw}},
		{adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Raw: []byte{2}}}, []adapter.Part{text("a b c "), {Type: adapter.PartRaw, Raw: []byte{1, 2}}}},
		{adapter.Event{Artifact: &adapter.Artifact{ID: "other", Parts: []adapter.Part{text("x")}}}, []adapter.Part{text("x")}},
		{adapter.Event{Artifact: &adapter.Artifact{ID: "r", Parts: []adapter.Part{text("new")}}}, []adapter.Part{text("new")}},
		{adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Text: "er"}}, []adapter.Part{text("newer")}},
	}
	var a Artifacts
	var got []adapter.Event
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
	whole := adapter.Event{Artifact: &adapter.Artifact{ID: "r", Parts: []adapter.Part{text("a")}}}
	for _, tt := range []struct {
		name  string
		first *adapter.Event
		delta adapter.Event
	}{
		{"unknown artifact", nil, adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Text: "b"}}},
		{"bytes after text", &whole, adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Raw: []byte{1}}}},
		{"no part to extend", &adapter.Event{Artifact: &adapter.Artifact{ID: "r"}}, adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Text: "b"}}},
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
				ev := adapter.Event{Artifact: &adapter.Artifact{ID: "r", Parts: []adapter.Part{text(chunk)}}}
				_ = a.Rebuild(&ev)
				for range n - 1 {
					ev := adapter.Event{Artifact: &adapter.Artifact{ID: "r"}, Delta: &adapter.ArtifactDelta{Text: chunk}}
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
	answer := []adapter.Part{text("the whole answer")}
	changed := []adapter.Part{text("changed after its last event")}
	var sent Sent
	var host Artifacts
	for _, ev := range []adapter.Event{
		{Artifact: &adapter.Artifact{ID: "answer", Name: "answer", Parts: answer}},
		{Artifact: &adapter.Artifact{ID: "stale", Parts: []adapter.Part{text("old")}}},
	} {
		wire := sent.Event(ev)
		if err := host.Rebuild(&wire); err != nil {
			t.Fatal(err)
		}
	}
	out := adapter.Outcome{Content: answer[0].Text, Artifacts: []adapter.Artifact{
		{ID: "answer", Name: "answer", Parts: answer},
		{ID: "stale", Parts: changed},
		{ID: "message-1", Name: "message", Parts: []adapter.Part{{Type: adapter.PartURL, URL: "https://x.example/f"}}},
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
	if err := (&Artifacts{}).Outcome(&adapter.Outcome{}, []string{"never-sent"}, ""); err == nil {
		t.Error("Outcome() accepted a reference to an artifact no event sent")
	}
}
