package facade

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/eventqueue"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/owner"
)

// executor runs each A2A task as one Work of the Port. A Work outlives the A2A executions of its
// task: one ends when the Work asks for input (INPUT_REQUIRED), and the caller's next message on
// the task starts another that answers it and follows the same Work on.
type executor struct {
	port         a2aport.Port
	messageOnly  bool
	admit        func(*a2a.Message, a2aport.Work) error // Options.Admit
	maxTaskBytes int                                    // what one task's events may carry (Limits.MaxTaskBytes; < 0: no limit)
	// events are the cluster's event queues (nil: one process). A task this process runs is
	// watched there for a cancel that another process carried out (cancelwatch.go).
	events eventqueue.Manager
	mu     sync.Mutex
	runs   map[a2a.TaskID]*portRun
}

func newExecutor(port a2aport.Port) *executor {
	return &executor{port: port, runs: map[a2a.TaskID]*portRun{}}
}

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
// caller can take, not one a2a-go task update (a copy of the whole task) each.
func (p *portRun) next(ctx context.Context) (ev a2aport.Event, ended bool, err error) {
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
		select {
		case <-wake:
		case <-ctx.Done():
			return a2aport.Event{}, false, ctx.Err()
		}
	}
}

// ownerOf is the Port owner of a task: the caller and the conversation, so that continuity stays
// within one caller's context and callers never share one. The caller's name goes first with its
// length, so no caller and context can spell another pair ("acme" + "alice/c1" is not
// "acme/alice" + "c1").
func ownerOf(ec *a2asrv.ExecutorContext) string {
	return owner.Of(callerOf(ec), ec.ContextID)
}

// callerOf is the caller an execution runs for.
func callerOf(ec *a2asrv.ExecutorContext) string {
	if ec.User == nil {
		return ""
	}
	return ec.User.Name
}

// activeFor counts the Works that run for caller in this process.
func (e *executor) activeFor(caller string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, run := range e.runs {
		if run.caller == caller {
			n++
		}
	}
	return n
}

// Execute implements a2asrv.AgentExecutor.
func (e *executor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		e.mu.Lock()
		run := e.runs[ec.TaskID]
		e.mu.Unlock()
		switch {
		case run == nil && ec.StoredTask == nil:
			work, err := workOf(ec, e.port.Describe().Capabilities.InputModes)
			if err == nil && e.admit != nil {
				err = e.admit(ec.Message, work)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if e.messageOnly {
				yield(e.reply(ctx, ec, work))
				return
			}
			run = e.start(ec, work, traceparentOf(ec))
			if e.port.Describe().Capabilities.MessageReplies {
				// The agent behind may answer with a message and make no task: the answer waits
				// for the Work's first sign of a task, or its end.
				reply, err := run.messageReply(ctx)
				if err != nil { // the caller left before the agent answered
					e.forget(ec.TaskID)
					_, _ = e.port.Cancel(context.WithoutCancel(ctx), work.ID, work.OwnerID)
					return
				}
				if reply != nil { // the agent made no task: neither does the facade
					e.forget(ec.TaskID)
					yield(messageOf(ec, *reply), nil)
					return
				}
			}
			if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
				return
			}
		case run == nil:
			// In cluster mode the task was started by another process: one that died (its work
			// came back after the lease) or one that handed on the answer to a question. The
			// Port re-attaches to the Work (a2aport.Port.Resume, with a WorkStore the processes
			// share); a Port that cannot ends the task failed, saying so.
			run = e.resume(ec)
		default:
			if err := e.answer(ctx, ec, run); err != nil {
				yield(nil, err)
				return
			}
		}
		e.follow(ctx, ec, run, yield)
	}
}

// start submits work to the Port; its events queue up for the executions of the task.
func (e *executor) start(ec *a2asrv.ExecutorContext, work a2aport.Work, traceparent string) *portRun {
	run := &portRun{workID: work.ID, owner: work.OwnerID, caller: callerOf(ec), wake: make(chan struct{})}
	e.mu.Lock()
	e.runs[ec.TaskID] = run
	e.mu.Unlock()
	go func() {
		opts := []a2aport.SubmitOption{a2aport.OnEvent(run.push)}
		if traceparent != "" {
			opts = append(opts, a2aport.Traceparent(traceparent))
		}
		out, err := e.port.Submit(context.Background(), work, opts...)
		run.end(out, err)
	}()
	return run
}

