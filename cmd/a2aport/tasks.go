package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/a2aport/a2aport"
)

// status, cancel and resume act on a Work from another shell than the one that started it: by
// its id or its agent's task id (a Work of a2aport's, found in works.go's folders), or by an
// agent's URL and a task id (any task of that agent). Each goes through the Port's Resume, which
// follows the task without sending anything again.

// target is the Work a command acts on: a recorded one, or a task named with its agent's URL
// (recorded false: nothing of a2aport's knows it).
type target struct {
	savedWork
	recorded bool
}

// parseTarget reads ID, or URL TASK.
func parseTarget(pos []string) (target, error) {
	switch len(pos) {
	case 1:
		w, err := findWork(pos[0])
		return target{savedWork: w, recorded: true}, err
	case 2:
		card, err := cardURL(pos[0])
		if err != nil {
			return target{}, err
		}
		if strings.TrimSpace(pos[1]) == "" {
			return target{}, errors.New("the task id is empty")
		}
		rec := a2aport.WorkRecord{WorkID: "cli-" + randomID(), OwnerID: "cli", RemoteTaskID: pos[1], State: a2aport.StateWorking}
		return target{savedWork: savedWork{WorkRecord: rec, Card: card}}, nil
	}
	return target{}, errors.New("want the Work's id (or its task id), or the agent's URL and a task id")
}

// inMemory is a WorkStore holding the record of a task that a2aport did not record (URL TASK):
// status and cancel act on it and leave nothing behind.
func (t target) inMemory() a2aport.WorkStore {
	mem := &a2aport.MemoryWorkStore{}
	_ = mem.Set(context.Background(), t.WorkRecord) // never fails
	return mem
}

// work is the target as the Port knows it.
func (t target) work() a2aport.Work { return a2aport.Work{ID: t.WorkID, OwnerID: t.OwnerID} }

