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
