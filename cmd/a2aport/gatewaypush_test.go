package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// hookCall is one POST a webhook received, and how it answered.
type hookCall struct {
	id     string // facade.PushIDHeader
	status int
	body   []byte
}

// webhook answers 503 until up is set, then 200, and records every call.
type webhook struct {
	srv   *httptest.Server
	up    atomic.Bool
	mu    sync.Mutex
	calls []hookCall
}

func newWebhook(t *testing.T) *webhook {
	t.Helper()
	h := &webhook{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		status := http.StatusServiceUnavailable
		if h.up.Load() {
			status = http.StatusOK
		}
		h.mu.Lock()
		h.calls = append(h.calls, hookCall{id: r.Header.Get(facade.PushIDHeader), status: status, body: body})
		h.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// delivered is every call answered 2xx, in the order received.
func (h *webhook) delivered() []hookCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []hookCall
	for _, c := range h.calls {
		if c.status/100 == 2 {
			out = append(out, c)
		}
	}
	return out
}

// outboxRow is a delivery the cluster's outbox holds.
type outboxRow struct {
	id, owner string
	body      []byte
}

func outboxOf(ctx context.Context, t *testing.T, pool *pgxpool.Pool, task a2a.TaskID) []outboxRow {
	t.Helper()
	rows, err := pool.Query(ctx, `SELECT id, owner, body FROM a2a_push_outbox WHERE task_id = $1 ORDER BY seq`, string(task))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []outboxRow
	for rows.Next() {
		var r outboxRow
		if err := rows.Scan(&r.id, &r.owner, &r.body); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGatewayPushSurvivesKill: two `a2aport gateway --postgres` processes with push on, a webhook
// that answers 503, and a task that streams ten chunks and completes. Every event's delivery waits
// in the outbox, owned by the node that ran the task; that node is killed (-9) and the webhook
// comes back. The other node adopts the deliveries once their lease runs out and sends each, in
// order: every delivery id is answered 2xx exactly once, and the webhook has every event the task
// produced (each chunk of its artifact, its completed status). The adoption is logged and counted.
func TestGatewayPushSurvivesKill(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	hook := newWebhook(t)
	config := writeConfig(t, "listen: 127.0.0.1:0\nname: pushing\ndefault: agent\n"+
		"push:\n  enabled: true\n  allowedWebhooks: ["+hook.srv.URL+"]\n  retryBackoff: 100ms\n  maxAttempts: 100\n"+
		"backends:\n  - name: agent\n    card: "+server.CardURL(agent.Variants()[0])+"\n")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	nodes := []*gatewayNode{startGatewayNode(ctx, t, config, dsn), startGatewayNode(ctx, t, config, dsn)}
	const chunks = 10
	res, err := nodes[0].client.SendMessage(ctx, &a2a.SendMessageRequest{
		Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(fmt.Sprintf("paced %d 20", chunks))),
		Config:  &a2a.SendMessageConfig{ReturnImmediately: true, PushConfig: &a2a.PushConfig{URL: hook.srv.URL + "/hook", Token: "tok"}}})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a.Task)

	// Every delivery waits: the task is over, and its completed status is in the outbox.
	var pending []outboxRow
	running := -1
	for running < 0 {
		rows := outboxOf(ctx, t, pool, task.ID)
		for _, r := range rows {
			if strings.Contains(string(r.body), "TASK_STATE_COMPLETED") {
				running = slices.IndexFunc(nodes, func(n *gatewayNode) bool { return n.name == r.owner })
				if running < 0 {
					t.Fatalf("the delivery of the completed status is %q's, none of the nodes", r.owner)
				}
			}
		}
		for _, r := range rows {
			if running >= 0 && r.owner == nodes[running].name {
				pending = append(pending, r)
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the outbox never held the completed status: %d rows", len(rows))
		case <-time.After(20 * time.Millisecond):
		}
	}
	if got := hook.delivered(); len(got) != 0 {
		t.Fatalf("the webhook answered 2xx already: %d", len(got))
	}
	other := nodes[1-running]
	if err := nodes[running].stop(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	hook.up.Store(true)
	killed := time.Now()

	// The other node sends them all; the outbox empties.
	for len(outboxOf(ctx, t, pool, task.ID)) > 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("the outbox still holds %d deliveries; the webhook answered %d 2xx", len(outboxOf(context.Background(), t, pool, task.ID)), len(hook.delivered()))
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Logf("%d deliveries pending on the node killed; all sent by the other %v after the kill (a lease of 1 s)", len(pending), time.Since(killed).Round(time.Millisecond))
	time.Sleep(1500 * time.Millisecond) // longer than a lease: a delivery sent twice would show
	delivered := hook.delivered()
	times := map[string]int{}
	var order []string // the killed node's deliveries, as received
	for _, c := range delivered {
		times[c.id]++
		if slices.ContainsFunc(pending, func(r outboxRow) bool { return r.id == c.id }) {
			order = append(order, c.id)
		}
	}
	for id, n := range times {
		if id == "" || n != 1 {
			t.Errorf("delivery %q answered 2xx %d times, want once", id, n)
		}
	}
	want := make([]string, len(pending))
	for i, r := range pending {
		want[i] = r.id
	}
	if !slices.Equal(order, want) {
		t.Errorf("the killed node's %d deliveries arrived as %q, want each once, in order %q", len(want), order, want)
	}

	// Every event the task produced reached the webhook.
	var report strings.Builder
	completed := false
	for _, c := range delivered {
		var sr a2a.StreamResponse
		if err := json.Unmarshal(c.body, &sr); err != nil {
			t.Fatalf("a delivery is not a StreamResponse: %v: %s", err, c.body)
		}
		switch ev := sr.Event.(type) {
		case *a2a.TaskArtifactUpdateEvent:
			for _, p := range ev.Artifact.Parts {
				report.WriteString(p.Text())
			}
		case *a2a.TaskStatusUpdateEvent:
			completed = completed || ev.Status.State == a2a.TaskStateCompleted
		}
	}
	var whole strings.Builder
	for i := 1; i <= chunks; i++ {
		fmt.Fprintf(&whole, "part-%d ", i)
	}
	if report.String() != whole.String() || !completed {
		t.Errorf("the webhook got the artifact %q and completed=%v; want %q and the completed status", report.String(), completed, whole.String())
	}
	adopted := fmt.Sprintf(`a2aport_gateway_push_total{outcome="adopted"} %d`, len(pending))
	if metrics := get(t, other.base+"/metrics"); !strings.Contains(metrics, adopted) {
		t.Errorf("/metrics of the node that adopted them has no %s", adopted)
	}
	if log := other.log.String(); !strings.Contains(log, `"msg":"push notifications adopted from a stopped node"`) {
		t.Errorf("the node that adopted them logged nothing:\n%s", log)
	}
}
