package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/http"
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
	name: "send", args: `URL "instruction"`, summary: "run a piece of work at an agent and stream what happens",
	about: `Sends the instruction to the agent (URL: its base URL or its card's) and shows the Work as it
happens: the agent's text as it arrives, its status on a live line, markdown rendered once an
artifact is complete, files saved to --out. A question of the agent's is asked at the terminal (or
answered by --answer); Ctrl-C cancels the task at the agent. The agent's task and context ids are
shown once it names them: status, resume and cancel act on the Work from another shell. In a pipe
or a file stdout is the agent's answer alone; --json prints one JSON object per event.`,
	examples: `$ a2aport send http://127.0.0.1:8080 "Compare tea and coffee"
$ a2aport send http://127.0.0.1:8080 "Compare these" --answer "tea and coffee" > report.md
$ A2APORT_TOKEN=$(cat token) a2aport send https://agent.example --json "Summarise" | jq .type
$ a2aport send https://agent.example --file notes.pdf "Summarise this file"
$ a2aport send https://agent.example --detach "A long report"     # then: a2aport resume ID`,
	groups: []flagGroup{
		{"Work", []string{"file", "answer", "owner", "reuse-context", "timeout", "detach"}},
		outputFlags, connectionFlags, runtimeFlags,
	},
	operands: operandURL,
	flags:    func(fs *flag.FlagSet) { new(sendFlags).register(fs) },
	run:      runSend,
}

// sendFlags are send's flags.
type sendFlags struct {
	conn    connection
	view    view
	files   multi
	owner   string
	reuse   bool
	timeout time.Duration
}

func (f *sendFlags) register(fs *flag.FlagSet) {
	f.conn.register(fs)
	f.view.register(fs)
	fs.Var(&f.files, "file", "attach the file at `PATH` (repeatable)")
	fs.StringVar(&f.owner, "owner", "cli", "owner `id` of the Work (conversations are per owner)")
	fs.BoolVar(&f.reuse, "reuse-context", false, "continue the owner's conversation with this agent (kept under the user cache directory)")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up (and cancel the task) after this `duration`")
	fs.BoolVar(&f.view.detach, "detach", false, "leave once the agent named its task, which goes on (a2aport status|resume|cancel ID)")
}

// runSend runs one Work and shows it as it happens.
func runSend(ctx context.Context, args []string, s streams) int {
	var f sendFlags
	pos, err := parseArgs("send", args, s, f.register)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) != 2 || strings.TrimSpace(pos[1]) == "" {
		usageError(s.stderr, "send", "want the agent's URL and an instruction")
		return exitUsage
	}
	conn, v := f.conn, f.view
	card, err := cardURL(pos[0])
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
	work := a2aport.Work{ID: "cli-" + randomID(), OwnerID: f.owner, Instruction: pos[1]}
	for _, path := range f.files {
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
	mt := mime.TypeByExtension(filepath.Ext(path))
	if mt == "" {
		mt = http.DetectContentType(data)
	}
	mt, _, _ = strings.Cut(mt, ";")
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