var (
	statusCommand = &subcommand{
		name: "status", args: "[ID | URL TASK]", summary: "list the running Works, or show one as its agent has it now",
		about: `Without arguments, lists the Works that a2aport runs or left running (send --detach, a closed
shell), newest first, and whether a process follows each. With a Work's id (or its agent's task
id, or the start of either) it asks the agent for the task and shows its state, its question and
its artifacts so far, and leaves the Work as it was. URL TASK names any task of an agent, one that
a2aport did not start too.`,
		examples: `$ a2aport status
$ a2aport status cli-3e01                       # the start of an id is enough
$ a2aport status http://127.0.0.1:8080 01a236ef-233c-7cb4-bb2c-3e9be8a1cd34 --json`,
		groups:   []flagGroup{{"Status", []string{"json", "wait"}}, connectionFlags, runtimeFlags},
		operands: operandWork,
		flags:    func(fs *flag.FlagSet) { new(statusFlags).register(fs) },
		run:      runStatus,
	}
	resumeCommand = &subcommand{
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
	cancelCommand = &subcommand{
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
)

type statusFlags struct {
	conn   connection
	asJSON bool
	wait   time.Duration
}

func (f *statusFlags) register(fs *flag.FlagSet) {
	f.conn.register(fs)
	fs.BoolVar(&f.asJSON, "json", false, "print it as one JSON object (the list: one per line)")
	fs.DurationVar(&f.wait, "wait", 10*time.Second, "how long to wait for the agent's answer")
}

type cancelFlags statusFlags

func (f *cancelFlags) register(fs *flag.FlagSet) {
	f.conn.register(fs)
	fs.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	fs.DurationVar(&f.wait, "wait", 30*time.Second, "how long to wait for the agent")
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

// listWorksCode is taskCommand's answer to status without arguments: list the recorded Works.
const listWorksCode = -1

// taskCommand parses the target of status, cancel or resume, its flags parsed with register. ok
// false: the command ends with code (its help was shown, a mistake said).
func taskCommand(name string, args []string, s streams, conn *connection, register func(*flag.FlagSet)) (t target, opts a2aport.Options, code int, ok bool) {
	pos, err := parseArgs(name, args, s, register)
	if err != nil {
		return t, opts, usageCode(err), false
	}
	if name == "status" && len(pos) == 0 {
		return t, opts, listWorksCode, false
	}
	if t, err = parseTarget(pos); errors.Is(err, errNoSuchWork) {
		fmt.Fprintf(s.stderr, "a2aport %s: %v\n", name, err)
		return t, opts, exitError, false
	}
	if err != nil {
		usageError(s.stderr, name, err.Error())
		return t, opts, exitUsage, false
	}
	if opts, err = conn.options(t.Card); err != nil {
		fmt.Fprintln(s.stderr, "a2aport:", err)
		return t, opts, exitUsage, false
	}
	return t, opts, exitOK, true
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

// readOnly is a WorkStore that reads its records and writes nothing: status looks at a Work and
// leaves its record as it was, for the process that follows it or a later resume.
type readOnly struct{ a2aport.WorkStore }

func (readOnly) Set(context.Context, a2aport.WorkRecord) error { return nil }
func (readOnly) Delete(context.Context, string) error          { return nil }

// snapshot is what status learned of a Work.
type snapshot struct {
	WorkID          string            `json:"workId"`
	RemoteTaskID    string            `json:"remoteTaskId"`
	RemoteContextID string            `json:"remoteContextId,omitempty"`
	Agent           string            `json:"agent"`
	State           a2aport.WorkState `json:"state"`
	Text            string            `json:"text,omitempty"`
	Question        string            `json:"question,omitempty"`
	Artifacts       []artifactSize    `json:"artifacts,omitempty"`
	Followed        bool              `json:"followed"`
	Ended           bool              `json:"ended"`
	Error           string            `json:"error,omitempty"`
}

type artifactSize struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Bytes int    `json:"bytes"`
}

// runStatus shows a Work as its agent has it now, and leaves it as it was; without an id, the
// recorded Works.
func runStatus(ctx context.Context, args []string, s streams) int {
	var f statusFlags
	t, opts, code, ok := taskCommand("status", args, s, &f.conn, f.register)
	conn, asJSON, wait := f.conn, f.asJSON, f.wait
	switch {
	case code == listWorksCode:
		return listWorks(s.stdout, s.stderr, asJSON)
	case !ok:
		return code
	}
	snap := snapshot{WorkID: t.WorkID, RemoteTaskID: t.RemoteTaskID, RemoteContextID: t.RemoteContextID, Agent: t.Card, State: t.State, Followed: t.Followed}
	if t.recorded {
		store, err := agentWorks(t.Card)
		if err != nil {
			fmt.Fprintln(s.stderr, "a2aport:", err)
			return exitError
		}
		opts.WorkStore = readOnly{store}
	} else {
		opts.WorkStore = t.inMemory()
	}
	port, err := conn.open(ctx, opts)
	if err != nil {
		return printSnapshot(s, snap, err, asJSON)
	}
	defer func() { _ = port.Close() }()
	// The agent answered once the Work reconnected; what its task holds follows at once, then the
	// command leaves the Work as it found it (Detach), or when the agent did not answer in time.
	var mu sync.Mutex
	artifacts := map[string]artifactSize{}
	var order []string
	var answered, left bool
	leave := sync.OnceFunc(func() {
		mu.Lock()
		left = true // what the Work shows from now on is its leaving, not the agent's task
		mu.Unlock()
		_ = port.Detach()
	})
	timer := time.AfterFunc(wait, leave)
	defer timer.Stop()
	_, err = port.Resume(ctx, t.WorkID, t.OwnerID, a2aport.OnEvent(func(ev a2aport.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case left:
		case ev.Type == a2aport.EventActivity && ev.Reconnected:
			answered = true
			time.AfterFunc(150*time.Millisecond, leave)
		case ev.Type == a2aport.EventActivity && !ev.Reconnecting:
			snap.State, snap.Text = ev.State, ev.Text
		case ev.Type == a2aport.EventInputRequested && ev.Input != nil:
			snap.Question = ev.Input.Prompt
		case ev.Type == a2aport.EventArtifact && ev.Artifact != nil:
			if _, seen := artifacts[ev.Artifact.ID]; !seen {
				order = append(order, ev.Artifact.ID)
			}
			artifacts[ev.Artifact.ID] = artifactSize{ID: ev.Artifact.ID, Name: ev.Artifact.Name, Bytes: textSize(*ev.Artifact)}
		}
	}))
	mu.Lock()
	defer mu.Unlock()
	for _, id := range order {
		snap.Artifacts = append(snap.Artifacts, artifacts[id])
	}
	switch {
	case a2aport.CodeOf(err) == a2aport.CodeWorkDetached && !answered:
		err = noAnswer(fmt.Sprintf("the agent did not answer within %s (the state shown is the one last recorded)", wait))
	case a2aport.CodeOf(err) == a2aport.CodeWorkDetached:
		err = nil
	case err == nil:
		snap.Ended, snap.State = true, a2aport.StateCompleted
	default:
		if c := a2aport.CodeOf(err); c == a2aport.CodeTaskFailed || c == a2aport.CodeTaskRejected || c == a2aport.CodeWorkCancelled {
			snap.Ended = true
		}
	}
	return printSnapshot(s, snap, err, asJSON)
}

// printSnapshot shows what status learned, and returns its exit status: 0 when the agent told
// the state (whatever it is), else as send's for the error.
func printSnapshot(s streams, snap snapshot, err error, asJSON bool) int {
	code := exitOK
	if err != nil && !snap.Ended {
		code = exitCode(err)
	}
	if err != nil {
		snap.Error = err.Error()
	}
	if asJSON {
		line, _ := json.Marshal(snap)
		fmt.Fprintln(s.stdout, string(jsonSafe(line)))
		return code
	}
	w := tabwriter.NewWriter(s.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "Work\t%s\n", snap.WorkID)
	fmt.Fprintf(w, "Agent\t%s\n", cleanLine(snap.Agent))
	fmt.Fprintf(w, "Task\t%s\n", cleanLine(snap.RemoteTaskID))
	if snap.RemoteContextID != "" {
		fmt.Fprintf(w, "Context\t%s\n", cleanLine(snap.RemoteContextID))
	}
	state := string(snap.State)
	if snap.Ended {
		state += " (ended)"
	}
	if snap.Text != "" && snap.Text != snap.Question {
		state += " · " + cleanLine(firstLine(snap.Text, 100))
	}
	fmt.Fprintf(w, "State\t%s\n", state)
	if snap.Question != "" {
		fmt.Fprintf(w, "Question\t%s\n", cleanLine(firstLine(snap.Question, 100)))
	}
	for _, a := range snap.Artifacts {
		fmt.Fprintf(w, "Artifact\t%s (%s so far)\n", cleanLine(orDefault(a.Name, a.ID)), humanSize(a.Bytes))
	}
	switch {
	case snap.Followed:
		fmt.Fprintf(w, "Followed\tby another a2aport process\n")
	case !snap.Ended && code == exitOK:
		fmt.Fprintf(w, "Followed\tby no one: a2aport resume %s\n", snap.WorkID)
	}
	_ = w.Flush()
	if err != nil {
		fmt.Fprintln(s.stderr, "a2aport status:", clean(err.Error()))
	}
	return code
}

// listWorks prints the recorded Works, the most recently updated first.
func listWorks(stdout, stderr io.Writer, asJSON bool) int {
	works, err := savedWorks()
	if err != nil {
		fmt.Fprintln(stderr, "a2aport status:", err)
		return exitError
	}
	if asJSON {
		for _, w := range works {
			line, _ := json.Marshal(map[string]any{"type": "work", "workId": w.WorkID, "ownerId": w.OwnerID, "remoteTaskId": w.RemoteTaskID,
				"remoteContextId": w.RemoteContextID, "state": w.State, "agent": w.Card, "updated": w.Updated.UTC().Format(time.RFC3339), "followed": w.Followed})
			fmt.Fprintln(stdout, string(jsonSafe(line)))
		}
		return exitOK
	}
	if len(works) == 0 {
		fmt.Fprintln(stderr, "no Work of a2aport is running (a2aport send starts one)")
		return exitOK
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "WORK\tTASK\tSTATE\tUPDATED\tFOLLOWED\tAGENT")
	for _, work := range works {
		followed := "no"
		if work.Followed {
			followed = "yes"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s ago\t%s\t%s\n", work.WorkID, cleanLine(orDefault(work.RemoteTaskID, "-")), work.State,
			time.Since(work.Updated).Truncate(time.Second), followed, cleanLine(work.Card))
	}
	_ = w.Flush()
	return exitOK
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

// noAnswer is the error of an agent that did not answer in time: a network failure's exit status.
func noAnswer(msg string) error { return &a2aport.Error{Code: a2aport.CodeNetworkError, Message: msg} }
