package binding

import (
	"encoding/base64"
	"fmt"
	"maps"

	"github.com/a2aproject/a2a-go/v2/a2a"

	v03 "github.com/a2aproject/a2a-go/a2a"
)

// A2A 0.3's JSON-RPC binding writes the same objects as 1.0 in an older shape: a "kind" on every
// task, message, event and part, lower-case roles and states ("input-required"), files inside a
// "file" object with base64 text. a2a-go's 0.3 types (module github.com/a2aproject/a2a-go, which
// needs nothing but uuid) read and write that shape; the functions here carry values between
// them and the 1.0 types everything above the binding uses, the way a2a-go's compat layer does,
// so that an agent its server serves sees the same values from a2aport as from a2a-go's client.

// dataPartCompat marks a 0.3 data part that wraps a value which is not an object: 0.3's data
// parts hold objects only, so a2a-go wraps any other value as {"value": v} and says so here.
const dataPartCompat = "data_part_compat"

var statesFrom03 = map[v03.TaskState]a2a.TaskState{
	v03.TaskStateSubmitted:     a2a.TaskStateSubmitted,
	v03.TaskStateWorking:       a2a.TaskStateWorking,
	v03.TaskStateInputRequired: a2a.TaskStateInputRequired,
	v03.TaskStateAuthRequired:  a2a.TaskStateAuthRequired,
	v03.TaskStateCompleted:     a2a.TaskStateCompleted,
	v03.TaskStateCanceled:      a2a.TaskStateCanceled,
	v03.TaskStateFailed:        a2a.TaskStateFailed,
	v03.TaskStateRejected:      a2a.TaskStateRejected,
}

// eventFrom03 is a 0.3 event (a task, a message or an update) as 1.0's.
func eventFrom03(ev v03.Event) (a2a.Event, error) {
	switch ev := ev.(type) {
	case *v03.Task:
		return taskFrom03(ev), nil
	case *v03.Message:
		return messageFrom03(ev), nil
	case *v03.TaskStatusUpdateEvent:
		return &a2a.TaskStatusUpdateEvent{TaskID: a2a.TaskID(ev.TaskID), ContextID: ev.ContextID,
			Status: statusFrom03(ev.Status), Metadata: ev.Metadata}, nil
	case *v03.TaskArtifactUpdateEvent:
		return &a2a.TaskArtifactUpdateEvent{TaskID: a2a.TaskID(ev.TaskID), ContextID: ev.ContextID,
			Artifact: artifactFrom03(ev.Artifact), Append: ev.Append, LastChunk: ev.LastChunk, Metadata: ev.Metadata}, nil
	}
	return nil, fmt.Errorf("unknown event type %T", ev)
}

func taskFrom03(t *v03.Task) *a2a.Task {
	if t == nil {
		return nil
	}
	out := &a2a.Task{ID: a2a.TaskID(t.ID), ContextID: t.ContextID, Status: statusFrom03(t.Status), Metadata: t.Metadata}
	for _, art := range t.Artifacts {
		out.Artifacts = append(out.Artifacts, artifactFrom03(art))
	}
	for _, m := range t.History {
		out.History = append(out.History, messageFrom03(m))
	}
	return out
}

func statusFrom03(s v03.TaskStatus) a2a.TaskStatus {
	return a2a.TaskStatus{State: statesFrom03[s.State], Message: messageFrom03(s.Message), Timestamp: s.Timestamp}
}

func artifactFrom03(art *v03.Artifact) *a2a.Artifact {
	if art == nil {
		return nil
	}
	return &a2a.Artifact{ID: a2a.ArtifactID(art.ID), Name: art.Name, Description: art.Description,
		Parts: partsFrom03(art.Parts), Metadata: art.Metadata, Extensions: art.Extensions}
}

func messageFrom03(m *v03.Message) *a2a.Message {
	if m == nil {
		return nil
	}
	role := a2a.MessageRoleUnspecified
	switch m.Role {
	case v03.MessageRoleUser:
		role = a2a.MessageRoleUser
	case v03.MessageRoleAgent:
		role = a2a.MessageRoleAgent
	}
	out := &a2a.Message{ID: m.ID, ContextID: m.ContextID, TaskID: a2a.TaskID(m.TaskID), Role: role,
		Parts: partsFrom03(m.Parts), Metadata: m.Metadata, Extensions: m.Extensions}
	for _, id := range m.ReferenceTasks {
		out.ReferenceTasks = append(out.ReferenceTasks, a2a.TaskID(id))
	}
	return out
}

func partsFrom03(parts v03.ContentParts) a2a.ContentParts {
	if len(parts) == 0 {
		return nil
	}
	out := make(a2a.ContentParts, len(parts))
	for i, p := range parts {
		out[i] = partFrom03(p)
	}
	return out
}

