package a2aclient_test

import (
	"reflect"
	"testing"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/a2aclient"
	"github.com/a2aport/a2aport/internal/abi"
)

// FuzzTextHeldOnce holds a call whose caller rebuilds the artifacts (WithContentPieces: the
// module, whose host holds the text) to a native call fed the same events: the same changes
// reported, and the same outcome once a host has rebuilt the events' artifacts (abi.Artifacts)
// and assembled the content from its pieces, through a real frame. The ops come from the fuzzer's
// bytes: chunks (appended or not, of two artifacts, text with white space of several scripts,
// bytes, data, another media type), snapshots equal to what was streamed or not, status texts.
func FuzzTextHeldOnce(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 2, 9, 3})
	f.Add([]byte{0, 5, 1, 6, 1, 7, 9, 4})
	f.Add([]byte{0, 1, 10, 3, 11, 0, 12, 9})
	f.Add([]byte{16, 17, 1, 18, 9, 19, 3})
	f.Add([]byte{0, 2, 1, 2, 9, 2, 3, 13, 8})
	f.Fuzz(func(t *testing.T, ops []byte) {
		pieces := new([]a2aclient.ContentPiece)
		native, held := a2aclient.NewOutcomeBuilder(nil), a2aclient.NewOutcomeBuilder(pieces)
		var sent abi.Sent
		var host abi.Artifacts
		for i, op := range ops {
			if i == 64 {
				break
			}
			nativeChanged, heldChanged := apply(native, native, op), apply(held, native, op)
			if len(nativeChanged) != len(heldChanged) {
				t.Fatalf("op %d (%d): changes %d natively, %d where text is held once", i, op, len(nativeChanged), len(heldChanged))
			}
			for j, tr := range heldChanged {
				art, delta := tr.Event()
				want, _ := nativeChanged[j].Event()
				wire, _ := sent.Event(a2aport.Event{Type: a2aport.EventArtifact, Artifact: art, Delta: delta})
				if err := host.Rebuild(&wire); err != nil {
					t.Fatalf("op %d: %v", i, err)
				}
				if !reflect.DeepEqual(wire.Artifact, want) {
					t.Fatalf("op %d: the host rebuilt %+v, natively %+v", i, wire.Artifact, want)
				}
			}
		}
		want := native.Outcome()
		out := held.Outcome()
		var content []abi.ContentPiece
		for _, p := range *pieces {
			content = append(content, abi.ContentPiece{Text: p.Text, From: p.From, Head: p.Head, Tail: p.Tail})
		}
		e := crossFrame(t, sent.Outcome(out, content))
		if err := host.Outcome(&e); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*e.Outcome, want) {
			t.Fatalf("outcome = %+v\nnatively %+v", *e.Outcome, want)
		}
	})
}

// apply runs op on b and returns the artifacts it reports changed; a snapshot of what was
// streamed is read from native, which holds the text.
func apply(b, native a2aclient.OutcomeBuilder, op byte) []*a2aclient.TrackedArtifact {
	info := a2a.TaskInfo{TaskID: "t", ContextID: "c"}
	texts := []string{"part ", "\n", " \u3000", "é\u2029", "", "answer", "\u00a0\t", "done "}
	id := a2a.ArtifactID([]string{"a", "b"}[op>>4&1])
	text := texts[op&7]
	switch op & 15 {
	case 8: // a status text, or none
		b.SetStatus(texts[op>>5&7])
		return nil
	case 9: // a snapshot of what the builder streamed, merged as a server stores it
		task := &a2a.Task{ID: "t"}
		for _, aid := range native.Order() {
			art := a2a.Artifact{ID: a2a.ArtifactID(aid)}
			for _, p := range native.Parts(aid) {
				art.Parts = append(art.Parts, toA2A(p))
			}
			task.Artifacts = append(task.Artifacts, &art)
		}
		return b.Snapshot(task)
	case 10, 11: // a snapshot that changes an artifact, then one that names it as it was
		return b.Snapshot(&a2a.Task{ID: "t", Artifacts: []*a2a.Artifact{{ID: id, Parts: a2a.ContentParts{a2a.NewTextPart(text + "snap")}}}})
	case 12: // bytes
		ev := a2a.NewArtifactUpdateEvent(info, id, a2a.NewRawPart([]byte(text+"x")))
		ev.Append = true
		return changed(b.Chunk(ev))
	case 13: // data, between text runs
		ev := a2a.NewArtifactUpdateEvent(info, id, a2a.NewDataPart(map[string]any{"k": text}))
		ev.Append = true
		return changed(b.Chunk(ev))
	case 14: // text of another media type
		p := a2a.NewTextPart(text)
		p.MediaType = "text/markdown"
		ev := a2a.NewArtifactUpdateEvent(info, id, p)
		ev.Append = true
		return changed(b.Chunk(ev))
	case 15: // a replacement, not an append
		return changed(b.Chunk(a2a.NewArtifactUpdateEvent(info, id, a2a.NewTextPart(text))))
	}
	ev := a2a.NewArtifactUpdateEvent(info, id, a2a.NewTextPart(text))
	ev.Append = true
	return changed(b.Chunk(ev))
}

func changed(t *a2aclient.TrackedArtifact) []*a2aclient.TrackedArtifact {
	if t == nil {
		return nil
	}
	return []*a2aclient.TrackedArtifact{t}
}

func toA2A(p a2aport.Part) *a2a.Part {
	var out *a2a.Part
	switch p.Type {
	case a2aport.PartText:
		out = a2a.NewTextPart(p.Text)
	case a2aport.PartRaw:
		out = a2a.NewRawPart(p.Raw)
	default:
		out = a2a.NewDataPart(p.Data)
	}
	out.MediaType, out.Filename = p.MediaType, p.Filename
	return out
}

// crossFrame is e as a host reads it from a frame the module wrote.
func crossFrame(t *testing.T, e abi.Envelope) abi.Envelope {
	t.Helper()
	var w abi.Writer
	w.Add(e)
	frame, err := w.Frame(0)
	if err != nil {
		t.Fatal(err)
	}
	batch, _, err := abi.ReadFrame(frame)
	if err != nil || len(batch.Envelopes) != 1 {
		t.Fatalf("ReadFrame() = %v, %v", batch, err)
	}
	return batch.Envelopes[0]
}
