package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/a2aport/a2aport"
)

// view is how a followed Work is shown (the flags send and resume share).
type view struct {
	asJSON  bool
	outDir  string
	color   colorMode
	answers multi
	detach  bool // leave once the agent named its task
	record  bool // --keep: record the Work for status, resume and cancel from another shell
	resumed bool // the Work was started by another process
}

// keep says the Work is recorded under the user cache directory: asked for (--keep, --detach,
// which leaves it to come back to), or a Work resume found there.
func (v view) keep() bool { return v.record || v.detach || v.resumed }

// register adds the flags of the view to fs.
func (v *view) register(fs *flag.FlagSet) {
	v.color = "auto"
	fs.BoolVar(&v.asJSON, "json", false, "print one JSON object per event, then the outcome, on stdout")
	fs.StringVar(&v.outDir, "out", ".", "`directory` where binary artifacts are saved")
	fs.Var(&v.color, "color", "`when` to colour: auto (on a terminal, unless NO_COLOR is set), always, never")
	fs.Var(&v.answers, "answer", "`TEXT` that answers the agent's next question, in order (repeatable); without, a terminal is asked")
}

// follow runs a Work with begin (Submit, or Resume) on a port opened with opts and shows it as it
// happens: its events, its questions asked (--answer, else the terminal), Ctrl-C cancelling it at
// the agent (a second one quits at once), and returns the exit status of how it ended.
func follow(ctx context.Context, s streams, conn connection, opts a2aport.Options, v view, work a2aport.Work,
	begin func(context.Context, a2aport.Port, a2aport.SubmitOption) (a2aport.Outcome, error)) int {
	stdoutTTY, width := terminal(s.stdout)
	stderrTTY, _ := terminal(s.stderr)
	r := newRenderer(s.stdout, s.stderr, stdoutTTY, stderrTTY, v.asJSON, width, v.outDir, v.color)
	r.resuming = v.resumed
	var detached atomic.Bool
	var firstEvent sync.Once
	port, release, err := openFollowed(ctx, conn, opts, v, work, r, &detached, &firstEvent)
	if err != nil {
		return r.finish(a2aport.Outcome{}, err, exitError)
	}
	defer release()

	submitCtx, stop := context.WithCancel(ctx)
	defer stop()
	// A cancel returns once the run stopped here, and Submit with it; the request that tells the
	// agent may still be on its way, so the process waits for it (and for answers being sent)
	// before it exits.
	var cancels sync.WaitGroup
	interrupted, stopInterrupts := onInterrupt(&cancels, r, func() { cancelWork(port, work, stop) })
	defer stopInterrupts()

	var unanswered atomic.Bool
	ask := newAsker(s.stdin, v.answers, !v.asJSON && isTerminal(s.stdin), r)
	// A question still waiting for its answer when the Work ends (Ctrl-C, a cancel) stops waiting.
	askCtx, askDone := context.WithCancel(ctx)
	out, err := begin(submitCtx, port, a2aport.OnEvent(func(ev a2aport.Event) {
		firstEvent.Do(func() {})
		r.event(ev)
		if ev.Type == a2aport.EventInputRequested && ev.Input != nil && !v.detach {
			cancels.Add(1)
			go func() {
				defer cancels.Done()
				resp, ok := ask.answer(askCtx, *ev.Input)
				if askCtx.Err() != nil {
					return // the Work ended meanwhile
				}
				if !ok { // the task waits at the agent for an answer another command gives (SPEC.md §10.2)
					unanswered.Store(true)
					_ = port.Detach() // only ever ErrClosed: the Work ended meanwhile
					return
				}
				if err := port.RespondInput(ctx, work.ID, work.OwnerID, ev.Input.InputRequestID, resp); err != nil {
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
	case unanswered.Load() && a2aport.CodeOf(err) == a2aport.CodeWorkDetached:
		return r.waiting(work, opts.AgentCardURL)
	case detached.Load() && a2aport.CodeOf(err) == a2aport.CodeWorkDetached:
		return r.detached(work)
	}
	if v.keep() && a2aport.CodeOf(err) != a2aport.CodeWorkDetached { // it was listed: status says how it ended
		r.mu.Lock()
		task := r.rec.RemoteTaskID
		r.mu.Unlock()
		state, code := endOf(err)
		noteEnded(endedWork{WorkID: work.ID, RemoteTaskID: task, Agent: opts.AgentCardURL, State: state, Error: code, Ended: time.Now()})
	}
	return r.finish(out, err, code)
}

// openFollowed opens the Port that follows work, and returns what closes it. Its WorkStore shows
// the agent's task and context ids, once the agent names them, on stderr (a line of --json), and
// keeps the Work's file under the cache directory so that another shell finds the task while it
// runs; with --detach, the Work is detached as soon as it has a task. A resumed Work that another
// process follows is refused. No command is silent for long: the module's first run compiles it,
// which takes seconds, and a notice says so unless an event came first.
func openFollowed(ctx context.Context, conn connection, opts a2aport.Options, v view, work a2aport.Work, r *renderer,
	detached *atomic.Bool, firstEvent *sync.Once) (a2aport.Port, func(), error) {
	var port a2aport.Port
	portReady := make(chan struct{})
	onTask := func(rec a2aport.WorkRecord) {
		r.task(rec)
		if v.detach {
			detached.Store(true)
			go func() { <-portReady; _ = port.Detach() }() // not from the store's call: Detach waits for the Work
		}
	}
	store := newMemoryNoticer(onTask)
	if v.keep() {
		var err error
		if store, err = newTaskNoticer(opts.AgentCardURL, onTask); err != nil {
			return nil, nil, err
		}
	}
	if v.resumed && !store.follow(work.ID) {
		store.release()
		return nil, nil, fmt.Errorf("%w (status and cancel act on it; resume it once that process ended)", errFollowed)
	}
	opts.WorkStore = store
	stopNotice := func() bool { return false }
	if conn.module && !conn.native {
		slow := time.AfterFunc(200*time.Millisecond, func() {
			firstEvent.Do(func() {
				r.notice("a2aport: starting the WebAssembly module (its first run compiles it, which takes seconds; later runs use the cache)…")
			})
		})
		stopNotice = slow.Stop
	}
	var err error
	if port, err = conn.open(ctx, opts); err != nil {
		stopNotice()
		store.release()
		return nil, nil, err
	}
	close(portReady)
	return port, func() {
		_ = port.Close()
		stopNotice()
		store.release()
	}, nil
}

// onInterrupt catches Ctrl-C (and SIGTERM) until the returned stop: the first calls cancel, a
// second quits at once, also while the process waits for the agent to take the first one's
// cancel. stop waits for cancels (the cancel and answers under way) before it lets signals go.
func onInterrupt(cancels *sync.WaitGroup, r *renderer, cancel func()) (interrupted *atomic.Bool, stop func()) {
	interrupted = new(atomic.Bool)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	ended := make(chan struct{})
	cancels.Add(1)
	go func() {
		defer cancels.Done()
		select {
		case <-ended:
			return
		case <-signals:
		}
		interrupted.Store(true)
		go func() { // before anything that could wait: a second Ctrl-C always quits
			<-signals
			os.Exit(exitInterrupted)
		}()
		r.interrupt("interrupted: cancelling the task at the agent… (again to quit at once)")
		cancel()
	}()
	return interrupted, func() {
		close(ended)
		cancels.Wait()
		signal.Stop(signals)
	}
}
