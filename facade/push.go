package facade

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// Push notifications: the third way A2A delivers a task's updates, beside the blocking answer and
// the stream. A caller registers a webhook for a task (CreateTaskPushNotificationConfig, or with
// the message that starts it) and the facade POSTs the task's events there as they happen. a2a-go
// runs the configurations' methods and calls a push.Sender for every event; what it does not do
// is what a service open to callers needs, and this file and its neighbours add: the webhooks a
// caller may name (pushguard.go: never the facade's own network), delivery that never holds the
// task (pushqueue.go: queued, retried, bounded), configurations bounded and forgotten with their
// tasks (pushstore.go), and in a cluster deliveries that outlive their node (pushoutbox.go).

// PushOptions turn push notifications on (Options.Push). A zero field takes its default.
type PushOptions struct {
	// AllowedWebhooks lift the guard against webhooks on the facade's own network (SECURITY.md),
	// for deployments whose webhooks are internal. An origin ("https://hooks.internal:8443",
	// "http://10.1.2.3:9000") may be called whatever address its name resolves to, over http
	// too; a CIDR ("10.20.0.0/16", "fd00:1::/64") lets any webhook whose address falls inside be
	// dialled, over https, or over http when the URL names the address itself. Nil: webhooks are
	// https URLs on public addresses only.
	AllowedWebhooks []string
	// MaxAttempts bounds the attempts to deliver one event to one webhook (default 5): a
	// connection that cannot be made or breaks, no answer within Timeout, a 5xx, 408 or 429 is
	// tried again; any other answer but a 2xx is a failure at once.
	MaxAttempts int
	// RetryBackoff is the wait before the second attempt (default 1 s), doubled before each next
	// one up to MaxRetryBackoff.
	RetryBackoff time.Duration
	// Timeout bounds one attempt, from dialling to the answer's headers (default 10 s, within the
	// 10–30 s A2A 1.0 §13.2 recommends).
	Timeout time.Duration
	// MaxQueuedPerWebhook bounds the events waiting for one webhook of one task (default 100), and
	// MaxQueued and MaxQueuedBytes those waiting for any (defaults 10,000 and 64 MiB of bodies):
	// past a bound the oldest waiting event is dropped (PushDropped).
	MaxQueuedPerWebhook int
	MaxQueued           int
	MaxQueuedBytes      int
	// MaxConcurrent bounds the deliveries in flight at once, all webhooks together (default 32).
	MaxConcurrent int
	// MaxConfigsPerTask bounds the webhooks registered for one task (default 10): one more is
	// refused with invalid params.
	MaxConfigsPerTask int
	// Store keeps the configurations (nil: this process's memory). A cluster needs one its nodes
	// share (pgcluster.Cluster.PushConfigs): the node that runs a task's events finds the webhooks
	// registered through another. A delivery is made by that node, from its memory: without an
	// Outbox, one that dies with pushes queued loses them (a receiver that missed some asks GetTask).
	Store PushStore
	// Outbox, when set, keeps each delivery until it is over where every node sees it
	// (pgcluster.Cluster.PushOutbox), so that one whose node dies is sent by another node
	// (pushoutbox.go): at least once, each delivery with its id in PushIDHeader. It needs a Store
	// the nodes share, where the node that adopts a delivery finds its webhook.
	Outbox PushOutbox
	// Sign signs every push with CardSigning's key (which New then needs): a JWT in
	// PushSignatureHeader binding the push to its body, its webhook and five minutes, that a
	// receiver verifies with the key the facade publishes (PushVerifier; pushsign.go).
	Sign bool
	// Observe, when set, is told the outcome of each delivery and each attempt retried, for a
	// server's metrics (the gateway counts them in a2aport_gateway_push_total). It is called from
	// the delivering goroutines and must not block.
	Observe func(PushOutcome)
}

// PushOutcome is what became of one event for one webhook, or of one attempt.
type PushOutcome string

const (
	// PushDelivered: the webhook answered 2xx.
	PushDelivered PushOutcome = "delivered"
	// PushRetried: an attempt failed in a way worth another one, which follows after a backoff.
	PushRetried PushOutcome = "retried"
	// PushFailed: the last attempt failed, or the webhook answered what no retry changes (a 4xx, a
	// redirect). The event is not delivered; the log says why.
	PushFailed PushOutcome = "failed"
	// PushRefused: the webhook's address is one the guard refuses (its name resolved to a private
	// or loopback address, say). Nothing was sent.
	PushRefused PushOutcome = "refused"
	// PushDropped: the event waited past a queue's bound and was dropped for a newer one.
	PushDropped PushOutcome = "dropped"
	// PushAdopted: a delivery whose node stopped before it was over was taken over by this one
	// (PushOptions.Outbox); its outcome follows.
	PushAdopted PushOutcome = "adopted"
	// PushUnsaved: the delivery could not be written to the outbox (the log says why); it is
	// delivered from this node's memory alone, and lost if the node dies first.
	PushUnsaved PushOutcome = "unsaved"
)

// Defaults of PushOptions.
const (
	DefaultPushMaxAttempts         = 5
	DefaultPushRetryBackoff        = time.Second
	DefaultPushTimeout             = 10 * time.Second
	DefaultPushMaxQueuedPerWebhook = 100
	DefaultPushMaxQueued           = 10_000
	DefaultPushMaxQueuedBytes      = 64 << 20
	DefaultPushMaxConcurrent       = 32
	DefaultPushMaxConfigsPerTask   = 10
	// MaxRetryBackoff caps the wait between two attempts.
	MaxRetryBackoff = time.Minute
)

