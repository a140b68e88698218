package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var taskListCommand = &subcommand{
	name: "task list", args: "", summary: "list an agent's tasks, a page at a time",
	about: `Lists the caller's tasks at the agent (ListTasks), newest first, a page at a time: the next
page is --page-token with the token the last one ended with. --status and --context-id filter.
-o json prints the protocol's ListTasksResponse; with --stream, one Task per line.`,
	examples: `$ a2aport task list -a http://127.0.0.1:8080
$ a2aport task list -a https://agent.example --status input-required --page-size 20
$ a2aport task list -a https://agent.example --context-id 01a236ef-… -o json | jq '.tasks[].id'`,
	groups:   []flagGroup{{"List", []string{"status", "context-id", "page-size", "page-token", "history", "stream"}}, agentFlagGroup},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(taskListFlags).register(fs) },
	run:      interruptible(runTaskList),
}

type taskListFlags struct {
	agent     agentFlags
	status    string
	contextID string
	pageSize  int
	pageToken string
	history   int
	stream    bool
}

func (f *taskListFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	fs.StringVar(&f.status, "status", "", "only tasks in this `state` (working, input-required, completed, …)")
	fs.StringVar(&f.contextID, "context-id", "", "only the tasks of this `context`")
	fs.IntVar(&f.pageSize, "page-size", 0, "tasks per `page` (default: the agent's)")
	fs.StringVar(&f.pageToken, "page-token", "", "the page after the one that ended with this `token`")
	fs.IntVar(&f.history, "history", -1, "the last `n` messages of each task's history (default: the agent's choice)")
	fs.BoolVar(&f.stream, "stream", false, "with -o json: one Task per line")
}

// runTaskList prints a page of the agent's tasks.
func runTaskList(ctx context.Context, args []string, s streams) int {
	var f taskListFlags
	pos, err := parseAgentArgs("task list", args, s, &f.agent, f.register)
	if err != nil {
		return usageCode(err)
	}
	asJSON := f.agent.output == "json"
	if len(pos) != 0 {
		return report(s, asJSON, &cliError{code: errUsage, message: "takes no arguments", exit: exitUsage})
	}
	req := &a2a.ListTasksRequest{ContextID: f.contextID, PageSize: f.pageSize, PageToken: f.pageToken}
	if f.status != "" {
		req.Status = a2a.TaskState("TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(strings.TrimPrefix(f.status, "TASK_STATE_"), "-", "_")))
		if !knownState(req.Status) {
			return report(s, asJSON, &cliError{code: errUsage, message: fmt.Sprintf("--status %q is no task state (submitted, working, input-required, auth-required, completed, failed, rejected, canceled)", f.status), exit: exitUsage})
		}
	}
	if f.history >= 0 {
		req.HistoryLength = &f.history
	}
	conn, err := f.agent.dial(ctx, f.agent.agentCard, s.stderr)
	if err != nil {
		return report(s, asJSON, classify(err, nil, f.agent.hasCredentials()))
	}
	resp, err := conn.ListTasks(ctx, req)
	if err != nil {
		return report(s, asJSON, classify(err, conn, f.agent.hasCredentials()))
	}
	switch {
	case asJSON && f.stream:
		for _, t := range resp.Tasks {
			_ = writeJSON(s.stdout, t)
		}
	case asJSON:
		_ = writeJSON(s.stdout, resp)
	default:
		field(s.stdout, "Tasks", strconv.Itoa(len(resp.Tasks)))
		field(s.stdout, "Total", strconv.Itoa(resp.TotalSize))
		field(s.stdout, "Next page", orDefault(resp.NextPageToken, "-"))
		s.stdout.Write([]byte("\n")) //nolint:errcheck // as every other write of the output
		for _, t := range resp.Tasks {
			field(s.stdout, "Task", string(t.ID))
			field(s.stdout, "Context", t.ContextID)
			field(s.stdout, "State", shortState(t.Status.State))
			s.stdout.Write([]byte("\n")) //nolint:errcheck // as above
		}
	}
	return exitOK
}

// knownState reports whether state is one of A2A 1.0's task states a list can be filtered by.
func knownState(state a2a.TaskState) bool {
	switch state {
	case a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired,
		a2a.TaskStateCompleted, a2a.TaskStateFailed, a2a.TaskStateRejected, a2a.TaskStateCanceled:
		return true
	}
	return false
}
