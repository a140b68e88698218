package a2aclient

import (
	"context"
	"sync"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A stream that goes silent is either an agent thinking or a connection that died without a word
// (a NAT or proxy dropped it; TCP stays open). Waiting out StreamIdleTimeout (60 s) tells them
// apart slowly; cutting early would cut a thinking agent. The probe asks instead: after
// StreamProbeInterval of silence it reads the task (GetTask). If the task moved past what the
// stream delivered, the events are not coming: the stream is dead and is recovered now. If it did
// not, the agent is thinking, and the stream is left alone until the next silence.

// progress is what a Work's streams delivered of its task, for a probe to compare with the task
// the agent has. The run's goroutine writes it, a probe reads it.
type progress struct {
	mu    sync.Mutex
	state a2a.TaskState
	msgID string         // of the last status message
	sizes map[string]int // bytes of text and raw content per artifact id
}

func (p *progress) status(st a2a.TaskStatus) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state = st.State
	if st.Message != nil {
		p.msgID = st.Message.ID
	}
}

func (p *progress) artifact(id string, size int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sizes == nil {
		p.sizes = map[string]int{}
	}
	p.sizes[id] = size
}

// behind reports whether task shows more than the stream delivered: another state, a status
// message it did not bring, or more content in an artifact.
func (p *progress) behind(task *a2a.Task) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state != "" && task.Status.State != p.state {
		return true
	}
	if m := task.Status.Message; m != nil && m.ID != "" && m.ID != p.msgID {
		return true
	}
	for _, art := range task.Artifacts {
		if art != nil && artifactSize(art) > p.sizes[string(art.ID)] {
			return true
		}
	}
	return false
}

func artifactSize(art *a2a.Artifact) int {
	n := 0
	for _, part := range convertParts(art.Parts) {
		n += len(part.Text) + len(part.Raw)
	}
	return n
}

// streamProbe probes one stream's task after each silence of its interval (see above), and ends
// the stream through its idle watch when the task moved on without it.
type streamProbe struct {
	r     *run
	conn  *connection
	watch *idleWatch
	ctx   context.Context // the stream's: the probe ends with it
	every time.Duration

	mu      sync.Mutex
	timer   a2aport.Timer
	stopped bool
}

// probeStream starts the probe of a stream watched by w, unless probing is off.
func (r *run) probeStream(ctx context.Context, conn *connection, w *idleWatch) *streamProbe {
	p := &streamProbe{r: r, conn: conn, watch: w, ctx: ctx, every: r.a.s.StreamProbeInterval}
	if p.every > 0 {
		p.after(p.every, p.fire)
	}
	return p
}

func (p *streamProbe) after(d time.Duration, f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.timer = p.r.a.s.Clock.AfterFunc(d, f)
	}
}

func (p *streamProbe) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.timer != nil {
		p.timer.Stop()
	}
}

// fire runs after a silence may have lasted the interval: it probes when it did.
func (p *streamProbe) fire() {
	seen := p.watch.lastSeen()
	if quiet := p.r.a.s.Clock.Now().Sub(seen); quiet < p.every {
		p.after(p.every-quiet, p.fire)
		return
	}
	if !p.taskMoved() {
		p.after(p.every, p.fire)
		return
	}
	// An event may be on its way right now: give the stream a moment before calling it dead.
	p.after(probeConfirm, func() {
		if p.watch.lastSeen().Equal(seen) {
			p.watch.expire(true)
			return
		}
		p.after(p.every, p.fire)
	})
}

// taskMoved reads the task and compares it with what the stream delivered. A probe that fails
// says nothing about the stream (the agent may be busy): the idle timeout still stands.
func (p *streamProbe) taskMoved() bool {
	task := p.r.remoteTaskID()
	if task == "" {
		return false
	}
	ctx, cancel := withTimeout(p.ctx, p.r.a.s.Clock, p.r.a.s.RequestTimeout, errRequestTimeout)
	defer cancel()
	none := 0
	snap, err := p.conn.client.GetTask(ctx, &a2a.GetTaskRequest{ID: task, HistoryLength: &none})
	if err != nil || snap == nil || p.ctx.Err() != nil {
		return false
	}
	return p.r.progress.behind(snap)
}
