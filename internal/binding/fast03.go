package binding

import (
	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mailru/easyjson"

	v03 "github.com/a2aproject/a2a-go/a2a"
)

// decodeFast03 decodes a 0.3 JSON-RPC event whose parts are all text; ok is false for anything
// else. It builds the a2a-go 0.3 values encoding/json would have built and converts them as the
// full decoder does (eventFrom03), so the two differ only in how the bytes are read.
func decodeFast03(data []byte) (a2a.Event, bool) {
	ascii, ok := plain(data)
	if !ok {
		return nil, false
	}
	var w rpcEvent03
	if easyjson.Unmarshal(data, &w) != nil || w.Result == nil {
		return nil, false
	}
	r, v := w.Result, validator(ascii)
	var ev v03.Event
	ok = v.ok(r.Kind, r.ContextID)
	switch r.Kind {
	case "artifact-update":
		ok = ok && v.ok(r.TaskID)
		ev = &v03.TaskArtifactUpdateEvent{TaskID: v03.TaskID(r.TaskID), ContextID: r.ContextID,
			Artifact: artifact03From(r.Artifact, v, &ok), Append: r.Append, LastChunk: r.LastChunk}
	case "status-update":
		ok = ok && v.ok(r.TaskID)
		ev = &v03.TaskStatusUpdateEvent{TaskID: v03.TaskID(r.TaskID), ContextID: r.ContextID,
			Status: status03From(r.Status, v, &ok), Final: r.Final}
	case "task":
		ok = ok && v.ok(r.ID)
		task := &v03.Task{ID: v03.TaskID(r.ID), ContextID: r.ContextID, Status: status03From(r.Status, v, &ok)}
		for _, m := range r.History {
			task.History = append(task.History, message03From(m, v, &ok))
		}
		for _, a := range r.Artifacts {
			task.Artifacts = append(task.Artifacts, artifact03From(a, v, &ok))
		}
		ev = task
	case "message":
		ev = message03From(&message03{MessageID: r.MessageID, ContextID: r.ContextID, TaskID: r.TaskID, Role: r.Role, Parts: r.Parts}, v, &ok)
	default:
		return nil, false
	}
	if !ok {
		return nil, false
	}
	out, err := eventFrom03(ev)
	return out, err == nil
}

// The *03From conversions clear *ok when what they were given is not all valid text.

func status03From(s status03, v validator, ok *bool) v03.TaskStatus {
	*ok = *ok && v.ok(s.State)
	return v03.TaskStatus{State: v03.TaskState(s.State), Message: message03From(s.Message, v, ok), Timestamp: s.Timestamp}
}

func message03From(m *message03, v validator, ok *bool) *v03.Message {
	if m == nil {
		return nil
	}
	*ok = *ok && v.ok(m.MessageID, m.ContextID, m.TaskID, m.Role)
	return &v03.Message{ID: m.MessageID, ContextID: m.ContextID, TaskID: v03.TaskID(m.TaskID), Role: v03.MessageRole(m.Role), Parts: parts03From(m.Parts, v, ok)}
}

func artifact03From(a *artifact03, v validator, ok *bool) *v03.Artifact {
	if a == nil {
		return nil
	}
	*ok = *ok && v.ok(a.ID, a.Name, a.Description)
	return &v03.Artifact{ID: v03.ArtifactID(a.ID), Name: a.Name, Description: a.Description, Parts: parts03From(a.Parts, v, ok)}
}

// parts03From are text parts as a2a-go's 0.3 types hold them; any other kind clears *ok.
func parts03From(in []part03, v validator, ok *bool) v03.ContentParts {
	if in == nil {
		return nil
	}
	parts := make(v03.ContentParts, len(in))
	for i, p := range in {
		if p.Kind != "text" || !v.ok(p.Text) {
			*ok = false
			return nil
		}
		parts[i] = v03.TextPart{Text: p.Text}
	}
	return parts
}
