package funcport

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/growing"
)

// Turn is what a running Work tells its owner and asks of it. Its methods are safe to call from
// the Work's goroutines until the Func returns; after that they do nothing.
type Turn struct{ w *work }

// Working says what the Work is doing now (an activity event in state working).
func (t *Turn) Working(text string) {
	t.w.emit(a2aport.Event{Type: a2aport.EventActivity, State: a2aport.StateWorking, Text: text})
}

// Message tells the owner text (a message event; the outcome's content is what stays).
func (t *Turn) Message(text string) {
	t.w.emit(a2aport.Event{Type: a2aport.EventMessage, Text: text})
}

// Artifact shows an artifact as it is now, whole: a new one, or one that replaces the artifact of
// the same id.
func (t *Turn) Artifact(a a2aport.Artifact) {
	t.w.mu.Lock()
	st := t.w.artifact(a.ID, a.Name)
	st.name, st.description = a.Name, a.Description
	st.parts.Reset(slices.Clone(a.Parts))
	a.Parts = st.parts.Items()
	t.w.mu.Unlock()
	t.w.emit(a2aport.Event{Type: a2aport.EventArtifact, Artifact: &a})
}

// AppendText streams text onto the end of artifact id (created, named name, with its first
// text): the owner sees each piece as it comes, and the artifact whole. Each piece costs what it
// carries, however long the artifact has grown.
func (t *Turn) AppendText(id, name, text string) {
	t.w.mu.Lock()
	st := t.w.artifact(id, name)
	known := st.parts.Len() > 0
	var delta *a2aport.ArtifactDelta
	if last := st.parts.Last(); last != nil && last.Type == a2aport.PartText {
		last.Text = st.text.Extend(last.Text, text)
		delta = &a2aport.ArtifactDelta{Text: text}
	} else {
		st.parts.Push(a2aport.Part{Type: a2aport.PartText, Text: st.text.Extend("", text)})
		if known {
			delta = &a2aport.ArtifactDelta{Parts: []a2aport.Part{{Type: a2aport.PartText, Text: text}}}
		}
	}
	a := a2aport.Artifact{ID: id, Name: st.name, Description: st.description, Parts: st.parts.Items()}
	t.w.mu.Unlock()
	t.w.emit(a2aport.Event{Type: a2aport.EventArtifact, Artifact: &a, Delta: delta})
}

// Ask asks the owner prompt and waits for the answer (RespondInput), the Work's end or ctx's.
// Meanwhile the Work is input_required, and the facade shows its task so.
func (t *Turn) Ask(ctx context.Context, prompt string) (a2aport.InputResponse, error) {
	return t.w.ask(ctx, prompt)
}

// work is one running Work of a Port.
type work struct {
	port    *Port
	w       a2aport.Work
	onEvent func(a2aport.Event)
	ctx     context.Context
	stop    context.CancelCauseFunc
	done    chan struct{} // closed once the Work has its outcome

	mu        sync.Mutex
	state     a2aport.WorkState
	ended     error // why the Work was ended from outside (cancel, close); nil while it runs
	settled   bool
	asked     int                  // questions so far, for their ids
	question  *question            // the one the Work waits on
	artifacts map[string]*artifact // as the Work's events showed them
	last      a2aport.Event        // the last activity, so that repeats are dropped
}

// artifact is one artifact of a Work as it grows (growing: its parts are handed out unchanged, its
// text extended without copying what was handed out).
type artifact struct {
	name, description string
	parts             growing.List[a2aport.Part]
	text              growing.Text
}

// artifact is the artifact id, made (named name) when new; wk.mu is held.
func (wk *work) artifact(id, name string) *artifact {
	if wk.artifacts == nil {
		wk.artifacts = map[string]*artifact{}
	}
	a := wk.artifacts[id]
	if a == nil {
		a = &artifact{name: name}
		wk.artifacts[id] = a
	}
	return a
}

// question is an open Ask.
type question struct {
	id      string
	answers chan a2aport.InputResponse
}

// emit delivers ev to the Work's own listener, then to the Port's subscribers; a listener that
// panics breaks nothing. Nothing is delivered once the Work has its outcome but the final event.
func (wk *work) emit(ev a2aport.Event) {
	wk.mu.Lock()
	if wk.settled {
		wk.mu.Unlock()
		return
	}
	if ev.Type == a2aport.EventActivity {
		if ev == wk.last {
			wk.mu.Unlock()
			return
		}
		wk.last, wk.state = ev, ev.State
	}
	wk.mu.Unlock()
	wk.deliver(ev)
}

