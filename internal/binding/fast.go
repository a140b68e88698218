package binding

import (
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mailru/easyjson"
)

// decodeFast decodes a JSON-RPC event holding an artifact or status update that is all text; ok
// is false for anything else.
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
// does not) and whether it is all ASCII.
func plain(data []byte) (ascii, ok bool) {
	ascii = true
	for _, c := range data {
		if c < 0x20 {
			return false, false
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	return ascii, true
}

// fastEvent is the one update r holds as the a2a event encoding/json would have built, when
// all of it is text; ok is false for anything else.
func fastEvent(r *eventResult, ascii bool) (a2a.Event, bool) {
	// encoding/json replaces invalid UTF-8, easyjson keeps it: such events go to the full
	// decoder. ASCII input (with \u escapes decoded to valid runes) has none to check.
	v := validator(ascii)
	switch {
	case r == nil || (r.ArtifactUpdate != nil) == (r.StatusUpdate != nil):
		return nil, false
	case r.ArtifactUpdate != nil:
		return fastArtifactUpdate(r.ArtifactUpdate, v)
	default:
		return fastStatusUpdate(r.StatusUpdate, v)
	}
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

func fastArtifactUpdate(up *artifactUpdate, v validator) (a2a.Event, bool) {
	art := up.Artifact
	if art == nil || !v.ok(art.ID, art.Name, art.Description, up.TaskID, up.ContextID) {
		return nil, false
	}
	parts, ok := textParts(art.Parts, v)
	if !ok {
		return nil, false
	}
	return &a2a.TaskArtifactUpdateEvent{
		TaskID: a2a.TaskID(up.TaskID), ContextID: up.ContextID, Append: up.Append, LastChunk: up.LastChunk,
		Artifact: &a2a.Artifact{ID: a2a.ArtifactID(art.ID), Name: art.Name, Description: art.Description, Parts: parts},
	}, true
}

func fastStatusUpdate(up *statusUpdate, v validator) (a2a.Event, bool) {
	if !v.ok(up.TaskID, up.ContextID) {
		return nil, false
	}
	ev := &a2a.TaskStatusUpdateEvent{TaskID: a2a.TaskID(up.TaskID), ContextID: up.ContextID}
	if st := up.Status; st != nil {
		if !v.ok(st.State) {
			return nil, false
		}
		ev.Status = a2a.TaskStatus{State: a2a.TaskState(st.State), Timestamp: st.Timestamp}
		if st.State == "TASK_STATE_UNSPECIFIED" {
			ev.Status.State = a2a.TaskStateUnspecified
		}
		if m := st.Message; m != nil {
			if !v.ok(m.ID, m.ContextID, m.TaskID, m.Role) {
				return nil, false
			}
			parts, ok := textParts(m.Parts, v)
			if !ok {
				return nil, false
			}
			role := a2a.MessageRole(m.Role)
			if m.Role == "ROLE_UNSPECIFIED" {
				role = a2a.MessageRoleUnspecified
			}
			ev.Status.Message = &a2a.Message{ID: m.ID, ContextID: m.ContextID, TaskID: a2a.TaskID(m.TaskID), Role: role, Parts: parts}
		}
	}
	return ev, true
}

// textParts are parts that are all text as a2a's; nil stays nil, as encoding/json leaves it.
func textParts(in []textPart, v validator) (a2a.ContentParts, bool) {
	if in == nil {
		return nil, true
	}
	parts := make(a2a.ContentParts, len(in))
	for i, p := range in {
		if p.Text == nil || !v.ok(*p.Text, p.MediaType, p.Filename) {
			return nil, false
		}
		parts[i] = &a2a.Part{Content: a2a.Text(*p.Text), MediaType: p.MediaType, Filename: p.Filename}
	}
	return parts, true
}
