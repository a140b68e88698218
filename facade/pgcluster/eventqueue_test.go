package pgcluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/eventqueue"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// twoPools returns two migrated pools on one fresh server, as two processes have.
func twoPools(t *testing.T) (*pgxpool.Pool, *pgxpool.Pool) {
	t.Helper()
	dsn := pgtest.Start(t)
	var pools [2]*pgxpool.Pool
	for i := range pools {
		pool, err := pgxpool.New(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		if err := Migrate(context.Background(), pool); err != nil {
			t.Fatal(err)
		}
		pools[i] = pool
	}
	return pools[0], pools[1]
}

func statusMessage(text string) *eventqueue.Message {
	info := a2a.TaskInfo{TaskID: "task", ContextID: "ctx"}
	return &eventqueue.Message{Event: a2a.NewStatusUpdateEvent(info, a2a.TaskStateWorking, a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(text))), TaskVersion: 3}
}

func textOf(t *testing.T, m *eventqueue.Message) string {
	t.Helper()
	ev, ok := m.Event.(*a2a.TaskStatusUpdateEvent)
	if !ok || ev.Status.Message == nil {
		t.Fatalf("event %#v", m.Event)
	}
	return string(ev.Status.Message.Parts[0].Content.(a2a.Text))
}

// Events written by one process reach readers in another, in order, from their creation on; a
// destroyed queue is drained, then closed. Readers wait on NOTIFY alone (no polling here).
func TestEventQueuesAcrossProcesses(t *testing.T) {
	p1, p2 := twoPools(t)
	writer, reader := newEventQueues(p1), newEventQueues(p2)
	t.Cleanup(writer.Close)
	t.Cleanup(reader.Close)
	reader.poll = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	w, err := writer.CreateWriter(ctx, "task")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(ctx, statusMessage("before")); err != nil {
		t.Fatal(err)
	}
	r, err := reader.CreateReader(ctx, "task")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(200 * time.Millisecond) // the reader is waiting by now
		for _, text := range []string{"one", "two", "three"} {
			if err := w.Write(ctx, statusMessage(text)); err != nil {
				t.Error(err)
			}
		}
		if err := writer.Destroy(ctx, "task"); err != nil {
			t.Error(err)
		}
	}()
	var got []string
	for {
		m, err := r.Read(ctx)
		if errors.Is(err, eventqueue.ErrQueueClosed) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if m.TaskVersion != 3 {
			t.Errorf("TaskVersion %d", m.TaskVersion)
		}
		got = append(got, textOf(t, m))
	}
	if len(got) != 3 || got[0] != "one" || got[2] != "three" {
		t.Errorf("read %v, want one two three", got)
	}
	// Close ends a waiting Read.
	r2, _ := reader.CreateReader(ctx, "other")
	go func() { time.Sleep(100 * time.Millisecond); _ = r2.Close() }()
	if _, err := r2.Read(ctx); !errors.Is(err, eventqueue.ErrQueueClosed) {
		t.Errorf("Read() after Close = %v", err)
	}
}
