package facade

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
	"github.com/google/uuid"
)

// pushQueue is the facade's push.Sender. a2a-go calls SendPush inside the processing of each
// event, in the goroutine that stores the task's events, and waits for it: a webhook that took
// 30 s to answer would hold the task, its stream and its blocking answer for 30 s per event, and
// an error would fail the task. So SendPush only queues the event's body and returns; one
// goroutine per webhook of a task delivers its events in the order they happened (A2A asks it of
// streams; a receiver that rebuilds the task from deltas needs it), each retried with exponential
// backoff while the failure is one a retry may cure.
//
// What waits is bounded per webhook and in all, by count and by bytes. Past a bound the OLDEST
// waiting event is dropped, not the new one: a queue that fills is one whose webhook is slow or
// down, the newest event carries the task's latest state and the last its final one, which is what
// a receiver most needs (and a receiver that missed some asks GetTask, as A2A advises after a
// notification). An event being delivered is counted too, and never dropped: when only those
// remain past the bound, the new event is the one dropped.
//
// With an outbox (PushOptions.Outbox, pushoutbox.go) each event is also written there before it is
// queued, and removed once it is over, so that another node sends it if this one dies first.
type pushQueue struct {
	opts    PushOptions // with defaults
	guard   *webhookGuard
	configs *pushStore
	tasks   taskstore.Store
	client  *http.Client
	logger  *slog.Logger
	slots   chan struct{} // MaxConcurrent attempts in flight
	signer  *pushSigner   // nil: pushes are not signed (PushOptions.Sign)
	outbox  PushOutbox    // nil: deliveries live in memory alone (pushoutbox.go)

	mu       sync.Mutex
	waiting  *list.List // *pushItem, oldest first
	count    int        // waiting and in flight
	bytes    int        // their bodies
	webhooks map[webhookKey]*webhookQueue
	held     map[string]bool // the ids of what waits and is in flight: an adopted delivery is queued once
}

// webhookKey is one webhook of one task: a configuration.
type webhookKey struct {
	task   a2a.TaskID
	config string
}

type webhookQueue struct {
	items   *list.List // *pushItem, oldest first
	running bool       // a goroutine delivers them
}

type pushItem struct {
	id          string // PushIDHeader
	key         webhookKey
	body        []byte
	contentType string
	kept        bool // in the outbox: removed from it when over
	inAll       *list.Element
	inWebhook   *list.Element
}

var _ push.Sender = (*pushQueue)(nil)

func newPushQueue(o PushOptions, guard *webhookGuard, configs *pushStore, tasks taskstore.Store, logger *slog.Logger) *pushQueue {
	return &pushQueue{opts: o, guard: guard, configs: configs, tasks: tasks, client: guard.client(o.Timeout), logger: logger,
		slots: make(chan struct{}, o.MaxConcurrent), waiting: list.New(), webhooks: map[webhookKey]*webhookQueue{},
		held: map[string]bool{}, outbox: o.Outbox}
}

// SendPush implements push.Sender: the event's body is made now (the event is a2a-go's, and the
// task moves on), written to the outbox if there is one, and queued. It never fails: a webhook's
// trouble, or the outbox's, is never the task's.
func (q *pushQueue) SendPush(_ context.Context, config *a2a.PushConfig, event a2a.Event) error {
	if config == nil || event == nil {
		return nil
	}
	taskID := config.TaskID
	if taskID == "" {
		taskID = event.TaskInfo().TaskID
	}
	key := webhookKey{task: taskID, config: config.ID}
	rec, ok := q.configs.record(key.task, key.config)
	if !ok {
		return nil
	}
	body, contentType, err := q.bodyOf(rec, taskID, event)
	if err != nil {
		q.logger.Warn("push notification not queued: its body could not be made", "task", string(taskID), "config", printable(key.config), "error", err.Error())
		q.observe(PushFailed)
		return nil
	}
	if body != nil {
		item := &pushItem{id: uuid.NewString(), key: key, body: body, contentType: contentType}
		q.keep(item)
		q.enqueue(item)
	}
	return nil
}

