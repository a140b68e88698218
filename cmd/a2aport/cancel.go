package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sync"
	"time"

	"github.com/a2aport/a2aport"
)

var cancelCommand = &subcommand{
	name: "cancel", args: "ID | URL TASK", summary: "cancel a running Work's task at its agent",
	about: `Cancels the task of a Work at its agent, also one that another process follows (which then ends
with the cancelled status). A task that had ended is shown with how it ended.`,
	examples: `$ a2aport cancel cli-3e01
$ a2aport cancel http://127.0.0.1:8080 01a236ef-233c-7cb4-bb2c-3e9be8a1cd34 --json`,
	groups:   []flagGroup{{"Cancel", []string{"json", "wait"}}, connectionFlags, runtimeFlags},
	operands: operandWork,
	flags:    func(fs *flag.FlagSet) { new(cancelFlags).register(fs) },
	run:      runCancel,
}

type cancelFlags statusFlags

func (f *cancelFlags) register(fs *flag.FlagSet) {
	f.conn.register(fs)
	fs.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	fs.DurationVar(&f.wait, "wait", 30*time.Second, "how long to wait for the agent")
}

// runCancel cancels a Work's task at its agent.
func runCancel(ctx context.Context, args []string, s streams) int {
	var f cancelFlags
	t, opts, code, ok := taskCommand("cancel", args, s, &f.conn, f.register)
	if !ok {
		return code
	}
	conn, asJSON, wait := f.conn, f.asJSON, f.wait
	if t.recorded {
		store, err := newTaskNoticer(t.Card, func(a2aport.WorkRecord) {})
		if err != nil {
			fmt.Fprintln(s.stderr, "a2aport:", err)
			return exitError
		}
		defer store.release()
		opts.WorkStore = store
	} else {
		opts.WorkStore = t.inMemory()
	}
	port, err := conn.open(ctx, opts)
	if err != nil {
		return printCancel(s, t, a2aport.Outcome{}, err, asJSON)
	}
	defer func() { _ = port.Close() }()
	leave := sync.OnceFunc(func() { _ = port.Detach() })
	timer := time.AfterFunc(wait, leave)
	defer timer.Stop()
	// The cancel is asked once the Work runs here (its first event); a refusal leaves it as it was.
	var refused error
	var asked sync.Once
	var cancelled sync.WaitGroup
	out, err := port.Resume(ctx, t.WorkID, t.OwnerID, a2aport.OnEvent(func(a2aport.Event) {
		asked.Do(func() {
			cancelled.Add(1)
			go func() {
				defer cancelled.Done()
				res, err := port.Cancel(ctx, t.WorkID, t.OwnerID)
				switch {
				case err != nil, res.State == a2aport.StateCancelled:
				case ended(res.State): // the agent refused: the task had ended, and the Work ends as it did
				default:
					err = fmt.Errorf("the agent left the task %s", res.State)
				}
				if err != nil {
					refused = err
					leave()
				}
			}()
		})
	}))
	cancelled.Wait()
	switch {
	case refused != nil && a2aport.CodeOf(err) == a2aport.CodeWorkDetached:
		err = fmt.Errorf("the task was not cancelled: %w", refused)
	case a2aport.CodeOf(err) == a2aport.CodeWorkDetached:
		err = noAnswer(fmt.Sprintf("the agent did not answer within %s: the task may still run", wait))
	case t.recorded && !t.Followed: // ended here (a process that follows it says so itself)
		state, code := endOf(err)
		noteEnded(endedWork{WorkID: t.WorkID, RemoteTaskID: t.RemoteTaskID, Agent: t.Card, State: state, Error: code, Ended: time.Now()})
	}
	return printCancel(s, t, out, err, asJSON)
}

// ended reports whether state is how a task ended otherwise than cancelled.
func ended(state a2aport.WorkState) bool {
	return state == a2aport.StateCompleted || state == a2aport.StateFailed || state == a2aport.StateRejected
}

// printCancel says how cancel ended: 0 once the task is cancelled. A task that had ended before
// (the agent refused the cancel) is not reported cancelled: it exits as send would have for that
// end, with the answer of one that completed.
func printCancel(s streams, t target, out a2aport.Outcome, err error, asJSON bool) int {
	code := exitCode(err)
	cancelled := a2aport.CodeOf(err) == a2aport.CodeWorkCancelled
	if cancelled {
		code = exitOK
	}
	if asJSON {
		v := map[string]any{"type": "cancel", "workId": t.WorkID, "remoteTaskId": t.RemoteTaskID, "cancelled": cancelled, "exitCode": code}
		switch {
		case err == nil:
			v["state"], v["content"] = a2aport.StateCompleted, out.Content
		case !cancelled:
			v["code"], v["message"] = jsonCode(err), err.Error()
		}
		line, _ := json.Marshal(v)
		fmt.Fprintln(s.stdout, string(jsonSafe(line)))
		return code
	}
	switch {
	case cancelled:
		fmt.Fprintf(s.stderr, "✓ cancelled task %s\n", cleanLine(t.RemoteTaskID))
	case err == nil:
		fmt.Fprintf(s.stderr, "task %s had already completed: it was not cancelled\n", cleanLine(t.RemoteTaskID))
		if out.Content != "" {
			fmt.Fprintln(s.stdout, clean(out.Content))
		}
	default:
		fmt.Fprintf(s.stderr, "✗ %s: %s\n", orDefault(string(a2aport.CodeOf(err)), "error"), clean(err.Error()))
	}
	return code
}
