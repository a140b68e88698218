package a2asrvx

import (
	"slices"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// Tidy adjusts the task of an update a2asrv is about to store, in place, so that it reads as A2A
// means it; a task store calls it first thing in Update. a2asrv keeps the task it passed as the
// last one stored, so what it answers from then on (a blocking caller's result, the next update)
// agrees with the store.
//
//   - An artifact's streamed text is one part: text appended (append: true) to an artifact whose
//     last part is plain text continues that part, where a2asrv adds a part per chunk (a blocking
//     caller got parts "JSON ", "OUT ", and a2a-go's CLI printed them apart). The update events
//     stay the deltas they are.
//   - The history is in the order it was exchanged: the agent's question (the status message of
//     a task waiting for input) goes into the history before the message that answers it, where
//     a2asrv would put it after; a message is in the history once.
//   - The history keeps its first message (the request) and the last MaxHistory-1: a2asrv moves
//     every status message into it and copies the whole task on every event, so an agent that
//     sends thousands of status updates cost time that grew with each one.
func Tidy(req *taskstore.UpdateRequest) {
	if req == nil || req.Task == nil {
		return
	}
	switch ev := req.Event.(type) {
	case *a2a.TaskArtifactUpdateEvent:
		if ev.Append && ev.Artifact != nil {
			joinAppendedText(req.Task, ev.Artifact)
		}
	case *a2a.Message:
		questionBeforeAnswer(req.Task, ev)
	}
	req.Task.History = bounded(onceEach(req.Task.History))
}

// MaxHistory is how many messages a task's history keeps (Tidy).
const MaxHistory = 200

// bounded is messages without those beyond MaxHistory, the first one kept.
func bounded(messages []*a2a.Message) []*a2a.Message {
	if len(messages) <= MaxHistory {
		return messages
	}
	return slices.Concat(messages[:1], messages[len(messages)-MaxHistory+1:])
}

// joinAppendedText joins the first part appended to an artifact with the part before it when both
// are plain text.
func joinAppendedText(task *a2a.Task, appended *a2a.Artifact) {
	i := slices.IndexFunc(task.Artifacts, func(a *a2a.Artifact) bool { return a != nil && a.ID == appended.ID })
	if i < 0 {
		return
	}
	parts := task.Artifacts[i].Parts
	at := len(parts) - len(appended.Parts) // the first appended part
	if at < 1 || at >= len(parts) {
		return
	}
	before, first := parts[at-1], parts[at]
	prev, ok1 := plainText(before)
	next, ok2 := plainText(first)
	if !ok1 || !ok2 || before.MediaType != first.MediaType {
		return
	}
	joined := *before // a2asrv's own copy of the task, but the part may be shared: a new one
	joined.Content = a2a.Text(prev + next)
	task.Artifacts[i].Parts = slices.Concat(parts[:at-1], []*a2a.Part{&joined}, parts[at+1:])
}

// plainText is a part's text when it is text and carries nothing else (no metadata, no name).
func plainText(p *a2a.Part) (string, bool) {
	if p == nil || len(p.Metadata) > 0 || p.Filename != "" {
		return "", false
	}
	t, ok := p.Content.(a2a.Text)
	return string(t), ok
}

// questionBeforeAnswer puts the agent's status message into the history before answer, the
// history's last message, when it is not there yet.
func questionBeforeAnswer(task *a2a.Task, answer *a2a.Message) {
	q, h := task.Status.Message, task.History
	if q == nil || q.Role != a2a.MessageRoleAgent || len(h) == 0 || h[len(h)-1].ID != answer.ID ||
		slices.ContainsFunc(h, func(m *a2a.Message) bool { return m.ID == q.ID }) {
		return
	}
	task.History = slices.Insert(h, len(h)-1, q)
}

// onceEach is messages with each message (by id) at its first place only; messages itself when
// none is there twice.
func onceEach(messages []*a2a.Message) []*a2a.Message {
	seen := make(map[string]bool, len(messages))
	var out []*a2a.Message
	for i, m := range messages {
		dup := m != nil && m.ID != "" && seen[m.ID]
		if m != nil && m.ID != "" {
			seen[m.ID] = true
		}
		switch {
		case dup && out == nil:
			out = slices.Clone(messages[:i])
		case !dup && out != nil:
			out = append(out, m)
		}
	}
	if out == nil {
		return messages
	}
	return out
}
