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
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/a2aport/a2aport/adapter"
)

// streams are the process's standard streams (tests give their own).
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// runSend runs one Work and shows it as it happens.
func runSend(ctx context.Context, args []string, s streams) int {
	fs := flag.NewFlagSet("a2aport send", flag.ContinueOnError)
	fs.SetOutput(s.stderr)
	var conn connection
	conn.register(fs)
	var files, answers multi
	fs.Var(&files, "file", "attach the file at `PATH` (repeatable)")
	fs.Var(&answers, "answer", "answer to the agent's next question, in order (repeatable); without, a terminal is asked")
	owner := fs.String("owner", "cli", "owner `id` of the Work (conversations are per owner)")
	reuse := fs.Bool("reuse-context", false, "continue the owner's conversation with this agent (kept under the user cache directory)")
	asJSON := fs.Bool("json", false, "print one JSON object per event, then the outcome, on stdout")
	timeout := fs.Duration("timeout", 0, "give up (and cancel the task) after this `duration`")
	outDir := fs.String("out", ".", "`directory` where binary artifacts are saved")
	color := colorMode("auto")
	fs.Var(&color, "color", "`when` to colour: auto (on a terminal, unless NO_COLOR is set), always, never")
	pos, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 2 || strings.TrimSpace(pos[1]) == "" {
		fmt.Fprintln(s.stderr, `usage: a2aport send URL "instruction" [flags]`)
		return exitUsage
	}
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
	opts.ReuseContext, opts.Timeout = *reuse, *timeout
	if *reuse {
		if opts.ContextStore, err = newFileContexts(card); err != nil {
			fmt.Fprintln(s.stderr, "a2aport:", err)
			return exitError
		}
	}
	work := adapter.Work{ID: "cli-" + randomID(), OwnerID: *owner, Instruction: pos[1]}
	for _, path := range files {
		part, err := attach(path)
		if err != nil {
			fmt.Fprintln(s.stderr, "a2aport:", err)
			return exitUsage
		}
		work.InputParts = append(work.InputParts, part)
	}

	stdoutTTY, width := terminal(s.stdout)
	stderrTTY, _ := terminal(s.stderr)
	r := newRenderer(s.stdout, s.stderr, stdoutTTY, stderrTTY, *asJSON, width, *outDir, color)
	// The agent's task and context ids, once it names them, on stderr (a line of --json): the
	// Work's file under the cache directory lets another shell find the task while it runs.
	if opts.WorkStore, err = newTaskNoticer(r.task); err != nil {
		return r.finish(adapter.Outcome{}, err, exitError)
	}
	// No command is silent for long: the module's first run compiles it, which takes seconds.
	var firstEvent sync.Once
	if conn.module && !conn.native {
		slow := time.AfterFunc(200*time.Millisecond, func() {
			firstEvent.Do(func() {
				r.notice("a2aport: starting the WebAssembly module (its first run compiles it, which takes seconds; later runs use the cache)…")
			})
		})
		defer slow.Stop()
	}
	port, err := conn.open(ctx, opts)
	if err != nil {
		return r.finish(adapter.Outcome{}, err, exitError)
	}
	defer func() { _ = port.Close() }()

	submitCtx, stop := context.WithCancel(ctx)
	defer stop()
	var interrupted, unanswered atomic.Bool
	// A cancel returns once the run stopped here, and Submit with it; the request that tells the
	// agent may still be on its way, so the process waits for it before it exits.
	var cancels sync.WaitGroup
	defer cancels.Wait()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer func() { signal.Stop(signals); close(signals) }()
	cancels.Add(1)
	go func() {
		defer cancels.Done()
		if _, ok := <-signals; !ok {
			return
		}
		interrupted.Store(true)
		go func() { // before anything that could wait: a second Ctrl-C always quits
			if _, ok := <-signals; ok {
				os.Exit(exitInterrupted)
			}
		}()
		r.interrupt("interrupted: cancelling the task at the agent… (again to quit at once)")
		cancelWork(port, work, stop)
	}()

	ask := newAsker(s.stdin, answers, !*asJSON && isTerminal(s.stdin), r)
	// A question still waiting for its answer when the Work ends (Ctrl-C, a cancel) stops waiting.
	askCtx, askDone := context.WithCancel(ctx)
	out, err := port.Submit(submitCtx, work, adapter.OnEvent(func(ev adapter.Event) {
		firstEvent.Do(func() {})
		r.event(ev)
		if ev.Type == adapter.EventInputRequested && ev.Input != nil {
			cancels.Add(1)
			go func() {
				defer cancels.Done()
				resp, ok := ask.answer(askCtx, *ev.Input)
				if askCtx.Err() != nil {
					return // the Work ended meanwhile
				}
				if !ok {
					unanswered.Store(true)
					cancelWork(port, work, stop)
					return
				}
				if err := port.RespondInput(ctx, work.ID, ev.Input.InputRequestID, resp, work.OwnerID); err != nil {
					r.notice("a2aport: the answer was not taken: " + err.Error())
				}
			}()
		}
	}))
	askDone()
	code := exitCode(err)
	switch {
	case interrupted.Load():
		code = exitInterrupted
	case unanswered.Load():
		code, err = exitUnanswered, fmt.Errorf("%w (%v)", errUnanswered, err)
	}
	return r.finish(out, err, code)
}

// cancelWork cancels the Work at the agent; when the agent cannot be told, it ends the Work here.
func cancelWork(port adapter.Port, work adapter.Work, stop context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if res, err := port.Cancel(ctx, work.ID, work.OwnerID); err != nil || res.State != adapter.StateCancelled {
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

func (a *asker) answer(ctx context.Context, req adapter.InputRequest) (adapter.InputResponse, bool) {
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
			return adapter.InputResponse{}, false
		}
		text = strings.TrimSpace(line)
	default:
		return adapter.InputResponse{}, false
	}
	if req.Kind == "authorization" {
		switch strings.ToLower(text) {
		case adapter.ActionAccept, adapter.ActionDecline, adapter.ActionCancel:
			return adapter.InputResponse{Action: strings.ToLower(text)}, true
		}
		return adapter.InputResponse{Action: adapter.ActionAccept, Text: text}, true
	}
	return adapter.InputResponse{Text: text}, true
}

// attach reads a file into an input part (a data: URL, which the adapter sends as bytes).
func attach(path string) (adapter.InputPart, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return adapter.InputPart{}, err
	}
	mt := mime.TypeByExtension(filepath.Ext(path))
	if mt == "" {
		mt = http.DetectContentType(data)
	}
	mt, _, _ = strings.Cut(mt, ";")
	return adapter.InputPart{Type: "file", MIME: mt, Filename: filepath.Base(path),
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
