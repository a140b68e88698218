package agent

import (
	"context"
	"errors"
	"iter"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// errServerClosed is reported to executions that are released or refused
// because the server is shutting down.
var errServerClosed = errors.New("test agent server closed")

// executor runs the scripted scenarios. One instance serves every variant:
// task ids are unique, so the state it keeps per task never collides.
type executor struct {
	closing <-chan struct{} // closed by Server.Close; releases held executions
	auth    *authGate
	starts  starts

	mu      sync.Mutex
	closed  bool
	running sync.WaitGroup
	active  int
	cancels []cancelation
	ended   map[string]a2a.TaskState // instruction → its task's end, else the state last stored
}

// cancelation is a task whose cancelation reached the executor.
type cancelation struct {
	taskID      string
	instruction string
}

var (
	_ a2asrv.AgentExecutor         = (*executor)(nil)
	_ a2asrv.AgentExecutionCleaner = (*executor)(nil)
)

func newExecutor(closing <-chan struct{}) *executor {
	return &executor{closing: closing, auth: newAuthGate()}
}

// Execute implements [a2asrv.AgentExecutor]. The scenario is picked from the
// first message of the task, so follow-up messages continue it.
func (e *executor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if !e.enter() {
			yield(nil, errServerClosed)
			return
		}
		defer e.exit()

		first := ec.Message
		if ec.StoredTask != nil && len(ec.StoredTask.History) > 0 {
			first = ec.StoredTask.History[0]
		}
		instruction := firstText(first)
		word, args := splitInstruction(instruction)
		if ec.StoredTask == nil {
			e.starts.mark(instruction)
		}
		t := &turn{
			ctx:         ctx,
			ec:          ec,
			instruction: instruction,
			args:        args,
			yield:       yield,
			closing:     e.closing,
			auth:        e.auth,
		}
		scenarioFor(word)(t)
	}
}

// Cancel implements [a2asrv.AgentExecutor]. a2asrv feeds the CANCELED event
// into a running execution's event pipe and then cancels that execution's
// context, which is what releases a held task.
func (e *executor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		c := cancelation{taskID: string(ec.TaskID)}
		if ec.StoredTask != nil && len(ec.StoredTask.History) > 0 {
			c.instruction = firstText(ec.StoredTask.History[0])
		}
		e.mu.Lock()
		e.cancels = append(e.cancels, c)
		e.mu.Unlock()
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, agentText(ec, "cancelled")), nil)
	}
}

// Cleanup implements [a2asrv.AgentExecutionCleaner]. It is the only point at
// which the final, stored task of an execution is known; the auth gate
// needs it to answer follow-up messages.
func (e *executor) Cleanup(ctx context.Context, ec *a2asrv.ExecutorContext, result a2a.SendMessageResult, err error) {
	e.auth.finish(ec.TaskID, result, err)
	if task, ok := result.(*a2a.Task); ok && err == nil && len(task.History) > 0 {
		e.mu.Lock()
		if e.ended == nil {
			e.ended = map[string]a2a.TaskState{}
		}
		// An execution's cleanup may come after the cancelation's that ended its task: an end stays.
		if instruction := firstText(task.History[0]); !e.ended[instruction].Terminal() {
			e.ended[instruction] = task.Status.State
		}
		e.mu.Unlock()
	}
}

// endedAs is how instruction's task ended, else the state its last execution stored.
func (e *executor) endedAs(instruction string) a2a.TaskState {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ended[instruction]
}

// enter registers a running execution unless the server is closing.
func (e *executor) enter() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return false
	}
	e.running.Add(1)
	e.active++
	return true
}

func (e *executor) exit() {
	e.mu.Lock()
	e.active--
	e.mu.Unlock()
	e.running.Done()
}

// activeCount reports how many Execute calls are still running.
func (e *executor) activeCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.active
}

// cancelled returns the cancelations seen so far, in order.
func (e *executor) cancelled() []cancelation {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]cancelation(nil), e.cancels...)
}

// drain refuses new executions and waits up to timeout for running ones,
// which the closed closing channel has already released.
func (e *executor) drain(timeout time.Duration) {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()

	done := make(chan struct{})
	go func() {
		e.running.Wait()
		close(done)
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
	}
}
