package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// send as the A2A CLI specification has it (SPEC.md §10.2), on a2a-go's client: one message of
// ordered parts, to a new task, a context (--context-id) or a task (--task-id); it waits until
// the task ends or waits for input (streaming when the card offers it, asking with GetTask when
// the stream fails), or returns at once with --async; it prints the protocol's objects (-o json:
// the SendMessageResponse, or with --stream each StreamResponse) or Label: value text. It stores
// nothing: the ids it prints are the state. Ctrl-C stops waiting and leaves the task at the agent.

// specSend is what send's flags of the specification say.
type specSend struct {
	agent     agentFlags
	stream    bool
	async     bool
	taskID    string
	contextID string
	metadata  string
	skill     string
	backend   string
	every     time.Duration
}

// message builds the message of the send.
func (f *specSend) message(text string, parts *partList, stdin io.Reader) (*a2a.Message, error) {
	var all []*a2a.Part
	if text != "" {
		all = append(all, a2a.NewTextPart(text))
	}
	built, err := parts.build(stdin)
	if err != nil {
		return nil, err
	}
	all = append(all, built...)
	if len(all) == 0 {
		return nil, fmt.Errorf("the message has no part: give text, --text, --file or --data")
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, all...)
	msg.TaskID, msg.ContextID = a2a.TaskID(f.taskID), f.contextID
	if f.metadata != "" {
		if err := json.Unmarshal([]byte(f.metadata), &msg.Metadata); err != nil || msg.Metadata == nil {
			return nil, fmt.Errorf("--metadata: want a JSON object such as '{\"k\":\"v\"}'")
		}
	}
	for k, v := range map[string]string{"skill": f.skill, "backend": f.backend} {
		if v != "" {
			if msg.Metadata == nil {
				msg.Metadata = map[string]any{}
			}
			msg.Metadata[k] = v
		}
	}
	return msg, nil
}

