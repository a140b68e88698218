package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/a2aport/a2aport"
)

var statusCommand = &subcommand{
	name: "status", args: "[ID | URL TASK]", summary: "list the running Works, or show one as its agent has it now",
	about: `Without arguments, lists the Works that a2aport runs or left running (send --detach, a closed
shell), newest first, and whether a process follows each, then the last kept Works that ended. With a Work's id (or its agent's task
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

// readOnly is a WorkStore that reads its records and writes nothing: status looks at a Work and
// leaves its record as it was, for the process that follows it or a later resume.
type readOnly struct{ a2aport.WorkStore }

func (readOnly) Set(context.Context, a2aport.WorkRecord) error { return nil }

func (readOnly) Delete(context.Context, string) error { return nil }

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
	case taskNotFound(err):
		snap.State, snap.Text = a2aport.StateNotFound, ""
		err = fmt.Errorf("the agent has no task %s (task not found): it never had one of that id, or it forgot it", cleanLine(t.RemoteTaskID))
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
	ended := endedWorks()
	if asJSON {
		for _, w := range works {
			line, _ := json.Marshal(map[string]any{"type": "work", "workId": w.WorkID, "ownerId": w.OwnerID, "remoteTaskId": w.RemoteTaskID,
				"remoteContextId": w.RemoteContextID, "state": w.State, "agent": w.Card, "updated": w.Updated.UTC().Format(time.RFC3339), "followed": w.Followed})
			fmt.Fprintln(stdout, string(jsonSafe(line)))
		}
		for _, e := range ended {
			line, _ := json.Marshal(map[string]any{"type": "ended", "workId": e.WorkID, "remoteTaskId": e.RemoteTaskID, "state": e.State,
				"code": e.Error, "agent": e.Agent, "ended": e.Ended.UTC().Format(time.RFC3339)})
			fmt.Fprintln(stdout, string(jsonSafe(line)))
		}
		return exitOK
	}
	if len(works) == 0 && len(ended) == 0 {
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
	for _, e := range ended {
		state := "ended " + string(e.State)
		if e.Error != "" {
			state = "stopped (" + cleanLine(e.Error) + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s ago\t-\t%s\n", e.WorkID, cleanLine(orDefault(e.RemoteTaskID, "-")), state,
			time.Since(e.Ended).Truncate(time.Second), cleanLine(e.Agent))
	}
	_ = w.Flush()
	return exitOK
}

// taskNotFound reports whether err is the agent's "task not found" (A2A's TaskNotFoundError, in
// a2a-go's words and @a2a-js/sdk's), which the Port reports as the agent's protocol error.
func taskNotFound(err error) bool {
	return a2aport.CodeOf(err) == a2aport.CodeProtocolError && strings.Contains(strings.ToLower(err.Error()), "task not found")
}