// bodyOf is what a webhook is sent for event: A2A 1.0's StreamResponse (§4.3.3), or for a webhook
// registered over 0.3 what 0.3 sends, the whole task as it is after the event, on the task's
// changes of state (its artifacts' chunks reach it with the next status). nil: nothing to send.
func (q *pushQueue) bodyOf(rec pushRecord, taskID a2a.TaskID, event a2a.Event) ([]byte, string, error) {
	if !rec.legacy {
		body, err := json.Marshal(a2a.StreamResponse{Event: event})
		return body, "application/a2a+json", err
	}
	switch event.(type) {
	case *a2a.Task, *a2a.TaskStatusUpdateEvent:
	default:
		return nil, "", nil
	}
	ctx, callCtx := a2asrv.NewCallContext(context.Background(), nil)
	callCtx.User = a2asrv.NewAuthenticatedUser(rec.caller, nil)
	stored, err := q.tasks.Get(ctx, taskID)
	if err != nil {
		return nil, "", err
	}
	body, err := json.Marshal(a2av0.FromV1Task(stored.Task))
	return body, "application/json", err
}

// enqueue queues item for its webhook, dropping the oldest waiting past the bounds; false when an
// item of its id is queued already.
func (q *pushQueue) enqueue(item *pushItem) bool {
	var dropped []*pushItem
	key := item.key
	q.mu.Lock()
	if q.held[item.id] {
		q.mu.Unlock()
		return false
	}
	wq := q.webhooks[key]
	if wq == nil {
		wq = &webhookQueue{items: list.New()}
		q.webhooks[key] = wq
	}
	item.inAll, item.inWebhook = q.waiting.PushBack(item), wq.items.PushBack(item)
	q.count, q.bytes = q.count+1, q.bytes+len(item.body)
	q.held[item.id] = true
	for wq.items.Len() > q.opts.MaxQueuedPerWebhook {
		dropped = append(dropped, q.dropLocked(wq.items.Front().Value.(*pushItem)))
	}
	for (q.count > q.opts.MaxQueued || q.bytes > q.opts.MaxQueuedBytes) && q.waiting.Len() > 0 {
		dropped = append(dropped, q.dropLocked(q.waiting.Front().Value.(*pushItem)))
	}
	start := !wq.running && wq.items.Len() > 0
	if start {
		wq.running = true
	} else if wq.items.Len() == 0 && !wq.running {
		delete(q.webhooks, key)
	}
	q.mu.Unlock()
	for range dropped {
		q.observe(PushDropped)
	}
	if len(dropped) > 0 {
		q.logger.Warn("push notifications dropped: too many waiting (the oldest go first)", "task", string(key.task), "dropped", len(dropped))
		if q.outbox != nil {
			go q.forget(dropped...) // off the task's way: this is SendPush
		}
	}
	if start {
		go q.deliverAll(key, wq)
	}
	return true
}

// dropLocked takes a waiting item out of both queues, and returns it.
func (q *pushQueue) dropLocked(item *pushItem) *pushItem {
	q.waiting.Remove(item.inAll)
	q.webhooks[item.key].items.Remove(item.inWebhook)
	q.count, q.bytes = q.count-1, q.bytes-len(item.body)
	delete(q.held, item.id)
	return item
}

// deliverAll delivers the webhook's events in order, until none waits.
func (q *pushQueue) deliverAll(key webhookKey, wq *webhookQueue) {
	for {
		q.mu.Lock()
		front := wq.items.Front()
		if front == nil {
			wq.running = false
			delete(q.webhooks, key)
			q.mu.Unlock()
			return
		}
		item := front.Value.(*pushItem)
		q.waiting.Remove(item.inAll)
		wq.items.Remove(front)
		q.mu.Unlock()
		q.deliver(item)
		q.forget(item)
		q.mu.Lock()
		q.count, q.bytes = q.count-1, q.bytes-len(item.body)
		delete(q.held, item.id)
		q.mu.Unlock()
	}
}

