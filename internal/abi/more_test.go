package abi

import (
	"reflect"
	"testing"

	"github.com/a2aport/a2aport"
)

// TestMoreRoundTrip sends a stream's events through Sent, as the module does, turns those it marks
// as more into what crosses (the delta's text alone), and rebuilds them with Artifacts.More and
// Rebuild, as a host does: every event the host delivers is the event the adapter emitted, and
// only events that differ from the last text-only one in their text cross as more.
func TestMoreRoundTrip(t *testing.T) {
	t.Parallel()
	answer := func(parts []a2aport.Part, delta *a2aport.ArtifactDelta) a2aport.Event {
		return a2aport.Event{Type: "backend.artifact", WorkID: "w", OwnerID: "o", Artifact: &a2aport.Artifact{ID: "a", Name: "answer", Parts: parts}, Delta: delta}
	}
	other := func(s string, delta *a2aport.ArtifactDelta) a2aport.Event {
		ev := answer([]a2aport.Part{text(s)}, delta)
		ev.Artifact.ID = "b"
		return ev
	}
	raw := a2aport.Part{Type: a2aport.PartRaw, Raw: []byte{1}}
	steps := []struct {
		ev   a2aport.Event
		more bool
	}{
		{a2aport.Event{Type: "backend.activity", WorkID: "w", OwnerID: "o", State: a2aport.StateWorking}, false},
		{answer([]a2aport.Part{text("a")}, nil), false},
		{answer([]a2aport.Part{text("ab")}, &a2aport.ArtifactDelta{Text: "b"}), false}, // the first text delta: whole
		{answer([]a2aport.Part{text("abc")}, &a2aport.ArtifactDelta{Text: "c"}), true},
		{answer([]a2aport.Part{text("abcd")}, &a2aport.ArtifactDelta{Text: "d"}), true},
		{a2aport.Event{Type: "backend.activity", WorkID: "w", OwnerID: "o", State: a2aport.StateWorking, Text: "still here"}, false},
		{answer([]a2aport.Part{text("abcde")}, &a2aport.ArtifactDelta{Text: "e"}), true}, // another event between changes nothing
		{answer([]a2aport.Part{text("abcdef"), raw}, &a2aport.ArtifactDelta{Text: "f", Parts: []a2aport.Part{raw}}), false},
		{other("x", nil), false},
		{other("xy", &a2aport.ArtifactDelta{Text: "y"}), false}, // another artifact: whole
		{other("xyz", &a2aport.ArtifactDelta{Text: "z"}), true},
		{answer([]a2aport.Part{text("abcdef"), raw, text("g")}, &a2aport.ArtifactDelta{Parts: []a2aport.Part{text("g")}}), false},
		{answer([]a2aport.Part{text("abcdef"), raw, text("gh")}, &a2aport.ArtifactDelta{Text: "h"}), false}, // back to the first: whole
		{func() a2aport.Event {
			ev := answer([]a2aport.Part{text("abcdef"), raw, text("ghi")}, &a2aport.ArtifactDelta{Text: "i"})
			ev.Artifact.Name = "renamed"
			return ev
		}(), false},
		{func() a2aport.Event {
			ev := answer([]a2aport.Part{text("abcdef"), raw, text("ghij")}, &a2aport.ArtifactDelta{Text: "j"})
			ev.Artifact.Name, ev.Reconnected = "renamed", true
			return ev
		}(), false},
	}
	var sent Sent
	var host Artifacts
	for i, s := range steps {
		wire, more := sent.Event(s.ev)
		if more != s.more {
			t.Fatalf("step %d: more = %v, want %v", i, more, s.more)
		}
		if more { // what crosses is the text alone
			var err error
			if wire, err = host.More(wire.Delta.Text); err != nil {
				t.Fatalf("step %d: More() = %v", i, err)
			}
		}
		if err := host.Rebuild(&wire); err != nil {
			t.Fatalf("step %d: Rebuild() = %v", i, err)
		}
		if !reflect.DeepEqual(wire, s.ev) {
			t.Fatalf("step %d: the host delivered %+v (artifact %+v, delta %+v), want %+v (artifact %+v, delta %+v)", i, wire, wire.Artifact, wire.Delta, s.ev, s.ev.Artifact, s.ev.Delta)
		}
	}
}

func TestMoreWithoutATextDeltaToContinue(t *testing.T) {
	t.Parallel()
	var host Artifacts
	if _, err := host.More("x"); err == nil {
		t.Fatal("More() continued an event that was never sent")
	}
	whole := a2aport.Event{Type: "backend.artifact", Artifact: &a2aport.Artifact{ID: "a", Parts: []a2aport.Part{text("a")}}}
	if err := host.Rebuild(&whole); err != nil {
		t.Fatal(err)
	}
	if _, err := host.More("x"); err == nil {
		t.Fatal("More() continued an event that had no text delta")
	}
}

// TestArtifactIdentityIsComplete keeps sameIdentity honest: an Artifact field it does not compare
// would let a change to that field cross as more, and the host would deliver the old value.
func TestArtifactIdentityIsComplete(t *testing.T) {
	t.Parallel()
	var fields []string
	typ := reflect.TypeFor[a2aport.Artifact]()
	for i := range typ.NumField() {
		fields = append(fields, typ.Field(i).Name)
	}
	if want := []string{"ID", "Name", "Description", "Parts"}; !reflect.DeepEqual(fields, want) {
		t.Fatalf("a2aport.Artifact has fields %v, sameIdentity compares those of %v: compare the new ones", fields, want)
	}
}
