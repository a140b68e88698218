package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/a2aport/a2aport"
)

// streams are the process's standard streams (tests give their own).
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

var sendCommand = &subcommand{
	name: "send", args: `URL "instruction" | -a URL [TEXT] [--text T|--file F|--data D]…`, summary: "send a message to an agent and show what happens",
	about: `Sends the message to the agent (URL: its host, its base URL or its card's) and shows what happens.

a2aport's own view, the default: on a terminal the agent's text as it arrives, its status on a live
line, markdown rendered once an artifact is complete, files saved to --out; a question of the
agent's asked at the terminal (or answered by --answer); Ctrl-C cancels the task at the agent. In a
pipe stdout is the agent's answer alone; --json prints a2aport's events, one JSON object a line.
A question nobody can answer leaves the task waiting and prints the command that answers it.

The A2A CLI specification's send, as soon as one of its flags is given (-o, --stream, --async,
--task-id, --context-id, --text, --data, --media-type, --metadata, --skill, --backend, --bearer,
--api-key, --svc-param, --transport, --a2a-version, --debug, --insecure, --poll-interval, or
A2ACLI_OUTPUT): -o text prints Label: value lines, -o json the protocol's SendMessageResponse
(with --stream one StreamResponse a line); it waits until the task ends or waits for input,
or returns its ids at once with --async. Either way nothing is stored unless --keep or --detach
asks: the task and context ids printed are what status, resume, task get and --task-id take.`,
	examples: `$ a2aport send http://127.0.0.1:8080 "Compare tea and coffee"
$ a2aport send http://127.0.0.1:8080 "Compare these" --answer "tea and coffee" > report.md
$ a2aport send -a https://agent.example "Summarise" --file notes.pdf -o json | jq .task.status.state
$ a2aport send -a https://agent.example --task-id 01a236ef-… "tea and coffee"   # answer a waiting task
$ a2aport send -a https://gateway.example --skill weather/forecast "Rain in Paris?"
$ a2aport send https://agent.example --detach "A long report"     # then: a2aport resume ID`,
	groups: []flagGroup{
		{"Message", []string{"text", "file", "data", "media-type", "metadata", "skill", "backend", "task-id", "context-id"}},
		{"Waiting", []string{"timeout", "async", "stream", "poll-interval"}},
		{"a2aport's view", []string{"answer", "owner", "reuse-context", "detach", "keep", "json", "out", "color"}},
		agentFlagGroup, connectionFlags, runtimeFlags,
	},
	operands: operandURL,
	flags:    func(fs *flag.FlagSet) { new(sendFlags).register(fs) },
	run:      runSend, // a2aport's view catches Ctrl-C itself (follow.go); the specification's send is interruptible
}

// sendFlags are send's flags: a2aport's own and the specification's.
type sendFlags struct {
	conn    connection
	view    view
	spec    specSend
	parts   partList
	owner   string
	reuse   bool
	timeout time.Duration
}

