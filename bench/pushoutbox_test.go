package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
	"github.com/a2aport/a2aport/funcport"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// BenchmarkPushOutbox is what keeping pushes in PostgreSQL costs: a task of N messages
// (N = 100, 1,000) with one webhook, through a facade whose pushes live in memory (the baseline),
// whose webhook configurations are in PostgreSQL (Push.Store, which a cluster needs: a read per
// event), and whose deliveries are in its outbox too (Push.Outbox: a row written per event before
// it is queued, removed once delivered). Reports the pushes the webhook received per second, from
// the message sent to the completed status received, and the ratio to the memory baseline of the
// same N in the same run.
func BenchmarkPushOutbox(b *testing.B) {
	dsn := pgtest.Start(b)
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	cluster, err := pgcluster.New(context.Background(), pool, "bench", 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cluster.Close)
	var pushes atomic.Int64
	completed := make(chan struct{}, 1)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		pushes.Add(1)
		if bytes.Contains(body, []byte("TASK_STATE_COMPLETED")) {
			completed <- struct{}{}
		}
	}))
	b.Cleanup(hook.Close)
	port := funcport.New(func(ctx context.Context, w a2aport.Work, t *funcport.Turn) (a2aport.Outcome, error) {
		n, _ := strconv.Atoi(w.Instruction)
		for i := range n {
			t.Message(strconv.Itoa(i)) // a message is never merged with the next (a status would be)
		}
		return a2aport.Outcome{Content: "done"}, nil
	}, funcport.Options{Label: "chatty"})
	push := func(store facade.PushStore, outbox facade.PushOutbox) func(base string) http.Handler {
		return func(base string) http.Handler {
			h, err := facade.New(port, facade.Options{BaseURL: base, Name: "pushing", Push: &facade.PushOptions{AllowedWebhooks: []string{hook.URL},
				MaxQueuedPerWebhook: 5000, Store: store, Outbox: outbox}})
			if err != nil {
				b.Fatal(err)
			}
			return h
		}
	}
	variants := []struct {
		name    string
		handler func(base string) http.Handler
	}{
		{"memory (baseline)", push(nil, nil)},
		{"configurations in PostgreSQL", push(cluster.PushConfigs(), nil)},
		{"configurations and outbox in PostgreSQL", push(cluster.PushConfigs(), cluster.PushOutbox())},
	}
	for _, n := range []int{100, 1000} {
		var baseline float64
		for i, v := range variants {
			client := benchClient(b, v.handler)
			b.Run(fmt.Sprintf("%d/%s", n, v.name), func(b *testing.B) {
				var took time.Duration
				var got int64
				for range b.N {
					pushes.Store(0)
					start := time.Now()
					res, err := client.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(strconv.Itoa(n))),
						Config: &a2a.SendMessageConfig{PushConfig: &a2a.PushConfig{URL: hook.URL}}})
					if task, ok := res.(*a2a.Task); err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
						b.Fatalf("SendMessage() = %+v, %v", res, err)
					}
					select {
					case <-completed:
					case <-time.After(time.Minute):
						b.Fatalf("no completed status pushed within a minute (%d pushes)", pushes.Load())
					}
					took, got = took+time.Since(start), got+pushes.Load()
				}
				perSecond := float64(got) / took.Seconds()
				if i == 0 {
					baseline = perSecond // of its last run, which is the one reported
				}
				b.ReportMetric(perSecond, "pushes/s")
				b.ReportMetric(float64(got)/float64(b.N), "pushes/task")
				b.ReportMetric(perSecond/baseline, "x-memory")
			})
		}
	}
}
