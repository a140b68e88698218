package abi

import (
	"bytes"
	"testing"

	"github.com/a2aport/a2aport"
)

func TestFrameRoundTrip(t *testing.T) {
	t.Parallel()
	var w Writer
	body := w.Bytes([]byte("{\"jsonrpc\":\"2.0\"}\x00\xff"))
	w.Add(Envelope{Kind: KindFetch, ID: 7, Method: "POST", URL: "http://127.0.0.1/rpc", Headers: map[string][]string{"Accept": {"text/event-stream"}}, Body: body})
	w.Add(Envelope{Kind: KindEvent, ID: 3, Event: &a2aport.Event{Type: a2aport.EventArtifact, WorkID: "w", OwnerID: "o",
		Artifact: &a2aport.Artifact{ID: "a", Parts: []a2aport.Part{{Type: a2aport.PartRaw, Raw: []byte{0, 1, 2}}}}}})
	frame, err := w.Frame(42)
	if err != nil {
		t.Fatal(err)
	}
	b, payload, err := ReadFrame(frame)
	if err != nil {
		t.Fatal(err)
	}
	if b.Now != 42 || len(b.Envelopes) != 2 || b.Envelopes[0].URL != "http://127.0.0.1/rpc" || b.Envelopes[1].Event.Artifact.Parts[0].Raw[2] != 2 {
		t.Fatalf("ReadFrame() = %+v", b)
	}
	got, err := Slice(payload, b.Envelopes[0].Body)
	if err != nil || !bytes.Equal(got, []byte("{\"jsonrpc\":\"2.0\"}\x00\xff")) {
		t.Errorf("Slice() = %q, %v; want the body bytes unchanged", got, err)
	}
}

func TestSliceRejectsSpansOutsideThePayload(t *testing.T) {
	t.Parallel()
	if _, err := Slice([]byte("abc"), &Span{Off: 2, Len: 2}); err == nil {
		t.Error("Slice(2+2 of 3 bytes) succeeded")
	}
	if _, err := Slice([]byte("abc"), &Span{Off: 1<<32 - 1, Len: 2}); err == nil {
		t.Error("Slice(overflowing span) succeeded")
	}
}

// FuzzReadFrame: whatever the bytes, decoding fails cleanly or yields spans that Slice checks.
func FuzzReadFrame(f *testing.F) {
	var w Writer
	w.Add(Envelope{Kind: KindChunk, ID: 1, Body: w.Bytes([]byte("data: {}\n\n"))})
	seed, _ := w.Frame(1)
	f.Add(seed)
	f.Add([]byte{})
	f.Add([]byte{255, 255, 255, 255, '{'})
	f.Fuzz(func(t *testing.T, frame []byte) {
		b, payload, err := ReadFrame(frame)
		if err != nil {
			return
		}
		for _, e := range b.Envelopes {
			if got, err := Slice(payload, e.Body); err == nil && e.Body != nil && len(got) != int(e.Body.Len) {
				t.Fatalf("Slice() returned %d bytes for a span of %d", len(got), e.Body.Len)
			}
		}
	})
}