func (f *sendFlags) register(fs *flag.FlagSet) {
	f.conn.register(fs)
	f.view.register(fs)
	f.spec.agent.register(fs)
	fs.Var(partFlag{&f.parts, "file"}, "file", "attach the file at `PATH` (or a URL the agent fetches) as a part (repeatable, in order)")
	fs.Var(partFlag{&f.parts, "text"}, "text", "add a text part (repeatable, in order)")
	fs.Var(partFlag{&f.parts, "data"}, "data", "add a data part from a JSON `file`, - for stdin (repeatable, in order)")
	fs.Var(mediaTypeFlag{&f.parts}, "media-type", "the media `type` of the part flag just before (default: inferred)")
	fs.StringVar(&f.spec.metadata, "metadata", "", "message metadata, a JSON `object` ('{\"k\":\"v\"}')")
	fs.StringVar(&f.spec.skill, "skill", "", "ask for the agent's skill with this `id` (message metadata \"skill\", which a2aport's gateway routes by)")
	fs.StringVar(&f.spec.backend, "backend", "", "ask a2aport's gateway for this `backend` (message metadata \"backend\")")
	fs.StringVar(&f.spec.taskID, "task-id", "", "continue this `task` (answer it when it waits for input)")
	fs.StringVar(&f.spec.contextID, "context-id", "", "a new task in this `context`")
	fs.BoolVar(&f.spec.async, "async", false, "do not wait: print the task's ids at once")
	fs.BoolVar(&f.spec.stream, "stream", false, "print each event as it comes (-o json: one StreamResponse a line)")
	fs.DurationVar(&f.spec.every, "poll-interval", 2*time.Second, "when the agent does not stream: how often to ask for the task (`duration`)")
	fs.StringVar(&f.owner, "owner", "cli", "owner `id` of the Work (conversations are per owner)")
	fs.BoolVar(&f.reuse, "reuse-context", false, "continue the owner's conversation with this agent (kept under the user cache directory)")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after this `duration` (a2aport's view: and cancel the task; -o: exit 5, the task goes on)")
	fs.BoolVar(&f.view.detach, "detach", false, "leave once the agent named its task, which goes on (a2aport status|resume|cancel ID)")
	fs.BoolVar(&f.view.record, "keep", false, "record the Work under the user cache directory while it runs, for status, resume and cancel from another shell")
}

// specOnly are the flags that make send the specification's; ownOnly are a2aport's view's. The
// agent named as the specification names it (-a, --agent-card, A2ACLI_AGENT_CARD) makes it the
// specification's too, with its defaults (text output); named first on the command line, as
// a2aport always named it, it is a2aport's view (the answer alone in a pipe).
var (
	specOnly = []string{"agent-card", "a", "output", "o", "stream", "async", "task-id", "context-id", "text", "data", "media-type", "metadata", "skill", "backend",
		"bearer", "api-key", "svc-param", "transport", "a2a-version", "debug", "verbose", "insecure", "poll-interval", "config"}
	ownOnly = []string{"json", "answer", "owner", "reuse-context", "detach", "keep", "module", "native", "wasm-dir", "token", "header", "credential",
		"extension", "color", "out"}
)

// runSend sends the message: as the specification has it when one of its flags is given, else
// as a Work of a2aport's, shown as it happens.
func runSend(ctx context.Context, args []string, s streams) int {
	var f sendFlags
	given := map[string]bool{}
	pos, err := parseAgentArgs("send", args, s, &f.spec.agent, f.register)
	if err != nil {
		return usageCode(err)
	}
	for _, st := range f.spec.agent.settings {
		if st.source != "default" {
			given[st.name] = true
		}
	}
	for _, name := range f.spec.agent.givenFlags {
		given[name] = true
	}
	spec, own := pick(given, specOnly), pick(given, ownOnly)
	if len(spec) > 0 && len(own) > 0 {
		usageError(s.stderr, "send", fmt.Sprintf("--%s is the A2A CLI specification's send, --%s a2aport's own: not together", spec[0], own[0]))
		return exitUsage
	}
	ref, text := f.spec.agent.agentCard, ""
	switch {
	case ref == "" && len(pos) >= 1:
		ref, pos = pos[0], pos[1:]
	case ref == "":
		usageError(s.stderr, "send", "want the agent's URL (or -a URL)")
		return exitUsage
	}
	if len(pos) > 1 {
		usageError(s.stderr, "send", "one instruction: quote it, or give more parts with --text")
		return exitUsage
	}
	if len(pos) == 1 {
		text = pos[0]
	}
	if len(spec) > 0 {
		return interruptible(func(ctx context.Context, _ []string, s streams) int {
			return runSpecSend(ctx, s, &f.spec, ref, text, &f.parts, f.timeout)
		})(ctx, nil, s)
	}
	if strings.TrimSpace(text) == "" || !f.parts.only("file") {
		usageError(s.stderr, "send", "want the agent's URL and an instruction")
		return exitUsage
	}
	return runOwnSend(ctx, s, &f, ref, text)
}

// pick is those of names that were given.
func pick(given map[string]bool, names []string) []string {
	var out []string
	for _, n := range names {
		if given[n] {
			out = append(out, n)
		}
	}
	return out
}

// runOwnSend runs one Work of a2aport's and shows it as it happens.
func runOwnSend(ctx context.Context, s streams, f *sendFlags, ref, instruction string) int {
	conn, v := f.conn, f.view
	card, err := cardURL(ref)
	if err != nil {
		fmt.Fprintln(s.stderr, "a2aport:", err)
		return exitUsage
	}
	opts, err := conn.options(card)
	if err != nil {
		fmt.Fprintln(s.stderr, "a2aport:", err)
		return exitUsage
	}
	opts.ReuseContext, opts.Timeout = f.reuse, f.timeout
	if f.reuse {
		if opts.ContextStore, err = newFileContexts(card); err != nil {
			fmt.Fprintln(s.stderr, "a2aport:", err)
			return exitError
		}
	}
	work := a2aport.Work{ID: "cli-" + randomID(), OwnerID: f.owner, Instruction: instruction}
	for _, path := range f.parts.files() {
		part, err := attach(path)
		if err != nil {
			fmt.Fprintln(s.stderr, "a2aport:", err)
			return exitUsage
		}
		work.InputParts = append(work.InputParts, part)
	}

	return follow(ctx, s, conn, opts, v, work, func(ctx context.Context, port a2aport.Port, onEvent a2aport.SubmitOption) (a2aport.Outcome, error) {
		return port.Submit(ctx, work, onEvent)
	})
}

// cancelWork cancels the Work at the agent; when the agent cannot be told, it ends the Work here.
func cancelWork(port a2aport.Port, work a2aport.Work, stop context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if res, err := port.Cancel(ctx, work.ID, work.OwnerID); err != nil || res.State != a2aport.StateCancelled {
		stop()
	}
}

// asker answers the agent's questions: from --answer in order, else from a terminal.
type asker struct {
	mu      sync.Mutex
	answers []string
	stdin   io.Reader
	lines   chan string // the terminal's lines, read by one goroutine started at the first prompt
	prompt  bool
	r       *renderer
}

func newAsker(stdin io.Reader, answers []string, prompt bool, r *renderer) *asker {
	return &asker{answers: answers, stdin: stdin, prompt: prompt, r: r}
}

// readLine is the terminal's next line, "" and false at its end or when ctx ends first. The read
// itself cannot be interrupted, so it runs apart and the answer waits for either.
func (a *asker) readLine(ctx context.Context) (string, bool) {
	if a.lines == nil {
		a.lines = make(chan string)
		go func() {
			in := bufio.NewReader(a.stdin)
			for {
				line, err := in.ReadString('\n')
				if line != "" {
					a.lines <- line
				}
				if err != nil {
					close(a.lines)
					return
				}
			}
		}()
	}
	select {
	case line, ok := <-a.lines:
		return line, ok
	case <-ctx.Done():
		return "", false
	}
}

func (a *asker) answer(ctx context.Context, req a2aport.InputRequest) (a2aport.InputResponse, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var text string
	switch {
	case len(a.answers) > 0:
		text, a.answers = a.answers[0], a.answers[1:]
		a.r.notice(fmt.Sprintf("? %s → %s (--answer)", req.Prompt, text)) // notice makes it inert
	case a.prompt:
		a.r.pause(true)
		defer a.r.pause(false)
		hint := ""
		if req.Kind == "authorization" {
			hint = " [accept/decline/cancel]"
		}
		fmt.Fprintf(a.r.stderr, "%s %s%s\n> ", a.r.errSt.bold.Render("?"), clean(req.Prompt), hint)
		line, ok := a.readLine(ctx)
		if !ok {
			return a2aport.InputResponse{}, false
		}
		text = strings.TrimSpace(line)
	default:
		return a2aport.InputResponse{}, false
	}
	if req.Kind == "authorization" {
		switch strings.ToLower(text) {
		case a2aport.ActionAccept, a2aport.ActionDecline, a2aport.ActionCancel:
			return a2aport.InputResponse{Action: strings.ToLower(text)}, true
		}
		return a2aport.InputResponse{Action: a2aport.ActionAccept, Text: text}, true
	}
	return a2aport.InputResponse{Text: text}, true
}

// attach reads a file into an input part (a data: URL, which the adapter sends as bytes).
func attach(path string) (a2aport.InputPart, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return a2aport.InputPart{}, err
	}
	mt := inferMediaType(path, data)
	return a2aport.InputPart{Type: "file", MIME: mt, Filename: filepath.Base(path),
		URL: "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data)}, nil
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return fmt.Sprintf("%x", b)
}

// terminal reports whether w is a terminal, and its width.
func terminal(w io.Writer) (bool, int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 80
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		width = 80
	}
	return true, min(width, 120)
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
