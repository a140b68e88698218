package a2aclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/park"
)

// Push notifications, the client side (Options.PushWebhookURL). A Work whose agent offers them
// registers the application's webhook with its message and a token of its own, then waits for a
// push instead of holding a stream open. A push is only a wake-up: the Work reads the task, as a
// poll does, and applies what it reads. So a push that comes twice, late, out of order or never
// changes nothing a poll would not: the task the agent returns is the truth, and the events and
// the one outcome are those of polling. A push that never comes is made up for by a read every
// PushPollInterval.

// pushWait is what a Work that waits for pushes holds: its token, and the channel a push closes.
type pushWait struct {
	token string // sent with the configuration; a push must carry it back

	mu      sync.Mutex
	arrived chan struct{} // closed by the next push
}

func newPushWait() *pushWait {
	return &pushWait{token: rand.Text(), arrived: make(chan struct{})}
}

// wake records a push: the Work's current or next wait returns at once.
func (p *pushWait) wake() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.arrived:
	default:
		close(p.arrived)
	}
}

// next is the channel the next push closes (or closed already).
func (p *pushWait) next() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.arrived
}

// rearm makes a push that arrives from now on wake the next wait. Called as a wait ends and
// before the task is read: a push that comes while it is read is then not lost, and one that
// came before is answered by that read.
func (p *pushWait) rearm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.arrived:
		p.arrived = make(chan struct{})
	default:
	}
}

// usesPush says whether the Works on conn wait for pushes: the application serves a webhook and
// the agent's card offers them.
func (a *Adapter) usesPush(conn *connection) bool {
	return a.s.PushWebhookURL != "" && conn.card.Capabilities.PushNotifications
}

// pushConfig is the configuration the run's first message registers, or nil when it waits for
// none (or registered it already: a configuration outlives the turn that sent it).
func (r *run) pushConfig(conn *connection) *a2a.PushConfig {
	if !r.a.usesPush(conn) {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.push != nil || r.pushRefused {
		return nil
	}
	r.push = newPushWait()
	return &a2a.PushConfig{URL: r.a.s.PushWebhookURL, Token: r.push.token}
}

// refusePush turns pushes off for the run: the agent refused its configuration.
func (r *run) refusePush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.push, r.pushRefused = nil, true
}

// awaitPoll waits for the next read of the task: PollInterval, or for a Work that waits for
// pushes the next push, at most PushPollInterval.
func (r *run) awaitPoll() error {
	r.mu.Lock()
	push := r.push
	r.mu.Unlock()
	if push == nil {
		return sleep(r.ctx, r.a.s.Clock, r.a.s.PollInterval)
	}
	lastRead := r.a.s.Clock.Now()
	arrived := push.next()
	wait, stop := withTimeout(r.ctx, r.a.s.Clock, r.a.s.PushPollInterval, errNoPush)
	err := park.Wait(wait, arrived)
	stop()
	if r.ctx.Err() != nil {
		return context.Cause(r.ctx)
	}
	if err != nil && !errors.Is(err, errNoPush) {
		return err
	}
	if gap := pushReadGap - r.a.s.Clock.Now().Sub(lastRead); gap > 0 {
		// An agent pushes every event, a chunk of an artifact too: the pushes of a burst are
		// answered by one read, so that reads grow with the task's time, not with its events.
		if err := sleep(r.ctx, r.a.s.Clock, gap); err != nil {
			return err
		}
	}
	push.rearm()
	return nil
}

// pushReadGap is the least time between two reads of a task that pushes wake: at most 20 reads a
// second, for at most 50 ms added to what the read finds.
const pushReadGap = 50 * time.Millisecond

var errNoPush = errors.New("no push within PushPollInterval")

