package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var taskSubscribeCommand = &subcommand{
	name: "task subscribe", args: "TASK_ID", summary: "follow a task's events until it ends or waits for input",
	about: `Subscribes to the task's events (SubscribeToTask) and follows them until the task ends or waits
for input. The first event is the whole task, so nothing is missed between an earlier look and
this one; a stream that breaks is subscribed to again (up to 3 times), from the whole task again.
Without --stream the task is shown once it stops (-o json: the protocol's Task); with --stream
each event as it comes (-o json: one StreamResponse per line).`,
	examples: `$ a2aport task subscribe -a http://127.0.0.1:8080 01a236ef-233c-7cb4-bb2c-3e9be8a1cd34
$ a2aport task subscribe -a https://agent.example 01a236ef-… --stream -o json | jq -c .`,
	groups:   []flagGroup{{"Subscribe", []string{"stream"}}, agentFlagGroup},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(subscribeFlags).register(fs) },
	run:      interruptible(runTaskSubscribe),
}

type subscribeFlags struct {
	agent  agentFlags
	stream bool
}

func (f *subscribeFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	fs.BoolVar(&f.stream, "stream", false, "show each event as it comes (-o json: one per line)")
}

// resubscribes is how many times a broken stream is subscribed to again.
const resubscribes = 3

// runTaskSubscribe follows a task until it ends or waits.
func runTaskSubscribe(ctx context.Context, args []string, s streams) int {
	var f subscribeFlags
	conn, taskID, code, ok := openTask(ctx, "task subscribe", args, s, &f.agent, f.register, nil)
	if !ok {
		return code
	}
	asJSON := f.agent.output == "json"
	pos := []string{taskID}
	if !conn.card.Capabilities.Streaming { // SPEC.md §13.3: the card says first
		return report(s, asJSON, &cliError{code: "UnsupportedOperationError", exit: exitError,
			message: "the agent's card says it does not stream: there is nothing to subscribe to",
			hint:    "a2aport task get --wait " + pos[0] + " follows it by asking"})
	}
	id := a2a.TaskID(pos[0])
	onEvent := func(ev a2a.Event) {
		if !f.stream {
			return
		}
		if asJSON {
			_ = writeJSON(s.stdout, a2a.StreamResponse{Event: ev})
			return
		}
		f.agent.text(s.stdout).event(ev)
	}
	state, err := followTask(ctx, conn, id, s.stderr, onEvent)
	if err != nil {
		return report(s, asJSON, classify(err, conn, f.agent.hasCredentials())) // with --stream: its last line
	}
	if f.stream {
		if !asJSON {
			field(s.stdout, "Task", string(id))
			field(s.stdout, "State", shortState(state))
		}
		outcomeWarning(s.stderr, state, id, replyCommand(conn.ref, id))
		return exitOK
	}
	task, err := conn.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
	if err != nil {
		return report(s, asJSON, classify(err, conn, f.agent.hasCredentials()))
	}
	return printTask(s, &f.agent, task, conn.ref, false)
}

// followTask reads the task's events until it ends or waits, subscribing again when the stream
// breaks or ends early, and returns the state it stopped in.
func followTask(ctx context.Context, conn *agentConn, id a2a.TaskID, notices io.Writer, onEvent func(a2a.Event)) (a2a.TaskState, error) {
	state := a2a.TaskStateUnspecified
	var lastErr error
	for attempt := 0; attempt <= resubscribes; attempt++ {
		if attempt > 0 {
			fmt.Fprintf(notices, "a2aport: the stream of task %s ended early (%v): subscribing again\n", cleanLine(string(id)), lastErr)
		}
		lastErr = errors.New("it closed")
		for ev, err := range conn.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}) {
			if err != nil {
				lastErr = err
				break
			}
			onEvent(ev)
			switch e := ev.(type) {
			case *a2a.Task:
				state = e.Status.State
			case *a2a.TaskStatusUpdateEvent:
				state = e.Status.State
			}
			if state.Terminal() || interrupted(state) {
				return state, nil
			}
		}
		if ctx.Err() != nil || isProtocolError(lastErr) {
			return state, lastErr
		}
	}
	return state, lastErr
}

// isProtocolError says the agent answered with an A2A error: subscribing again would get it again.
func isProtocolError(err error) bool {
	for _, p := range protocolNames {
		if errors.Is(err, p.err) {
			return true
		}
	}
	return false
}
