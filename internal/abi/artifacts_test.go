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
	e := sent.Outcome(out)
	wire := e.Outcome
	if !reflect.DeepEqual(e.Reuse, []string{"answer"}) || e.ContentFrom != "answer" || e.ContentTrim != nil || wire.Content != "" || wire.Artifacts[0].Parts != nil {
		t.Fatalf("Sent.Outcome() = %+v, reuse %v, contentFrom %q: want the answer's parts and content left out, nothing else", wire, e.Reuse, e.ContentFrom)
	}
	if err := host.Outcome(&e); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*wire, out) {
		t.Errorf("rebuilt outcome = %+v, want %+v", *wire, out)
	}
	if err := (&Artifacts{}).Outcome(&Envelope{Outcome: &a2aport.Outcome{}, Reuse: []string{"never-sent"}}); err == nil {
		t.Error("Outcome() accepted a reference to an artifact no event sent")
	}
}

// TestSentOutcomeTrimmedContent: an answer the content trims (a newline at its end, white space of
// any script around it) is still not sent twice: the content refers to the artifact's text and the
// white space left out, and the host gives back exactly the module's content. A content that is
// equal to the text but not its bytes, or has more than white space around it, crosses whole.
func TestSentOutcomeTrimmedContent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text       string
		content    func(string) string
		head, tail int
		referred   bool
	}{
		{"the answer\n", strings.TrimSpace, 0, 1, true},
		{"\n\t answer\u3000 \u0085", strings.TrimSpace, 3, 3, true},
		{"\u00a0é ü\u2029", strings.TrimSpace, 1, 1, true},
		{"no space", strings.TrimSpace, 0, 0, true},
		{"copied\n", func(s string) string { return strings.Clone(strings.TrimSpace(s)) }, 0, 0, false},
		{"x answer y", func(s string) string { return s[2:8] }, 0, 0, false},
		{"answer plus", func(s string) string { return s[:6] }, 0, 0, false},
	} {
		var sent Sent
		var host Artifacts
		answer := []a2aport.Part{text(tc.text)}
		wire, _ := sent.Event(a2aport.Event{Artifact: &a2aport.Artifact{ID: "a", Parts: answer}})
		if err := host.Rebuild(&wire); err != nil {
			t.Fatal(err)
		}
		out := a2aport.Outcome{Content: tc.content(tc.text), Artifacts: []a2aport.Artifact{{ID: "a", Parts: answer}}}
		e := sent.Outcome(out)
		trimmed := tc.head > 0 || tc.tail > 0
		if referred := e.ContentFrom == "a"; referred != tc.referred || trimmed != (e.ContentTrim != nil) ||
			trimmed && (e.ContentTrim[0] != tc.head || e.ContentTrim[1] != tc.tail) {
			t.Errorf("%q: contentFrom %q, contentTrim %v; want referred %v, trim %d, %d", tc.text, e.ContentFrom, e.ContentTrim, tc.referred, tc.head, tc.tail)
			continue
		}
		crossed := throughFrame(t, e)
		if err := host.Outcome(&crossed); err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if crossed.Outcome.Content != out.Content {
			t.Errorf("%q: the host's content = %q, want %q", tc.text, crossed.Outcome.Content, out.Content)
		}
	}
}

// TestArtifactsRefuseABadTrim: a trim that would cut more than white space is the module not
// being sane, not a shorter answer.
func TestArtifactsRefuseABadTrim(t *testing.T) {
	t.Parallel()
	for _, trim := range [][]int{{1, 0}, {0, 2}, {0, 9}, {1}, {1, 1, 1}} {
		var host Artifacts
		ev := a2aport.Event{Artifact: &a2aport.Artifact{ID: "a", Parts: []a2aport.Part{text("answer\n")}}}
		if err := host.Rebuild(&ev); err != nil {
			t.Fatal(err)
		}
		e := Envelope{Outcome: &a2aport.Outcome{Artifacts: []a2aport.Artifact{{ID: "a"}}}, Reuse: []string{"a"}, ContentFrom: "a", ContentTrim: trim}
		if err := host.Outcome(&e); err == nil {
			t.Errorf("trim %v of %q accepted: content %q", trim, "answer\n", e.Outcome.Content)
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