// deliver makes up to MaxAttempts attempts at one event, with exponential backoff between them.
// The configuration is read again before each: one deleted meanwhile gets nothing more (A2A 1.0
// §3.1.10), one replaced gets the event at its new URL.
func (q *pushQueue) deliver(item *pushItem) {
	for attempt := 1; ; attempt++ {
		rec, ok := q.configs.record(item.key.task, item.key.config)
		if !ok {
			return
		}
		q.slots <- struct{}{}
		err := q.attempt(rec.config, item)
		<-q.slots
		if err == nil {
			q.observe(PushDelivered)
			return
		}
		var f *pushFailure
		retry := errors.As(err, &f) && f.retry
		if !retry || attempt >= q.opts.MaxAttempts {
			outcome := PushFailed
			if errors.Is(err, ErrWebhookRefused) || errors.Is(err, errBlockedAddress) {
				outcome = PushRefused
			}
			q.logger.Warn("push notification not delivered", "task", string(item.key.task), "config", printable(item.key.config),
				"webhook", webhookName(rec.config.URL), "attempts", attempt, "outcome", string(outcome), "error", err.Error())
			q.observe(outcome)
			return
		}
		q.observe(PushRetried)
		time.Sleep(q.backoff(attempt))
	}
}

// backoff is the wait after the attempt-th attempt: RetryBackoff doubled each time up to
// MaxRetryBackoff, less up to a fifth at random, so that the webhooks of many tasks that failed
// together are not all tried again at the same instant.
func (q *pushQueue) backoff(attempt int) time.Duration {
	d := q.opts.RetryBackoff
	for i := 1; i < attempt && d < MaxRetryBackoff; i++ {
		d *= 2
	}
	d = min(d, MaxRetryBackoff)
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// pushFailure is a failed attempt, and whether another may succeed.
type pushFailure struct {
	err   error
	retry bool
}

func (f *pushFailure) Error() string { return f.err.Error() }
func (f *pushFailure) Unwrap() error { return f.err }

// attempt POSTs the item to the configuration's webhook once.
func (q *pushQueue) attempt(cfg *a2a.PushConfig, item *pushItem) error {
	if err := q.guard.checkURL(cfg.URL); err != nil {
		return err
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return fmt.Errorf("%w: the webhook URL does not parse", ErrWebhookRefused)
	}
	ctx, cancel := context.WithTimeout(withWebhookOrigin(context.Background(), u), q.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, bytes.NewReader(item.body))
	if err != nil {
		return fmt.Errorf("%w: the webhook URL does not make a request", ErrWebhookRefused)
	}
	req.Header.Set("Content-Type", item.contentType)
	req.Header.Set("User-Agent", "a2aport-push")
	if cfg.Token != "" {
		// A2A 1.0.0's and 0.3's examples send the token as X-A2A-Notification-Token (so does
		// a2a-sdk for Python); a2a-go's sender names it A2A-Notification-Token. Both, so that a
		// receiver written for either finds it.
		req.Header.Set("X-A2A-Notification-Token", cfg.Token)
		req.Header.Set("A2A-Notification-Token", cfg.Token)
	}
	if cfg.Auth != nil && cfg.Auth.Credentials != "" {
		if scheme, ok := authScheme(cfg.Auth.Scheme); ok {
			req.Header.Set("Authorization", scheme+" "+cfg.Auth.Credentials)
		}
	}
	req.Header.Set(PushIDHeader, item.id) // the same at every attempt and from every node: a receiver drops a repeat
	if q.signer != nil {
		token, err := q.signer.token(cfg.URL, item.body, item.id) // each attempt its own: a retry is no replay
		if err != nil {
			return fmt.Errorf("the push could not be signed: %w", err)
		}
		req.Header.Set(PushSignatureHeader, token)
	}
	resp, err := q.client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // its text quotes the whole URL, which may hold a secret in its path or query
		}
		if errors.Is(err, errBlockedAddress) {
			return err
		}
		return &pushFailure{err: fmt.Errorf("the webhook could not be reached: %w", err), retry: true}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10)) // a short answer read whole keeps the connection
	_ = resp.Body.Close()
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return nil
	case code >= 500, code == http.StatusRequestTimeout, code == http.StatusTooManyRequests:
		return &pushFailure{err: fmt.Errorf("the webhook answered %s", resp.Status), retry: true}
	case code >= 300 && code < 400:
		return &pushFailure{err: fmt.Errorf("the webhook answered %s: redirects are not followed", resp.Status)}
	default:
		return &pushFailure{err: fmt.Errorf("the webhook answered %s", resp.Status)}
	}
}

func (q *pushQueue) observe(o PushOutcome) {
	if q.opts.Observe != nil {
		q.opts.Observe(o)
	}
}

// webhookName is how the log names a webhook: its origin, never its path or query (a secret may
// be in them).
func webhookName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(not a URL)"
	}
	return originOf(u)
}