func (wk *work) deliver(ev a2aport.Event) {
	ev.WorkID, ev.OwnerID = wk.w.ID, wk.w.OwnerID
	for _, l := range append([]func(a2aport.Event){wk.onEvent}, wk.port.subscribers()...) {
		if l != nil {
			func() {
				defer func() { _ = recover() }() // a listener's panic is its own
				l(ev)
			}()
		}
	}
}

// end ends the Work from outside with cause; it reports whether the Work was still running.
func (wk *work) end(cause error) bool {
	wk.mu.Lock()
	if wk.ended != nil || wk.settled {
		wk.mu.Unlock()
		return false
	}
	wk.ended = cause
	wk.mu.Unlock()
	wk.stop(cause)
	return true
}

func (wk *work) stopped() bool {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	return wk.ended != nil || wk.settled
}

func (wk *work) currentState() a2aport.WorkState {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	return wk.state
}

// settle decides the Work's one outcome from what the Func returned (returned: it did) and why
// the Work ended, and delivers its last event.
func (wk *work) settle(out a2aport.Outcome, err error, returned bool) (a2aport.Outcome, error) {
	wk.mu.Lock()
	ended := wk.ended
	wk.settled = true
	wk.mu.Unlock()
	defer close(wk.done)
	switch {
	case errors.Is(ended, errClosed):
		err = closedError()
	case ended != nil || !returned || (wk.ctx.Err() != nil && err != nil):
		err = &a2aport.Error{Code: a2aport.CodeWorkCancelled, Message: "the work was cancelled"}
	case err != nil:
		var e *a2aport.Error
		if !errors.As(err, &e) {
			err = &a2aport.Error{Code: a2aport.CodeTaskFailed, Message: err.Error(), Err: err}
		}
	}
	if err != nil {
		state := a2aport.StateFailed
		switch a2aport.CodeOf(err) {
		case a2aport.CodeWorkCancelled, a2aport.CodeAdapterClosed:
			state = a2aport.StateCancelled
		case a2aport.CodeTaskRejected:
			state = a2aport.StateRejected
		}
		wk.deliver(a2aport.Event{Type: a2aport.EventActivity, State: state, Text: err.Error()})
		return a2aport.Outcome{}, err
	}
	if out.Artifacts == nil {
		out.Artifacts = []a2aport.Artifact{}
	}
	wk.deliver(a2aport.Event{Type: a2aport.EventActivity, State: a2aport.StateCompleted})
	return out, nil
}

// ask opens a question and waits for its answer.
func (wk *work) ask(ctx context.Context, prompt string) (a2aport.InputResponse, error) {
	wk.mu.Lock()
	if wk.settled || wk.question != nil {
		wk.mu.Unlock()
		return a2aport.InputResponse{}, errors.New("funcport: one question at a time, while the Work runs")
	}
	wk.asked++
	q := &question{id: wk.w.ID + "-input-" + strconv.Itoa(wk.asked), answers: make(chan a2aport.InputResponse, 1)}
	wk.question = q
	wk.mu.Unlock()
	req := a2aport.InputRequest{InputRequestID: q.id, Kind: a2aport.InputKindInput, Mode: "text", Prompt: prompt}
	wk.emit(a2aport.Event{Type: a2aport.EventActivity, State: a2aport.StateInputRequired, Text: prompt})
	wk.emit(a2aport.Event{Type: a2aport.EventInputRequested, Input: &req})
	select {
	case answer := <-q.answers:
		req.Action = answer.Action
		wk.emit(a2aport.Event{Type: a2aport.EventInputResolved, Input: &req})
		wk.emit(a2aport.Event{Type: a2aport.EventActivity, State: a2aport.StateWorking})
		return answer, nil
	case <-ctx.Done():
		wk.close(q)
		return a2aport.InputResponse{}, ctx.Err()
	case <-wk.ctx.Done():
		wk.close(q)
		return a2aport.InputResponse{}, context.Cause(wk.ctx)
	}
}

// answer gives response to the open question id.
func (wk *work) answer(id string, response a2aport.InputResponse) error {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	q := wk.question
	if q == nil || q.id != id {
		return &a2aport.Error{Code: a2aport.CodeInputNotPending, Message: fmt.Sprintf("work %q has no open question %q", wk.w.ID, id)}
	}
	wk.question = nil
	q.answers <- response
	return nil
}

func (wk *work) close(q *question) {
	wk.mu.Lock()
	if wk.question == q {
		wk.question = nil
	}
	wk.mu.Unlock()
}
