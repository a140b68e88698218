package agent

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// turn is one execution of a scenario: the first message of a task or a
// follow-up message to it.
type turn struct {
	ctx         context.Context
	ec          *a2asrv.ExecutorContext
	instruction string // first text part of the task's first message
	args        string // instruction without its first word
	yield       func(a2a.Event, error) bool
	closing     <-chan struct{}
	auth        *authGate
}

func (t *turn) followUp() bool { return t.ec.StoredTask != nil }

// emit yields events in order; false means the server stopped listening.
func (t *turn) emit(events ...a2a.Event) bool {
	for _, ev := range events {
		if !t.yield(ev, nil) {
			return false
		}
	}
	return true
}

// submit creates the task, unless this turn continues an existing one.
func (t *turn) submit() bool {
	if t.followUp() {
		return true
	}
	return t.emit(a2a.NewSubmittedTask(t.ec, t.ec.Message))
}

// start creates the task on its first turn, then sets WORKING with the
// given status text. Follow-up turns start with WORKING too, so that a
// non-blocking send never answers with the previous turn's status.
func (t *turn) start(text string) bool {
	return t.submit() && t.emit(t.status(a2a.TaskStateWorking, text))
}

func (t *turn) status(state a2a.TaskState, text string) *a2a.TaskStatusUpdateEvent {
	return a2a.NewStatusUpdateEvent(t.ec, state, agentText(t.ec, text))
}

func (t *turn) done() *a2a.TaskStatusUpdateEvent {
	return t.status(a2a.TaskStateCompleted, "done")
}

// artifact uses fixed ids so that clients can assert on them.
func (t *turn) artifact(id, name string, parts ...*a2a.Part) *a2a.TaskArtifactUpdateEvent {
	ev := a2a.NewArtifactEvent(t.ec, parts...)
	ev.Artifact.ID = a2a.ArtifactID(id)
	ev.Artifact.Name = name
	return ev
}

// pause sleeps for d unless the execution is cancelled or the server closes.
func (t *turn) pause(d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-t.ctx.Done():
		return t.ctx.Err()
	case <-t.closing:
		return errServerClosed
	}
}

// abort ends a turn whose pause failed. A cancelled execution has
// nothing left to report (a2asrv already stored CANCELED); a closing server
// fails the task so that no client waits for it.
func (t *turn) abort(err error) {
	if errors.Is(err, errServerClosed) {
		t.emit(t.status(a2a.TaskStateFailed, "server closed"))
	}
}

// firstText returns the first text part of m, the instruction of a task.
func firstText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	for _, p := range m.Parts {
		if text, ok := p.Content.(a2a.Text); ok {
			return string(text)
		}
	}
	return ""
}

// splitInstruction returns the lowercased first word and the rest.
func splitInstruction(instruction string) (word, args string) {
	instruction = strings.TrimSpace(instruction)
	end := strings.IndexFunc(instruction, unicode.IsSpace)
	if end < 0 {
		return strings.ToLower(instruction), ""
	}
	return strings.ToLower(instruction[:end]), strings.TrimSpace(instruction[end:])
}

// agentText is a status message from the agent with a single text part.
func agentText(info a2a.TaskInfoProvider, text string) *a2a.Message {
	return a2a.NewMessageForTask(a2a.MessageRoleAgent, info, a2a.NewTextPart(text))
}