// ErrWebhookRefused is wrapped by the error a webhook URL the guard refuses is answered with
// (with a2a.ErrInvalidParams: JSON-RPC -32602, HTTP+JSON 400), at CreateTaskPushNotificationConfig
// or with the message that names it.
var ErrWebhookRefused = errors.New("webhook refused")

// Check reports what New would refuse in o: an entry of AllowedWebhooks that is neither an origin
// nor a CIDR, a negative bound.
func (o *PushOptions) Check() error {
	if o.MaxAttempts < 0 || o.MaxQueuedPerWebhook < 0 || o.MaxQueued < 0 || o.MaxQueuedBytes < 0 || o.MaxConcurrent < 0 ||
		o.MaxConfigsPerTask < 0 || o.RetryBackoff < 0 || o.Timeout < 0 {
		return errors.New("facade: Push: a bound is negative (0: its default)")
	}
	_, err := newWebhookGuard(o.AllowedWebhooks)
	return err
}

func (o PushOptions) withDefaults() PushOptions {
	for _, f := range []struct {
		v   *int
		def int
	}{{&o.MaxAttempts, DefaultPushMaxAttempts}, {&o.MaxQueuedPerWebhook, DefaultPushMaxQueuedPerWebhook},
		{&o.MaxQueued, DefaultPushMaxQueued}, {&o.MaxQueuedBytes, DefaultPushMaxQueuedBytes},
		{&o.MaxConcurrent, DefaultPushMaxConcurrent}, {&o.MaxConfigsPerTask, DefaultPushMaxConfigsPerTask}} {
		if *f.v <= 0 {
			*f.v = f.def
		}
	}
	if o.RetryBackoff <= 0 {
		o.RetryBackoff = DefaultPushRetryBackoff
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultPushTimeout
	}
	return o
}

// pushes is the facade's push support: the configurations, the guard and the deliveries.
type pushes struct {
	configs *pushStore
	guard   *webhookGuard
	queue   *pushQueue
}

// newPushes makes the push support opts describe, its configurations forgotten with the tasks of
// tasks (a task dropped from memory takes its webhooks with it).
func newPushes(opts *PushOptions, tasks taskstore.Store, signer *pushSigner, logger *slog.Logger) (*pushes, error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	o := opts.withDefaults()
	guard, err := newWebhookGuard(o.AllowedWebhooks)
	if err != nil {
		return nil, err
	}
	configs := newPushStore(guard, o.MaxConfigsPerTask, o.Store)
	if mem, ok := tasks.(*memStore); ok {
		mem.forgotten = configs.forget
	}
	queue := newPushQueue(o, guard, configs, tasks, logger)
	queue.signer = signer
	return &pushes{configs: configs, guard: guard, queue: queue}, nil
}

// checkPushConfig refuses, before a2asrv stores anything, a configuration the facade could not
// honour: a webhook the guard refuses, an authentication it cannot send.
func (p *pushes) checkPushConfig(cfg *a2a.PushConfig) error {
	if err := p.guard.checkURL(cfg.URL); err != nil {
		return fmt.Errorf("%w: %w", a2a.ErrInvalidParams, err)
	}
	if cfg.Auth != nil && cfg.Auth.Credentials != "" {
		if _, ok := authScheme(cfg.Auth.Scheme); !ok {
			return fmt.Errorf("%w: push notification authentication %q is not supported: Bearer or Basic", a2a.ErrInvalidParams, printable(cfg.Auth.Scheme))
		}
	}
	return nil
}

// authScheme is how scheme is written in an Authorization header, for the schemes the facade
// sends: those whose credentials go as they are (a2a-go's sender sends the same two). Digest and
// the like need a challenge first, which a webhook POST never sees.
func authScheme(scheme string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(scheme)) {
	case "bearer":
		return "Bearer", true
	case "basic":
		return "Basic", true
	}
	return "", false
}

// printable is s cut to 32 bytes of printable ASCII, to name a caller's value in an answer.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 32 {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r > 0x7e {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pushChecks is the interceptor that refuses a webhook before a2a-go stores it: at
// CreateTaskPushNotificationConfig, and with a message that carries one (a2a-go would save it as
// it starts the execution, and its error there quotes the whole configuration, token included).
// It runs after callers (isolation.go), so another caller's task is "task not found" first.
type pushChecks struct {
	a2asrv.PassthroughCallInterceptor
	p *pushes
}

func (c pushChecks) Before(ctx context.Context, _ *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	var cfg *a2a.PushConfig
	switch p := payloadOf(req).(type) {
	case *a2a.PushConfig:
		cfg = p
	case *a2a.SendMessageRequest:
		if p != nil && p.Config != nil {
			cfg = p.Config.PushConfig
		}
	}
	if cfg == nil {
		return ctx, nil, nil
	}
	return ctx, nil, c.p.checkPushConfig(cfg)
}

type legacyCallKey struct{}

// legacyCalls marks the requests it serves as A2A 0.3's, so that a webhook registered by one is
// sent what 0.3 sends (pushqueue.go): the whole task, not 1.0's StreamResponse.
func legacyCalls(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), legacyCallKey{}, true)))
	})
}

func isLegacyCall(ctx context.Context) bool {
	legacy, _ := ctx.Value(legacyCallKey{}).(bool)
	return legacy
}