// runSpecSend sends the message and shows what comes back.
func runSpecSend(ctx context.Context, s streams, f *specSend, ref, text string, parts *partList, timeout time.Duration) int {
	asJSON := f.agent.output == "json"
	msg, err := f.message(text, parts, s.stdin)
	if err != nil {
		return report(s, asJSON, &cliError{code: errUsage, message: err.Error(), exit: exitUsage})
	}
	conn, err := f.agent.dial(ctx, ref, s.stderr)
	if err != nil {
		return report(s, asJSON, classify(err, nil, f.agent.hasCredentials()))
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	req := &a2a.SendMessageRequest{Message: msg, Config: &a2a.SendMessageConfig{ReturnImmediately: f.async}}
	x := &exchange{s: s, conn: conn, asJSON: asJSON, stream: f.stream, every: f.every, text: f.agent.text(s.stdout)}
	if !asJSON {
		x.text.sent(msg) // verbose: what goes to the agent, before what comes back
	}
	var result a2a.SendMessageResult
	switch {
	case f.async || !conn.card.Capabilities.Streaming: // §13.3: the card says whether it streams
		result, err = conn.SendMessage(ctx, req)
		if err == nil && !f.async {
			result, err = x.settle(ctx, result)
		}
		if err == nil && f.stream {
			x.show(result)
		}
	default:
		result, err = x.follow(ctx, req)
	}
	if err != nil {
		c := classify(err, conn, f.agent.hasCredentials())
		if x.task != "" {
			c.message += fmt.Sprintf(" (task %s, context %s)", x.task, x.context)
			if c.code == errTimeout {
				c.hint = "the task goes on at the agent: a2aport task get -a " + conn.ref + " --wait " + string(x.task)
			}
		}
		return report(s, asJSON, c)
	}
	if !f.stream {
		if asJSON {
			_ = writeJSON(s.stdout, a2a.StreamResponse{Event: result})
		} else {
			f.agent.text(s.stdout).event(result)
		}
	} else if task, ok := result.(*a2a.Task); ok && !asJSON {
		// §11.2: the stream's text ends by restating the ids and the state.
		field(s.stdout, "Task", string(task.ID))
		field(s.stdout, "Context", task.ContextID)
		field(s.stdout, "State", shortState(task.Status.State))
	}
	if task, ok := result.(*a2a.Task); ok {
		outcomeWarning(s.stderr, task.Status.State, task.ID, replyCommand(conn.ref, task.ID))
	}
	return exitOK
}

// exchange follows one send: what it learned of the task, and where it shows events.
type exchange struct {
	s       streams
	conn    *agentConn
	asJSON  bool
	stream  bool
	every   time.Duration
	text    textOut
	task    a2a.TaskID
	context string
}

// show writes one event with --stream (-o json: a StreamResponse line).
func (x *exchange) show(ev a2a.Event) {
	if info := ev.TaskInfo(); info.TaskID != "" {
		x.named(info.TaskID, info.ContextID)
	}
	if !x.stream {
		return
	}
	if x.asJSON {
		_ = writeJSON(x.s.stdout, a2a.StreamResponse{Event: ev})
		return
	}
	x.text.event(ev)
}

// follow streams the send until the task ends or waits; a stream that fails once the task is
// known is given up for asking (GetTask) until then (§9.3). The result is the whole task as the
// agent has it at the end, or the message that answered.
func (x *exchange) follow(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	var streamErr error
	for ev, err := range x.conn.SendStreamingMessage(ctx, req) {
		if err != nil {
			streamErr = err
			break
		}
		x.show(ev)
		switch e := ev.(type) {
		case *a2a.Message:
			return e, nil
		case *a2a.Task:
			if e.Status.State.Terminal() || interrupted(e.Status.State) {
				return x.whole(ctx)
			}
		case *a2a.TaskStatusUpdateEvent:
			if e.Status.State.Terminal() || interrupted(e.Status.State) {
				return x.whole(ctx)
			}
		}
	}
	if x.task == "" || ctx.Err() != nil || isProtocolError(streamErr) {
		if streamErr == nil {
			streamErr = fmt.Errorf("the agent's stream ended before it named a task")
		}
		return nil, streamErr
	}
	why := "closed"
	if streamErr != nil {
		why = streamErr.Error()
	}
	fmt.Fprintf(x.s.stderr, "a2aport: the stream of task %s ended early (%s): asking for it every %s\n", cleanLine(string(x.task)), cleanLine(why), x.every)
	task, err := pollTask(ctx, x.conn, &a2a.GetTaskRequest{ID: x.task}, x.every, 0)
	if err == nil && x.stream {
		x.show(task)
	}
	return task, err
}

// named records the task the agent named and, the first time, says so on stderr before any wait
// (§9.3: a caller who stops waiting must know which task goes on). With --stream the events show
// it already.
func (x *exchange) named(task a2a.TaskID, context string) {
	first := x.task == ""
	x.task, x.context = task, context
	if first && !x.stream {
		fmt.Fprintf(x.s.stderr, "task %s (context %s): waiting for it (Ctrl-C stops waiting; the task goes on)\n", cleanLine(string(task)), cleanLine(context))
	}
}

// whole is the task as the agent has it now (its artifacts whole, as -o json's one document needs).
func (x *exchange) whole(ctx context.Context) (a2a.SendMessageResult, error) {
	return x.conn.GetTask(ctx, &a2a.GetTaskRequest{ID: x.task})
}

// settle waits, asking, for a task that SendMessage returned before it ended or waited.
func (x *exchange) settle(ctx context.Context, result a2a.SendMessageResult) (a2a.SendMessageResult, error) {
	task, ok := result.(*a2a.Task)
	if !ok {
		return result, nil
	}
	x.named(task.ID, task.ContextID)
	if task.Status.State.Terminal() || interrupted(task.Status.State) {
		return task, nil
	}
	return pollTask(ctx, x.conn, &a2a.GetTaskRequest{ID: task.ID}, x.every, 0)
}
