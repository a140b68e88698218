package main

import (
	"context"
	"errors"
	"flag"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var taskCancelCommand = &subcommand{
	name: "task cancel", args: "TASK_ID", summary: "cancel a task at its agent and show the state it is left in",
	about: `Asks the agent to cancel the task (CancelTask) and shows the task as it is then. Cancelling a
cancelled task shows it again (exit 0); a task that had ended otherwise is not cancelled: the
agent's TaskNotCancelableError, exit 1. A task that waits for input is asked again for a moment
(a2a-go's server refuses while the turn that asked is returning).`,
	examples: `$ a2aport task cancel -a http://127.0.0.1:8080 01a236ef-233c-7cb4-bb2c-3e9be8a1cd34
$ a2aport task cancel -a https://agent.example 01a236ef-… -o json | jq .status.state`,
	groups:   []flagGroup{agentFlagGroup},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(agentFlags).register(fs) },
	run:      interruptible(runTaskCancel),
}

// runTaskCancel cancels a task and shows the state it is left in.
func runTaskCancel(ctx context.Context, args []string, s streams) int {
	var f agentFlags
	conn, id, code, ok := openTask(ctx, "task cancel", args, s, &f, f.register, nil)
	if !ok {
		return code
	}
	asJSON := f.output == "json"
	task, err := cancelTask(ctx, conn, a2a.TaskID(id))
	if err != nil {
		c := classify(err, conn, f.hasCredentials())
		if task != nil {
			c.message += " (it is " + shortState(task.Status.State) + ")"
		}
		return report(s, asJSON, c)
	}
	return printTask(s, &f, task, conn.ref, false)
}

// cancelTask cancels id. A refusal is looked at: a task already cancelled is the answer (the
// cancel is idempotent), one still going is asked again for up to 3 s, one that ended otherwise
// is returned with the refusal.
func cancelTask(ctx context.Context, conn *agentConn, id a2a.TaskID) (*a2a.Task, error) {
	deadline := time.Now().Add(3 * time.Second)
	for {
		task, err := conn.CancelTask(ctx, &a2a.CancelTaskRequest{ID: id})
		if err == nil || !errors.Is(err, a2a.ErrTaskNotCancelable) {
			return task, err
		}
		now, getErr := conn.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
		switch {
		case getErr != nil:
			return nil, err
		case now.Status.State == a2a.TaskStateCanceled:
			return now, nil
		case now.Status.State.Terminal() || time.Now().After(deadline):
			return now, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
