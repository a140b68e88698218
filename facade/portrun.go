package facade

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"
)

// portRun is one Work and what it has produced that no execution has yielded yet.
type portRun struct {
	workID  string
	owner   string
	caller  string // who the task belongs to (Limits.MaxTasksPerCaller counts by it)
	bytes   int    // what the task's events carried so far (Limits.MaxTaskBytes)
	mu      sync.Mutex
	queue   []a2aport.Event
	merged  []a2aport.Event // taken from the queue, merged (coalesce), not yet delivered
	wake    chan struct{}   // closed and replaced when the queue grows or the Work ends
	ended   bool
	out     a2aport.Outcome
	err     error
	pending *a2aport.InputRequest // the question the Work waits on
	// cancelling: a CancelTask is cancelling the Work. a2asrv hands the CANCELED status that
	// Cancel yields to the running execution, so that execution must stay open until then.
	cancelling bool
	// answer is the caller's message that answers the next input request: the Work was resumed
	// here (cluster mode) for the execution that carries the answer.
	answer *a2a.Message
	// shown are the artifacts as the task's events have shown them, by id: what the outcome
	// has beyond them is added to the task when the Work ends (outcome.go).
	shown map[string]a2aport.Artifact
}

func (p *portRun) push(ev a2aport.Event) {
	p.mu.Lock()
	p.queue = append(p.queue, ev)
	close(p.wake)
	p.wake = make(chan struct{})
	p.mu.Unlock()
}

func (p *portRun) end(out a2aport.Outcome, err error) {
	p.mu.Lock()
	p.ended, p.out, p.err = true, out, err
	close(p.wake)
	p.wake = make(chan struct{})
	p.mu.Unlock()
}

// coalesce merges the events at the front of queue into as few as carry the same to the task, and
// says how many it took. It merges the run of working statuses and text appends there: the text
// appended to each artifact becomes one append (in the order the artifacts first came), and the
// statuses the last of them, after the appends (a status is the task's state now: the ones before
// it are past). Anything else (a message, a question, a new artifact) ends the run and keeps its
// place.
func coalesce(queue []a2aport.Event) ([]a2aport.Event, int) {
	n := 0
	for n < len(queue) && (isWorking(queue[n]) || textAppend(queue[n]) != "") {
		n++
	}
	if n <= 1 {
		return []a2aport.Event{queue[0]}, 1
	}
	var merged []a2aport.Event
	var texts []*strings.Builder
	at := map[string]int{} // artifact id → its place in merged
	status := -1
	for i, ev := range queue[:n] {
		id := textAppend(ev)
		if id == "" {
			status = i
			continue
		}
		j, seen := at[id]
		if !seen {
			j = len(merged)
			at[id] = j
			merged = append(merged, ev)
			texts = append(texts, &strings.Builder{})
		}
		merged[j].Artifact = ev.Artifact // as the last append shows it, whole
		texts[j].WriteString(ev.Delta.Text)
	}
	for j := range merged {
		merged[j].Delta = &a2aport.ArtifactDelta{Text: texts[j].String()}
	}
	if status >= 0 {
		merged = append(merged, queue[status])
	}
	return merged, n
}

// isWorking reports whether ev is a working status of the task (no connection notice).
func isWorking(ev a2aport.Event) bool {
	return ev.Type == a2aport.EventActivity && ev.State == a2aport.StateWorking && !ev.Reconnecting && !ev.Reconnected
}

// textAppend is the artifact an event appends text alone to, or "".
func textAppend(ev a2aport.Event) string {
	if ev.Type != a2aport.EventArtifact || ev.Artifact == nil || ev.Delta == nil || len(ev.Delta.Raw) > 0 || len(ev.Delta.Parts) > 0 {
		return ""
	}
	return ev.Artifact.ID
}

// messageReply waits until the Work shows that its agent made a task (nil: the task goes on as
// ever), or ends with the agent's message-only reply (A2A's message, not a task), which it returns.
// A Port's Work that ends any other way is a task's too.
func (p *portRun) messageReply(ctx context.Context) (*a2aport.Outcome, error) {
	seen := 0
	for {
		p.mu.Lock()
		for ; seen < len(p.queue); seen++ {
			if madeTask(p.queue[seen]) {
				p.mu.Unlock()
				return nil, nil
			}
		}
		if p.ended {
			out, ok := p.out, p.err == nil && p.out.MessageReply
			p.mu.Unlock()
			if ok {
				return &out, nil
			}
			return nil, nil
		}
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// madeTask reports whether ev shows a task at the agent: its state, an artifact, a question.
func madeTask(ev a2aport.Event) bool {
	switch ev.Type {
	case a2aport.EventArtifact, a2aport.EventInputRequested:
		return true
	case a2aport.EventActivity:
		switch ev.State {
		case a2aport.StateSubmitted, a2aport.StateWorking, a2aport.StateInputRequired, a2aport.StateAuthRequired:
			return true
		}
	}
	return false
}

// next returns the next event, or ended once the Work ended and every event was taken. The events
// that queued up while the last one was being delivered are merged as far as they can be
// (coalesce), so that a Work that sends thousands of small events costs the task as many as its
// caller can take, not one a2a-go task update (a copy of the whole task) each. idle is called
// before next first waits for the Work (and not with the run locked); when it reports false, the
// execution stopped taking events and next returns errExecutionStopped.
func (p *portRun) next(ctx context.Context, idle func() bool) (ev a2aport.Event, ended bool, err error) {
	yielded := false
	for {
		p.mu.Lock()
		if len(p.merged) == 0 && len(p.queue) > 0 {
			var n int
			p.merged, n = coalesce(p.queue)
			p.queue = p.queue[n:]
		}
		if len(p.merged) > 0 {
			ev, p.merged = p.merged[0], p.merged[1:]
			p.mu.Unlock()
			return ev, false, nil
		}
		if p.ended {
			p.mu.Unlock()
			return a2aport.Event{}, true, nil
		}
		wake := p.wake
		p.mu.Unlock()
		if idle != nil && !yielded {
			// A Work just started may be about to end: its goroutine gets the processor once
			// before the execution counts as waiting (no sleep: Gosched only lets it run).
			runtime.Gosched()
			yielded = true
			continue
		}
		if idle != nil {
			if !idle() {
				return a2aport.Event{}, false, errExecutionStopped
			}
			idle = nil
			continue // the Work may have gone on meanwhile
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return a2aport.Event{}, false, ctx.Err()
		}
	}
}

var errExecutionStopped = errors.New("facade: the execution stopped taking events")

// eventBytes is what an event adds to its task: the text of a message or status, the text, bytes
// and data an artifact event brings (its delta when it has one).
func eventBytes(ev a2aport.Event) int {
	n := len(ev.Text)
	switch {
	case ev.Delta != nil:
		n += len(ev.Delta.Text) + len(ev.Delta.Raw) + partsBytes(ev.Delta.Parts)
	case ev.Artifact != nil:
		n += partsBytes(ev.Artifact.Parts)
	}
	return n
}

func partsBytes(parts []a2aport.Part) int {
	n := 0
	for _, p := range parts {
		n += len(p.Text) + len(p.Raw) + len(p.URL)
		if p.Data != nil {
			if data, err := json.Marshal(p.Data); err == nil {
				n += len(data)
			}
		}
	}
	return n
}
