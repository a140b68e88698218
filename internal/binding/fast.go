package binding

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mailru/easyjson"
)

// decodeFast decodes a JSON-RPC event whose parts are all text; ok is false for anything else.
func decodeFast(data []byte) (a2a.Event, bool) {
	ascii, ok := plain(data)
	if !ok {
		return nil, false
	}
	var w rpcEvent
	if easyjson.Unmarshal(data, &w) != nil {
		return nil, false
	}
	return fastEvent(w.Result, ascii)
}

// decodeFastREST is decodeFast for an HTTP+JSON event: the stream response without an envelope.
func decodeFastREST(data []byte) (a2a.Event, bool) {
	ascii, ok := plain(data)
	if !ok {
		return nil, false
	}
	var r eventResult
	if easyjson.Unmarshal(data, &r) != nil {
		return nil, false
	}
	return fastEvent(&r, ascii)
}

// plain reports whether data has no control characters (JSON refuses them in strings, easyjson
// does not) and whether it is all ASCII. It looks at eight bytes at a time: every chunk of a
// stream passes here, and in the WebAssembly module a loop over single bytes was the fast
// decoder's largest cost.
func plain(data []byte) (ascii, ok bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var high uint64
	i := 0
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		// A byte below 0x20 borrows into its high bit when 0x20 is taken from it; a byte with
		// its high bit already set is excluded by &^ w (it is not below 0x20).
		if (w-0x20*ones)&^w&highs != 0 {
			return false, false
		}
		high |= w
	}
	ascii = high&highs == 0
	for _, c := range data[i:] {
		if c < 0x20 {
			return false, false
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	return ascii, true
}

// fastEvent is the one event r holds as the a2a event encoding/json would have built, when all
// of it is text; ok is false for anything else.
func fastEvent(r *eventResult, ascii bool) (a2a.Event, bool) {
	if r == nil {
		return nil, false
	}
	// encoding/json replaces invalid UTF-8, easyjson keeps it: such events go to the full
	// decoder. ASCII input (with \u escapes decoded to valid runes) has none to check.
	v := validator(ascii)
	var ev a2a.Event
	ok, n := true, 0
	if r.ArtifactUpdate != nil {
		ev, n = fastArtifactUpdate(r.ArtifactUpdate, v, &ok), n+1
	}
	if r.StatusUpdate != nil {
		ev, n = fastStatusUpdate(r.StatusUpdate, v, &ok), n+1
	}
	if r.Task != nil {
		ev, n = fastTask(r.Task, v, &ok), n+1
	}
	if r.Message != nil {
		ev, n = fastMessage(r.Message, v, &ok), n+1
	}
	if !ok || n != 1 {
		return nil, false
	}
	return ev, true
}

// validator reports whether strings are valid UTF-8 (all are when the input was ASCII).
type validator bool

func (ascii validator) ok(s ...string) bool {
	for _, x := range s {
		if !bool(ascii) && !utf8.ValidString(x) {
			return false
		}
	}
	return true
}

// The fast* conversions clear *ok when what they were given is not all text.

func fastArtifactUpdate(up *artifactUpdate, v validator, ok *bool) a2a.Event {
	art := fastArtifact(up.Artifact, v, ok)
	*ok = *ok && art != nil && v.ok(up.TaskID, up.ContextID)
	return &a2a.TaskArtifactUpdateEvent{TaskID: a2a.TaskID(up.TaskID), ContextID: up.ContextID, Append: up.Append, LastChunk: up.LastChunk, Artifact: art}
}

func fastStatusUpdate(up *statusUpdate, v validator, ok *bool) a2a.Event {
	*ok = *ok && v.ok(up.TaskID, up.ContextID)
	return &a2a.TaskStatusUpdateEvent{TaskID: a2a.TaskID(up.TaskID), ContextID: up.ContextID, Status: fastStatus(up.Status, v, ok)}
}

func fastTask(t *task, v validator, ok *bool) a2a.Event {
	*ok = *ok && v.ok(t.ID, t.ContextID)
	out := &a2a.Task{ID: a2a.TaskID(t.ID), ContextID: t.ContextID, Status: fastStatus(t.Status, v, ok)}
	if t.History != nil {
		out.History = make([]*a2a.Message, len(t.History))
		for i, m := range t.History {
			if m != nil {
				out.History[i] = fastMessage(m, v, ok)
			}
		}
	}
	if t.Artifacts != nil {
		out.Artifacts = make([]*a2a.Artifact, len(t.Artifacts))
		for i, a := range t.Artifacts {
			out.Artifacts[i] = fastArtifact(a, v, ok)
		}
	}
	return out
}

// fastStatus is a status; a missing one is the zero status, as encoding/json leaves it.
func fastStatus(st *taskStatus, v validator, ok *bool) a2a.TaskStatus {
	if st == nil {
		return a2a.TaskStatus{}
	}
	*ok = *ok && v.ok(st.State)
	out := a2a.TaskStatus{State: a2a.TaskState(st.State), Timestamp: st.Timestamp}
	if st.State == "TASK_STATE_UNSPECIFIED" {
		out.State = a2a.TaskStateUnspecified
	}
	if st.Message != nil {
		out.Message = fastMessage(st.Message, v, ok)
	}
	return out
}

func fastMessage(m *textMessage, v validator, ok *bool) *a2a.Message {
	*ok = *ok && v.ok(m.ID, m.ContextID, m.TaskID, m.Role)
	role := a2a.MessageRole(m.Role)
	if m.Role == "ROLE_UNSPECIFIED" {
		role = a2a.MessageRoleUnspecified
	}
	return &a2a.Message{ID: m.ID, ContextID: m.ContextID, TaskID: a2a.TaskID(m.TaskID), Role: role, Parts: textParts(m.Parts, v, ok)}
}

// fastArtifact is an artifact; nil stays nil.
func fastArtifact(a *artifact, v validator, ok *bool) *a2a.Artifact {
	if a == nil {
		return nil
	}
	*ok = *ok && v.ok(a.ID, a.Name, a.Description)
	return &a2a.Artifact{ID: a2a.ArtifactID(a.ID), Name: a.Name, Description: a.Description, Parts: textParts(a.Parts, v, ok)}
}

// textParts are parts that are all text as a2a's; nil stays nil, as encoding/json leaves it.
func textParts(in []textPart, v validator, ok *bool) a2a.ContentParts {
	if in == nil {
		return nil
	}
	parts := make(a2a.ContentParts, len(in))
	for i, p := range in {
		if p.Text == nil || !v.ok(*p.Text, p.MediaType, p.Filename) {
			*ok = false
			return nil
		}
		parts[i] = &a2a.Part{Content: a2a.Text(*p.Text), MediaType: p.MediaType, Filename: p.Filename}
	}
	return parts
}
