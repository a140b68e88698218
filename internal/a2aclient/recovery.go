package a2aclient

import (
	"context"
	"iter"
	"math/rand/v2"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// streamEnd is how one followed stream ended: what follow returned, whether the idle watch ended
// it (idle; dead when a probe found the task gone on without it), and its failure recorder.
type streamEnd struct {
	events int
	next   turnNext
	out    a2aport.Outcome
	err    error
	idle   bool
	dead   bool
	rec    *httpFailure
}

// followStream opens a stream under a failure recorder, an idle watch (first: the limit before
// its first event) and a probe of its task, and follows it to its end.
func (r *run) followStream(conn *connection, first time.Duration, open func(context.Context) iter.Seq2[a2a.Event, error]) streamEnd {
	ctx, rec := withFailureRecorder(r.ctx)
	ctx, idle := watchIdle(ctx, r.a.s.Clock, first, r.a.s.StreamIdleTimeout)
	probe := r.probeStream(ctx, conn, idle)
	events, next, out, err := r.follow(open(ctx), idle)
	probe.stop()
	fired := idle.stop()
	return streamEnd{events: events, next: next, out: out, err: err, idle: fired, dead: idle.dead, rec: rec}
}

// follow applies a stream's events until the turn ends or the stream does, telling idle of each.
// err is the stream's own failure, untyped; events counts what arrived before it.
func (r *run) follow(stream iter.Seq2[a2a.Event, error], idle *idleWatch) (events int, next turnNext, out a2aport.Outcome, err error) {
	for ev, serr := range stream {
		if serr != nil {
			return events, turnContinue, a2aport.Outcome{}, serr
		}
		idle.seen()
		events++
		r.recovered()
		if next, out, err := r.apply(ev); next != turnContinue {
			return events, next, out, err
		}
	}
	return events, turnContinue, a2aport.Outcome{}, nil
}

// recoverStream follows the task again after its stream broke or ended before the task did:
// SubscribeToTask first (the agent answers with a Task snapshot, which apply reconciles with what
// was delivered, so nothing is emitted twice and nothing in between is lost), then GetTask
// polling when resubscription is refused or keeps failing. The message is never sent again.
func (r *run) recoverStream(conn *connection) (bool, a2aport.Outcome, error) {
	task := r.remoteTaskID()
	if task == "" {
		return false, a2aport.Outcome{}, newError(a2aport.CodeInvalidResponse, "the agent's answer names no task to follow")
	}
	var last *httpFailure // the previous attempt's, for its Retry-After
	for attempt := 0; attempt < r.a.s.RecoveryAttempts; attempt++ {
		r.reconnecting()
		if err := r.backoff(attempt, last); err != nil {
			return false, a2aport.Outcome{}, err
		}
		s := r.followStream(conn, r.a.s.StreamIdleTimeout, func(ctx context.Context) iter.Seq2[a2a.Event, error] {
			return conn.client.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task})
		})
		last = s.rec
		switch {
		case s.next != turnContinue:
			return s.next == turnDone, s.out, s.err
		case r.ctx.Err() != nil:
			return false, a2aport.Outcome{}, r.a.ctxError(r.ctx)
		case s.idle || (s.err != nil && s.events > 1):
			// A healthy stream that went quiet, or one that delivered more than the snapshot
			// before it broke: recovery worked, its budget starts again (after the first backoff:
			// a relay that keeps cutting streams must not be answered with a hot loop).
			attempt = 0
			continue
		case s.err == nil:
			continue // ended before the task again
		}
		if e := r.a.requestError(r.ctx, a2aport.CodeProtocolError, "resubscribing to the task failed", s.err, s.rec); !transient(e) {
			break // refused (not supported, or the task no longer runs): its state is still readable
		}
	}
	return r.poll(conn)
}

// transient reports whether e is a failure of the connection, not an answer of the agent's: the
// same request may succeed if made again. (A request that timed out is too; the callers check
// first that the Work itself has not ended.)
func transient(e *a2aport.Error) bool {
	return e.Code == a2aport.CodeNetworkError || (e.Code == a2aport.CodeHTTPError && e.Retryable) || (e.Code == a2aport.CodeTimeout && e.Retryable)
}

// backoff waits before recovery attempt n: nothing before the first, then RecoveryBackoff
// doubling up to maxRecoveryBackoff, each wait between half and all of that (jitter spreads the
// clients of one agent that broke them all at once), and never less than the agent asked for
// with Retry-After (up to maxRetryAfter).
func (r *run) backoff(n int, rec *httpFailure) error {
	d := recoveryDelay(r.a.s.RecoveryBackoff, n)
	if rec != nil {
		d = max(d, min(rec.wait(), maxRetryAfter))
	}
	if d == 0 {
		return nil
	}
	if err := sleep(r.ctx, r.a.s.Clock, d); err != nil {
		return r.a.ctxError(r.ctx)
	}
	return nil
}

// recoveryDelay is the wait before recovery attempt n (n >= 1; 0 waits nothing): base doubling up
// to maxRecoveryBackoff, and of that between half and all.
func recoveryDelay(base time.Duration, n int) time.Duration {
	if n <= 0 {
		return 0
	}
	d := base
	for i := 1; i < n && d < maxRecoveryBackoff; i++ {
		d *= 2
	}
	d = min(d, maxRecoveryBackoff)
	return d/2 + rand.N(d/2+1)
}

// reconnecting tells listeners, once per break, that the Work's connection is being recovered:
// the last activity again, marked.
func (r *run) reconnecting() {
	if r.recovering {
		return
	}
	r.recovering = true
	ev := r.lastActivity
	if ev.Type == "" {
		ev = a2aport.Event{Type: a2aport.EventActivity, State: r.currentState()}
	}
	ev.Reconnecting = true
	r.emit(ev)
}

// recovered tells listeners that the agent answered again after a break (the first event of a
// resubscription, a poll that succeeded): the last activity again, marked. What the agent says
// next is new; what it says that the Work already showed (a snapshot's status) is not repeated.
func (r *run) recovered() {
	if !r.recovering {
		return
	}
	r.recovering = false
	ev := r.lastActivity
	if ev.Type == "" {
		ev = a2aport.Event{Type: a2aport.EventActivity, State: r.currentState()}
	}
	ev.Reconnected = true
	r.emit(ev)
}
