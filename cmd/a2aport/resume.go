package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/a2aport/a2aport"
)

var resumeCommand = &subcommand{
	name: "resume", args: "ID | URL TASK", summary: "follow a running Work again, as send would",
	about: `Follows a Work that no process follows any more (send --detach, a closed shell, a crash) as send
would have: its events, its questions, Ctrl-C to cancel it; nothing is sent to the agent again.
A Work another process follows is refused: two would answer the same questions.`,
	examples: `$ a2aport resume cli-3e01
$ a2aport resume cli-3e01 --answer "tea and coffee" > report.md
$ a2aport resume http://127.0.0.1:8080 01a236ef-233c-7cb4-bb2c-3e9be8a1cd34`,
	groups:   []flagGroup{{"Work", []string{"answer", "timeout"}}, outputFlags, connectionFlags, runtimeFlags},
	operands: operandWork,
	flags:    func(fs *flag.FlagSet) { new(resumeFlags).register(fs) },
	run:      runResume,
}

type resumeFlags struct {
	conn    connection
	view    view
	timeout time.Duration
}

func (f *resumeFlags) register(fs *flag.FlagSet) {
	f.conn.register(fs)
	f.view.register(fs)
	fs.DurationVar(&f.timeout, "timeout", 0, "give up (and cancel the task) after this `duration`")
}

// runResume follows a Work again as send would have: its events, its questions, Ctrl-C.
func runResume(ctx context.Context, args []string, s streams) int {
	var f resumeFlags
	t, opts, code, ok := taskCommand("resume", args, s, &f.conn, f.register)
	if !ok {
		return code
	}
	conn, v, timeout := f.conn, f.view, f.timeout
	opts.Timeout, v.resumed = timeout, true
	if !t.recorded { // recorded now: a resume that is cut short can be resumed again
		store, err := agentWorks(t.Card)
		if err == nil {
			err = store.Set(ctx, t.WorkRecord)
		}
		if err != nil {
			fmt.Fprintln(s.stderr, "a2aport:", err)
			return exitError
		}
	}
	work := t.work()
	return follow(ctx, s, conn, opts, v, work, func(ctx context.Context, port a2aport.Port, onEvent a2aport.SubmitOption) (a2aport.Outcome, error) {
		return port.Resume(ctx, work.ID, work.OwnerID, onEvent)
	})
}