func partFrom03(p v03.Part) *a2a.Part {
	switch p := p.(type) {
	case v03.TextPart:
		return &a2a.Part{Content: a2a.Text(p.Text), Metadata: p.Metadata}
	case v03.DataPart:
		if wrapped, _ := p.Metadata[dataPartCompat].(bool); wrapped {
			meta := maps.Clone(p.Metadata)
			delete(meta, dataPartCompat)
			return &a2a.Part{Content: a2a.Data{Value: p.Data["value"]}, Metadata: meta}
		}
		return &a2a.Part{Content: a2a.Data{Value: p.Data}, Metadata: p.Metadata}
	case v03.FilePart:
		switch f := p.File.(type) {
		case v03.FileBytes:
			raw, err := base64.StdEncoding.DecodeString(f.Bytes)
			if err != nil {
				raw = []byte(f.Bytes) // not base64 after all: the bytes as they came
			}
			return &a2a.Part{Content: a2a.Raw(raw), MediaType: f.MimeType, Filename: f.Name, Metadata: p.Metadata}
		case v03.FileURI:
			return &a2a.Part{Content: a2a.URL(f.URI), MediaType: f.MimeType, Filename: f.Name, Metadata: p.Metadata}
		}
		return &a2a.Part{Content: a2a.Data{Value: p.File}, Metadata: p.Metadata}
	case nil:
		return nil
	}
	return &a2a.Part{Content: a2a.Data{Value: p}, Metadata: p.Meta()}
}

// sendParams03 is a SendMessageRequest as 0.3's message/send params. A configuration always
// says whether to block, as 1.0's ReturnImmediately does by its zero value.
func sendParams03(req *a2a.SendMessageRequest) *v03.MessageSendParams {
	out := &v03.MessageSendParams{Message: messageTo03(req.Message), Metadata: req.Metadata}
	if c := req.Config; c != nil {
		blocking := !c.ReturnImmediately
		out.Config = &v03.MessageSendConfig{AcceptedOutputModes: c.AcceptedOutputModes, HistoryLength: c.HistoryLength, Blocking: &blocking}
		if c.PushConfig != nil {
			push := v03.PushConfig{ID: c.PushConfig.ID, URL: c.PushConfig.URL, Token: c.PushConfig.Token}
			if a := c.PushConfig.Auth; a != nil {
				push.Auth = &v03.PushAuthInfo{Schemes: []string{a.Scheme}, Credentials: a.Credentials}
			}
			out.Config.PushConfig = &push
		}
	}
	return out
}

func messageTo03(m *a2a.Message) *v03.Message {
	if m == nil {
		return nil
	}
	role := v03.MessageRoleUnspecified
	switch m.Role {
	case a2a.MessageRoleUser:
		role = v03.MessageRoleUser
	case a2a.MessageRoleAgent:
		role = v03.MessageRoleAgent
	}
	out := &v03.Message{ID: m.ID, ContextID: m.ContextID, TaskID: v03.TaskID(m.TaskID), Role: role,
		Metadata: m.Metadata, Extensions: m.Extensions}
	for _, id := range m.ReferenceTasks {
		out.ReferenceTasks = append(out.ReferenceTasks, v03.TaskID(id))
	}
	if len(m.Parts) > 0 {
		out.Parts = make(v03.ContentParts, len(m.Parts))
		for i, p := range m.Parts {
			out.Parts[i] = partTo03(p)
		}
	}
	return out
}

func partTo03(p *a2a.Part) v03.Part {
	meta := v03.FileMeta{MimeType: p.MediaType, Name: p.Filename}
	switch c := p.Content.(type) {
	case a2a.Text:
		return v03.TextPart{Text: string(c), Metadata: p.Metadata}
	case a2a.Raw:
		return v03.FilePart{File: v03.FileBytes{FileMeta: meta, Bytes: base64.StdEncoding.EncodeToString(c)}, Metadata: p.Metadata}
	case a2a.URL:
		return v03.FilePart{File: v03.FileURI{FileMeta: meta, URI: string(c)}, Metadata: p.Metadata}
	case a2a.Data:
		if obj, ok := c.Value.(map[string]any); ok {
			return v03.DataPart{Data: obj, Metadata: p.Metadata}
		}
		wrapped := maps.Clone(p.Metadata)
		if wrapped == nil {
			wrapped = map[string]any{}
		}
		wrapped[dataPartCompat] = true
		return v03.DataPart{Data: map[string]any{"value": c.Value}, Metadata: wrapped}
	}
	return v03.DataPart{Data: map[string]any{"value": p}, Metadata: p.Metadata}
}