// resume re-attaches the Port to the Work of a task this process did not start.
func (e *executor) resume(ec *a2asrv.ExecutorContext) *portRun {
	run := &portRun{workID: string(ec.TaskID), owner: ownerOf(ec), caller: callerOf(ec), wake: make(chan struct{})}
	if t := ec.StoredTask; t != nil && ec.Message != nil &&
		(t.Status.State == a2a.TaskStateInputRequired || t.Status.State == a2a.TaskStateAuthRequired) {
		run.answer = ec.Message
	}
	e.mu.Lock()
	e.runs[ec.TaskID] = run
	e.mu.Unlock()
	go func() {
		out, err := e.port.Resume(context.Background(), string(ec.TaskID), run.owner, a2aport.OnEvent(run.push))
		run.end(out, err)
	}()
	return run
}

// answer gives the caller's message to the question the Work waits on.
func (e *executor) answer(ctx context.Context, ec *a2asrv.ExecutorContext, run *portRun) error {
	run.mu.Lock()
	pending := run.pending
	run.pending = nil
	run.mu.Unlock()
	if pending == nil {
		return a2a.ErrUnsupportedOperation // the task is not waiting for input
	}
	return e.respond(ctx, ec.Message, *pending, run)
}

// respond answers req with the text of msg.
func (e *executor) respond(ctx context.Context, msg *a2a.Message, pending a2aport.InputRequest, run *portRun) error {
	text, _ := split(msg)
	resp := a2aport.InputResponse{Text: text}
	if pending.Kind == a2aport.InputKindAuthorization {
		resp.Action = a2aport.ActionAccept
		if a := strings.ToLower(strings.TrimSpace(text)); a == a2aport.ActionDecline || a == a2aport.ActionCancel {
			resp.Action = a
		}
	}
	return e.port.RespondInput(ctx, run.workID, run.owner, pending.InputRequestID, resp)
}

// follow yields the Work's events as A2A events until it asks for input or ends.
func (e *executor) follow(ctx context.Context, ec *a2asrv.ExecutorContext, run *portRun, yield func(a2a.Event, error) bool) {
	// abandon stops the Work when its execution ends without it: cancelled by our Cancel (a2asrv
	// has delivered the outcome), or abandoned (shutdown, another process cancelled the task, the
	// events no longer taken). Cancel finds nothing when the Work is already over.
	abandon := func() { _, _ = e.port.Cancel(context.WithoutCancel(ctx), string(ec.TaskID), run.owner) }
	stopWatch := e.watchCancel(ctx, ec.TaskID, run)
	defer stopWatch()
	for {
		ev, ended, err := run.next(ctx)
		if err != nil {
			abandon()
			return
		}
		if ended {
			e.mu.Lock()
			delete(e.runs, ec.TaskID)
			e.mu.Unlock()
			run.mu.Lock()
			cancelling := run.cancelling
			run.mu.Unlock()
			if cancelling && errors.Is(run.err, a2aport.ErrWorkCancelled) {
				<-ctx.Done() // a2asrv delivers Cancel's CANCELED status, then ends this execution
				return
			}
			if errors.Is(run.err, a2aport.ErrWorkDetached) {
				// The Port was detached (a node of a cluster stopping): the Work goes on at the
				// agent and another process resumes it once this one's lease ends. Writing an
				// outcome here would end the task for all of them.
				<-ctx.Done()
				return
			}
			if run.err == nil {
				for _, ev := range run.unshown(ec, run.out) {
					if !yield(ev, nil) {
						return
					}
				}
			}
			yield(finalStatus(ec, run.out, run.err), nil)
			return
		}
		if ev.Type == a2aport.EventInputRequested && ev.Input != nil {
			req := *ev.Input
			run.mu.Lock()
			answer := run.answer
			run.answer = nil
			run.mu.Unlock()
			if answer != nil { // the message this execution carries answers it
				if err := e.respond(ctx, answer, req, run); err != nil {
					yield(nil, err)
					return
				}
				continue
			}
			run.mu.Lock()
			run.pending = &req
			run.mu.Unlock()
			state := a2a.TaskStateInputRequired
			if req.Kind == a2aport.InputKindAuthorization {
				state = a2a.TaskStateAuthRequired
			}
			yield(a2a.NewStatusUpdateEvent(ec, state, agentMessage(ec, req.Prompt)), nil)
			return
		}
		run.show(ev)
		if run.bytes += eventBytes(ev); e.maxTaskBytes >= 0 && run.bytes > e.maxTaskBytes {
			abandon()
			e.mu.Lock()
			delete(e.runs, ec.TaskID)
			e.mu.Unlock()
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateFailed, agentMessage(ec,
				fmt.Sprintf("the task passed its limit of %d bytes (MaxTaskBytes): its Work was cancelled", e.maxTaskBytes))), nil)
			return
		}
		if out := translate(ec, ev); out != nil && !yield(out, nil) {
			abandon()
			return
		}
	}
}

