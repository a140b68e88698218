package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var taskGetCommand = &subcommand{
	name: "task get", args: "TASK_ID", summary: "show a task as its agent has it (--wait: until it ends or waits for input)",
	about: `Asks the agent for the task (GetTask) and shows its id, context, state, status message and
artifacts (with --history its last messages too; --verbose shows every part on its own, with its
kind, media type and metadata, and the history); -o json prints the protocol's Task as the agent
sent it. --wait asks again every
--poll-interval (a little longer each time, up to 5 times it) until the task ends or waits for
input, for at most --timeout. Nothing is stored: the task id is the whole state.`,
	examples: `$ a2aport task get -a http://127.0.0.1:8080 01a236ef-233c-7cb4-bb2c-3e9be8a1cd34
$ a2aport task get -a https://agent.example 01a236ef-… --wait --timeout 5m -o json | jq .status.state
$ A2ACLI_AGENT_CARD=https://agent.example a2aport task get 01a236ef-… --history 10`,
	groups:   []flagGroup{{"Task", []string{"history", "wait", "poll-interval", "timeout"}}, agentFlagGroup},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(taskGetFlags).register(fs) },
	run:      interruptible(runTaskGet),
}

type taskGetFlags struct {
	agent   agentFlags
	history int
	wait    bool
	every   time.Duration
	timeout time.Duration
}

func (f *taskGetFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	fs.IntVar(&f.history, "history", -1, "the last `n` messages of the task's history to show (default: the agent's choice)")
	fs.BoolVar(&f.wait, "wait", false, "ask again until the task ends or waits for input")
	fs.DurationVar(&f.every, "poll-interval", 2*time.Second, "with --wait: how often to ask (`duration`)")
	fs.DurationVar(&f.timeout, "timeout", 0, "with --wait: give up after this `duration` (exit 5; the task goes on)")
}

// runTaskGet shows a task, once or until it ends.
func runTaskGet(ctx context.Context, args []string, s streams) int {
	var f taskGetFlags
	conn, taskID, code, ok := openTask(ctx, "task get", args, s, &f.agent, f.register, func() *cliError {
		if f.every <= 0 {
			return &cliError{code: errUsage, message: "--poll-interval must be positive", exit: exitUsage}
		}
		return nil
	})
	if !ok {
		return code
	}
	asJSON := f.agent.output == "json"
	pos := []string{taskID}
	req := &a2a.GetTaskRequest{ID: a2a.TaskID(pos[0])}
	if f.history >= 0 {
		req.HistoryLength = &f.history
	}
	var task *a2a.Task
	var err error
	if f.wait {
		if !asJSON {
			fmt.Fprintf(s.stderr, "waiting for task %s (Ctrl-C stops waiting; the task goes on)\n", cleanLine(pos[0]))
		}
		task, err = pollTask(ctx, conn, req, f.every, f.timeout)
	} else {
		task, err = conn.GetTask(ctx, req)
	}
	if err != nil {
		return report(s, asJSON, classify(err, conn, f.agent.hasCredentials()))
	}
	return printTask(s, &f.agent, task, conn.ref, f.history >= 0)
}

// printTask writes a task as -o and --verbose ask (with its history when history), and names on
// stderr an end other than completed.
func printTask(s streams, f *agentFlags, task *a2a.Task, ref string, history bool) int {
	if f.output == "json" {
		if err := writeJSON(s.stdout, task); err != nil {
			return report(s, false, &cliError{code: errInternal, message: err.Error(), exit: exitError})
		}
	} else {
		out := f.text(s.stdout)
		out.history = history
		out.task(task)
	}
	outcomeWarning(s.stderr, task.Status.State, task.ID, replyCommand(ref, task.ID))
	return exitOK
}

// replyCommand is the command that answers a task waiting for input (SPEC.md §8.2).
func replyCommand(ref string, task a2a.TaskID) string {
	return fmt.Sprintf("a2aport send -a %s --task-id %s \"<reply>\"", ref, cleanLine(string(task)))
}

// pollTask asks for the task until it ends or waits for input (SPEC.md §9.3): every interval,
// stretched by half each time up to five times it, never busy; UNSPECIFIED is neither an end nor
// a wait. timeout 0: until ctx ends.
func pollTask(ctx context.Context, conn *agentConn, req *a2a.GetTaskRequest, interval, timeout time.Duration) (*a2a.Task, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	wait := interval
	for {
		task, err := conn.GetTask(ctx, req)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			return nil, err
		case task.Status.State.Terminal() || interrupted(task.Status.State):
			return task, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*3/2, 5*interval)
	}
}

// interrupted says the task waits for the caller (SPEC.md §9.1).
func interrupted(s a2a.TaskState) bool {
	return s == a2a.TaskStateInputRequired || s == a2a.TaskStateAuthRequired
}

// hasCredentials says a credential was given (or stored by auth login), for the error's name.
func (f *agentFlags) hasCredentials() bool { return f.bearer != "" || f.apiKey != "" }
