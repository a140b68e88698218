package binding

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// chunkTexts are the chunks of the agent's streamed answer (sdk_test.go): texts that JSON
// escapes, and one that is not ASCII.
var chunkTexts = []string{"héllo ", "plain ascii ", `"quoted" `, "back\\slash ", "line\nbreak\t", "✓ \u2028 done", "", "last"}

// TestChunkRepeatOnSDKBytes streams the answer from a2a-go's own servers (1.0 and 0.3, each
// binding with a fast decoder) and reads each event of the bytes they sent as eventStream does:
// every chunk after the first of a run is read by chunkRepeat, and reads as the fast decoder
// reads it. (TestAgentAgreesWithSDKClient holds the same stream to a2a-go's client.)
func TestChunkRepeatOnSDKBytes(t *testing.T) {
	t.Parallel()
	card := startAgent(t)
	fast := map[string]func([]byte) (a2a.Event, bool){
		"JSONRPC/1.0": decodeFast, "HTTP+JSON/1.0": decodeFastREST, "JSONRPC/0.3": decodeFast03,
	}
	for _, iface := range card.SupportedInterfaces {
		name := string(iface.ProtocolBinding) + "/" + string(iface.ProtocolVersion)
		decode := fast[name]
		if decode == nil {
			continue // 0.3's HTTP+JSON has no fast decoder, so nothing to repeat
		}
		t.Run(name, func(t *testing.T) {
			tp := &tape{}
			agent, err := NewAgent(card, iface, &Client{Transport: tp}, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if o := collect(agent.SendStreamingMessage(context.Background(), message("chunks"))); o.err != nil {
				t.Fatal(o.err)
			}
			var repeat chunkRepeat
			var texts []string
			repeated := 0
			for data, err := range dataEvents(bytes.NewReader(tp.answers[0].body)) {
				if err != nil {
					t.Fatal(err)
				}
				want, wantOK := decode(data)
				got, ok := repeat.decode(data)
				if ok {
					repeated++
					if !wantOK || !reflect.DeepEqual(got, want) {
						t.Fatalf("chunkRepeat read %s\nas %s\nthe fast decoder as %s (ok %v)", data, dump(got), dump(want), wantOK)
					}
				} else if wantOK {
					repeat.learn(data, want)
					got = want
				}
				if up, isUpdate := got.(*a2a.TaskArtifactUpdateEvent); isUpdate {
					texts = append(texts, up.Artifact.Parts[0].Text())
				}
			}
			if strings.Join(texts, "|") != strings.Join(chunkTexts, "|") {
				t.Fatalf("chunks read: %q, want %q", texts, chunkTexts)
			}
			// The first chunk is learned, the second differs from it in append, the last in
			// lastChunk: the others are repeats.
			if want := len(chunkTexts) - 3; repeated != want {
				t.Errorf("chunkRepeat read %d chunks, want %d", repeated, want)
			}
		})
	}
}

// FuzzChunkRepeat: whatever chunkRepeat reads, having learned any event, the fast decoder reads
// the same way, for each binding's fast decoder. The seeds are the corpus's events, each with
// its text's JSON replaced by contents that are and are not one JSON string.
func FuzzChunkRepeat(f *testing.F) {
	contents := []string{`x`, ``, `\"`, `\\`, `\u00e9\ud800`, "é", "\xff", "\x01", `a","name":"b`, `a\`, `a\"`, `\n`}
	for _, c := range append(corpus(f), corpus03(f)...) {
		start, end, found := textValue(c.data)
		if !found {
			f.Add(c.data, c.data)
			continue
		}
		for _, content := range contents {
			next := append(append(append([]byte{}, c.data[:start]...), content...), c.data[end:]...)
			f.Add(c.data, next)
		}
		for i, b := range c.data { // the same text and one letter changed elsewhere
			if b >= 'a' && b <= 'z' && (i < start-1 || i > end) {
				changed := bytes.Clone(c.data)
				changed[i] = 'a' + (b-'a'+1)%26
				f.Add(c.data, changed)
			}
		}
	}
	fast := []func([]byte) (a2a.Event, bool){decodeFast, decodeFastREST, decodeFast03}
	f.Fuzz(func(t *testing.T, learned, data []byte) {
		for _, decode := range fast {
			var repeat chunkRepeat
			if ev, ok := decode(learned); ok {
				repeat.learn(learned, ev)
			}
			got, ok := repeat.decode(data)
			if !ok {
				continue
			}
			want, wantOK := decode(data)
			if !wantOK || !reflect.DeepEqual(got, want) {
				t.Fatalf("having learned %s\nchunkRepeat read %s\nas %s\nthe fast decoder as %s (ok %v)", learned, data, dump(got), dump(want), wantOK)
			}
		}
	})
}

// TestChunkRepeatKnowsEveryField keeps learn and event honest: a field a2a-go adds to these types
// would be copied from the learned event to every repeat, or dropped, without being read again.
func TestChunkRepeatKnowsEveryField(t *testing.T) {
	t.Parallel()
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[a2a.TaskArtifactUpdateEvent](): "Append Artifact ContextID LastChunk TaskID Metadata",
		reflect.TypeFor[a2a.Artifact]():                "ID Description Extensions Metadata Name Parts",
		reflect.TypeFor[a2a.Part]():                    "Content Filename MediaType Metadata",
	} {
		var names []string
		for i := range typ.NumField() {
			names = append(names, typ.Field(i).Name)
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%s has fields %s; chunkRepeat knows %s: decide how a repeat carries the new ones", typ, got, want)
		}
	}
}

// TestChunkRepeatStopsLearning: chunks of two artifacts in turn never repeat the one before
// them; after maxUnusedLearns of them the stream stops learning, and a repeat learned before a
// run of misses shorter than that still serves.
func TestChunkRepeatStopsLearning(t *testing.T) {
	t.Parallel()
	chunk := func(artifact, text string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":"r","result":{"artifactUpdate":{"taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"` + artifact + `","parts":[{"text":"` + text + `"}]}}}}`)
	}
	read := func(r *chunkRepeat, data []byte) (repeated bool) {
		if _, ok := r.decode(data); ok {
			return true
		}
		ev, ok := decodeFast(data)
		if !ok {
			t.Fatalf("the fast decoder refused %s", data)
		}
		r.learn(data, ev)
		return false
	}
	var r chunkRepeat
	for i := range maxUnusedLearns {
		if read(&r, chunk([]string{"a", "b"}[i%2], "x")) {
			t.Fatalf("chunk %d of two artifacts in turn read as a repeat", i)
		}
	}
	if read(&r, chunk("c", "x")) || read(&r, chunk("c", "y")) {
		t.Fatal("the stream went on learning after", maxUnusedLearns, "events learned without a repeat")
	}
	// A repeat starts the count again: runs of misses apart from each other never stop learning.
	var fresh chunkRepeat
	for run := range 3 {
		for i := range maxUnusedLearns - 1 {
			read(&fresh, chunk([]string{"a", "b"}[i%2], "x"))
		}
		if !read(&fresh, chunk("a", "y")) {
			t.Fatalf("run %d: a chunk that repeats the one before it was not read as a repeat", run)
		}
	}
}