// Cancel implements a2asrv.AgentExecutor.
func (e *executor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		e.mu.Lock()
		run := e.runs[ec.TaskID]
		e.mu.Unlock()
		if run == nil {
			if res := e.cancelElsewhere(ctx, ec); refused(res.State) {
				yield(nil, notCancelable(res.State)) // the node that runs the Work writes how it ended
				return
			}
		} else {
			run.mu.Lock()
			run.cancelling = true
			waiting := run.pending != nil // no execution follows the task
			run.mu.Unlock()
			res, err := e.port.Cancel(ctx, string(ec.TaskID), run.owner)
			if err != nil {
				yield(nil, err)
				return
			}
			if refused(res.State) { // the agent refused: its task had ended, or is ending
				run.mu.Lock()
				run.cancelling = false
				run.mu.Unlock()
				if waiting && finished(res.State) {
					e.follow(ctx, ec, run, yield) // nothing else will write how the Work ended
					return
				}
				yield(nil, notCancelable(res.State)) // the execution that follows it writes that
				return
			}
			e.mu.Lock()
			delete(e.runs, ec.TaskID) // also when no execution follows it (a task waiting for input)
			e.mu.Unlock()
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// refused reports whether the Port's answer to a cancel (its CancelResult's state) says the agent
// refused it: the task had completed, failed or been rejected, or goes on (a state of a Work that
// runs). Only cancelled is a cancel, and not_found a Work that was over already.
func refused(state a2aport.WorkState) bool {
	return state != a2aport.StateCancelled && state != a2aport.StateNotFound && state != ""
}

// finished reports whether state is a Work's end.
func finished(state a2aport.WorkState) bool {
	return state == a2aport.StateCompleted || state == a2aport.StateFailed || state == a2aport.StateRejected
}

// notCancelable is the answer to a cancel the agent refused.
func notCancelable(state a2aport.WorkState) error {
	if finished(state) {
		return fmt.Errorf("%w: the task %s before it could be cancelled", a2a.ErrTaskNotCancelable, state)
	}
	return fmt.Errorf("%w: the agent refused to cancel the task, which goes on (%s)", a2a.ErrTaskNotCancelable, state)
}

// workOf turns the task's first message into a Work. Files go through only when the Port's input
// modes take their media type. Data parts that are objects merge, in order, into the Work's
// structured input; the message's text is the instruction, and wins over an "instruction" field.
func workOf(ec *a2asrv.ExecutorContext, inputModes []string) (a2aport.Work, error) {
	text, files := split(ec.Message)
	input, err := structured(ec.Message)
	if err != nil {
		return a2aport.Work{}, err
	}
	if s, ok := input["instruction"].(string); ok {
		if text == "" {
			text = s
		}
		delete(input, "instruction")
	}
	if text == "" && len(files) == 0 && len(input) == 0 {
		return a2aport.Work{}, fmt.Errorf("%w: the message has no text, file or data", a2a.ErrInvalidParams)
	}
	for _, f := range files {
		if !accepts(inputModes, f.MIME) {
			return a2aport.Work{}, fmt.Errorf("%w: %s (%s) is not among the input modes %v", a2a.ErrUnsupportedContentType, orName(f.Filename), f.MIME, inputModes)
		}
	}
	return a2aport.Work{ID: string(ec.TaskID), OwnerID: ownerOf(ec), Instruction: text, InputParts: files, Input: input}, nil
}

// structured merges the message's data parts (later fields win); nil for none. A data part that
// is not an object has no field to merge: it is refused rather than dropped.
func structured(m *a2a.Message) (map[string]any, error) {
	var out map[string]any
	for i, p := range m.Parts {
		d, ok := p.Content.(a2a.Data)
		if !ok {
			continue
		}
		obj, ok := d.Value.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: data part %d is not an object", a2a.ErrInvalidParams, i)
		}
		if out == nil {
			out = map[string]any{}
		}
		maps.Copy(out, obj)
	}
	return out, nil
}

// accepts reports whether a media type is among modes (exactly, or by a "type/*" or "*/*" mode).
func accepts(modes []string, mediaType string) bool {
	major, _, _ := strings.Cut(mediaType, "/")
	for _, m := range modes {
		if m == mediaType || m == "*/*" || m == major+"/*" {
			return true
		}
	}
	return false
}

func orName(name string) string {
	if name == "" {
		return "a file"
	}
	return name
}

// split gathers a message's text and its files (raw bytes as data: URLs, links as they are).
func split(m *a2a.Message) (string, []a2aport.InputPart) {
	if m == nil {
		return "", nil
	}
	var texts []string
	var files []a2aport.InputPart
	for _, p := range m.Parts {
		switch c := p.Content.(type) {
		case a2a.Text:
			texts = append(texts, string(c))
		case a2a.Raw:
			mt := p.MediaType
			if mt == "" {
				mt = "application/octet-stream"
			}
			files = append(files, a2aport.InputPart{Type: "file", MIME: mt, Filename: p.Filename,
				URL: "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(c)})
		case a2a.URL:
			files = append(files, a2aport.InputPart{Type: "file", MIME: p.MediaType, Filename: p.Filename, URL: string(c)})
		}
	}
	return strings.Join(texts, "\n"), files
}

// reply runs work to its end and answers with one message (MessageOnly).
func (e *executor) reply(ctx context.Context, ec *a2asrv.ExecutorContext, work a2aport.Work) (a2a.Event, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	errAsked := errors.New("the backend asked for input, which a message-only agent cannot relay")
	out, err := e.port.Submit(ctx, work, a2aport.OnEvent(func(ev a2aport.Event) {
		if ev.Type == a2aport.EventInputRequested {
			cancel(errAsked)
		}
	}))
	if cause := context.Cause(ctx); errors.Is(cause, errAsked) {
		return nil, fmt.Errorf("%w: %v", a2a.ErrUnsupportedOperation, cause)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", a2a.ErrInternalError, err)
	}
	return messageOf(ec, out), nil
}

// messageOf is the agent's message that answers with out: its content, then the artifacts' parts
// that are not text (their text is in the content).
func messageOf(ec *a2asrv.ExecutorContext, out a2aport.Outcome) *a2a.Message {
	msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(out.Content))
	for _, art := range out.Artifacts {
		for _, p := range parts(art.Parts) {
			if _, text := p.Content.(a2a.Text); !text {
				msg.Parts = append(msg.Parts, p)
			}
		}
	}
	msg.ContextID = ec.ContextID
	return msg
}

// forget drops the run of a task that will have no execution to follow it.
func (e *executor) forget(id a2a.TaskID) {
	e.mu.Lock()
	delete(e.runs, id)
	e.mu.Unlock()
}

// elsewhereGrace bounds how long a cancel waits for the Port to re-attach to a Work it does not run.
const elsewhereGrace = 5 * time.Second

// cancelElsewhere cancels a Work another process runs (cluster mode): this process's Port
// re-attaches to it (Resume, through the shared WorkStore) and cancels it, so that the upstream
// task ends; the process that runs it then sees its Work end. Best effort and bounded; the result
// says how the Work ended here (completed, for a task the agent refused to cancel).
func (e *executor) cancelElsewhere(ctx context.Context, ec *a2asrv.ExecutorContext) a2aport.CancelResult {
	owner := ownerOf(ec)
	attached := make(chan struct{})
	var once sync.Once
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_, _ = e.port.Resume(context.WithoutCancel(ctx), string(ec.TaskID), owner,
			a2aport.OnEvent(func(a2aport.Event) { once.Do(func() { close(attached) }) }))
	}()
	timer := time.NewTimer(elsewhereGrace)
	defer timer.Stop()
	var res a2aport.CancelResult
	select {
	case <-attached:
		res, _ = e.port.Cancel(ctx, string(ec.TaskID), owner)
	case <-ended: // nothing to resume: the Work is over, or this Port cannot resume
		return res
	case <-timer.C:
		return res
	}
	select { // the resumed Work ends with the cancel
	case <-ended:
	case <-timer.C:
	}
	return res
}

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