// ReceivePush implements a2aport.PushReceiver. The token finds the Work, compared in constant
// time with each active Work's; the body only has to name that Work's task (once the Work knows
// it), so that an agent that confuses its tasks is refused rather than believed.
func (a *Adapter) ReceivePush(_ context.Context, header http.Header, body []byte) error {
	token := header.Get("X-A2A-Notification-Token")
	if token == "" {
		token = header.Get("A2A-Notification-Token") // a2a-go's sender's name for it
	}
	if token == "" {
		return pushRefused(http.StatusUnauthorized, "the push carries no notification token")
	}
	if len(body) > a2aport.MaxPushBytes {
		return pushRefused(http.StatusRequestEntityTooLarge, "the push is larger than %d bytes", a2aport.MaxPushBytes)
	}
	r := a.runOfToken(token)
	if r == nil {
		return pushRefused(http.StatusUnauthorized, "no active Work has this notification token")
	}
	task, err := pushedTask(body)
	if err != nil {
		return pushRefused(http.StatusBadRequest, "%v", err)
	}
	if known := r.remoteTaskID(); known != "" && task != known {
		return pushRefused(http.StatusBadRequest, "the push names a task that is not its Work's")
	}
	r.mu.Lock()
	push := r.push
	r.mu.Unlock()
	if push != nil { // nil: the agent refused the configuration meanwhile, and the Work polls
		push.wake()
	}
	return nil
}

// runOfToken is the active run whose push token is token, or nil.
func (a *Adapter) runOfToken(token string) *run {
	a.mu.Lock()
	runs := make([]*run, 0, len(a.runs))
	for _, r := range a.runs {
		runs = append(runs, r)
	}
	a.mu.Unlock()
	var found *run
	for _, r := range runs {
		r.mu.Lock()
		push := r.push
		r.mu.Unlock()
		if push != nil && subtle.ConstantTimeCompare([]byte(push.token), []byte(token)) == 1 {
			found = r // no early return: the time taken does not depend on which Work matched
		}
	}
	return found
}

// pushedTask is the task a push's body names: A2A 1.0's StreamResponse (a task, a status or
// artifact update, or a message of a task), or 0.3's whole task.
func pushedTask(body []byte) (a2a.TaskID, error) {
	var b struct {
		ID             a2a.TaskID                   `json:"id"`     // 0.3: the task itself
		TaskID         a2a.TaskID                   `json:"taskId"` // 0.3: an update of it
		Task           *struct{ ID a2a.TaskID }     `json:"task"`
		StatusUpdate   *struct{ TaskID a2a.TaskID } `json:"statusUpdate"`
		ArtifactUpdate *struct{ TaskID a2a.TaskID } `json:"artifactUpdate"`
		Message        *struct{ TaskID a2a.TaskID } `json:"message"`
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&b); err != nil {
		return "", errors.New("the push's body is not JSON")
	}
	switch {
	case b.Task != nil && b.Task.ID != "":
		return b.Task.ID, nil
	case b.StatusUpdate != nil && b.StatusUpdate.TaskID != "":
		return b.StatusUpdate.TaskID, nil
	case b.ArtifactUpdate != nil && b.ArtifactUpdate.TaskID != "":
		return b.ArtifactUpdate.TaskID, nil
	case b.Message != nil && b.Message.TaskID != "":
		return b.Message.TaskID, nil
	case b.TaskID != "":
		return b.TaskID, nil
	case b.ID != "":
		return b.ID, nil
	}
	return "", errors.New("the push's body names no task")
}

func pushRefused(status int, format string, args ...any) error {
	e := newError(a2aport.CodePushRefused, format, args...)
	e.Status = status
	return e
}

// checkWebhookURL refuses a PushWebhookURL an agent could not be given: it must be an absolute
// http or https URL, without userinfo (a secret in it would be stored by every agent).
func checkWebhookURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return newError(a2aport.CodeInvalidOptions, "PushWebhookURL must be an absolute http or https URL")
	}
	if u.User != nil {
		return newError(a2aport.CodeInvalidOptions, "PushWebhookURL must not carry userinfo: the agent keeps the URL")
	}
	return nil
}

var _ a2aport.PushReceiver = (*Adapter)(nil)
