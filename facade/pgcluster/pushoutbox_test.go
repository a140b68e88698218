package pgcluster

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/facade"
)

func delivery(i int) facade.PushDelivery {
	return facade.PushDelivery{ID: fmt.Sprintf("d%04d", i), TaskID: a2a.TaskID(fmt.Sprintf("task-%d", i%3)), ConfigID: fmt.Sprintf("hook-%d", i%2),
		Body: []byte(fmt.Sprintf("{\"n\":%d}\x00\xff", i)), ContentType: "application/a2a+json"}
}

func ownerOf(t *testing.T, o *PushOutbox, id string) string {
	t.Helper()
	var owner string
	if err := o.pool.QueryRow(context.Background(), `SELECT owner FROM a2a_push_outbox WHERE id = $1`, id).Scan(&owner); err != nil {
		return ""
	}
	return owner
}

// TestPushOutboxLeases: deliveries a node puts stay its own while it renews them (another node
// adopts none), and are adopted whole, in the order they were put, by another once it stops; the
// old node then adopts nothing back. Remove forgets a delivery whichever node holds it; an id is
// put once; a lease of minutes is written as one.
func TestPushOutboxLeases(t *testing.T) {
	p1, p2 := twoPools(t)
	const lease = 600 * time.Millisecond
	a, b := newPushOutbox(p1, "node-a", lease), newPushOutbox(p2, "node-b", lease)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var put []facade.PushDelivery
	for i := range 3 {
		d := delivery(i)
		if err := a.Put(ctx, d); err != nil {
			t.Fatal(err)
		}
		put = append(put, d)
	}
	if err := a.Put(ctx, put[0]); err == nil {
		t.Error("the same delivery put twice")
	}
	for end := time.Now().Add(2 * lease); time.Now().Before(end); time.Sleep(lease / 3) {
		if err := a.Renew(ctx); err != nil {
			t.Fatal(err)
		}
		if got, err := b.Adopt(ctx, 10); err != nil || len(got) != 0 {
			t.Fatalf("b adopted %d deliveries a renews (%v)", len(got), err)
		}
	}
	// a stops renewing: b adopts them once their lease runs out.
	var got []facade.PushDelivery
	for deadline := time.Now().Add(5 * time.Second); len(got) == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var err error
		if got, err = b.Adopt(ctx, 10); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != len(put) {
		t.Fatalf("b adopted %d deliveries, want %d", len(got), len(put))
	}
	for i := range put {
		g, w := got[i], put[i]
		if g.ID != w.ID || g.TaskID != w.TaskID || g.ConfigID != w.ConfigID || g.ContentType != w.ContentType || !bytes.Equal(g.Body, w.Body) {
			t.Errorf("adopted[%d] = %+v, want %+v", i, g, w)
		}
		if owner := ownerOf(t, a, w.ID); owner != "node-b" {
			t.Errorf("%s is %q's, want node-b's", w.ID, owner)
		}
	}
	if err := a.Renew(ctx); err != nil { // renews a's own, of which there are none left
		t.Fatal(err)
	}
	if again, err := a.Adopt(ctx, 10); err != nil || len(again) != 0 {
		t.Errorf("a adopted back %d deliveries b holds (%v)", len(again), err)
	}
	if err := a.Remove(ctx, put[0].ID, "no-such-delivery"); err != nil {
		t.Fatal(err)
	}
	if err := b.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := p1.QueryRow(ctx, `SELECT count(*) FROM a2a_push_outbox`).Scan(&left); err != nil || left != 2 {
		t.Errorf("%d deliveries left, want 2 (%v)", left, err)
	}

	long := newPushOutbox(p1, "node-c", time.Minute+500*time.Millisecond)
	if err := long.Put(ctx, delivery(9)); err != nil {
		t.Fatal(err)
	}
	var secs float64
	if err := p1.QueryRow(ctx, `SELECT extract(epoch FROM lease_until - clock_timestamp()) FROM a2a_push_outbox WHERE id = $1`, delivery(9).ID).Scan(&secs); err != nil ||
		secs < 55 || secs > 61 {
		t.Errorf("a lease of %v is written as %.1f s (%v)", long.Lease(), secs, err)
	}
	select {
	case <-long.Done():
		t.Error("Done before close")
	default:
	}
	long.close()
	long.close()
	<-long.Done()
}

// TestPushOutboxAdoptedOnce: a node dies with 300 deliveries; two nodes, two goroutines each,
// adopt them in small batches at once: every delivery is adopted exactly once, each batch in the
// order the deliveries were put, and the database names the node that adopted it.
func TestPushOutboxAdoptedOnce(t *testing.T) {
	p1, p2 := twoPools(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dead := newPushOutbox(p1, "node-dead", 100*time.Millisecond)
	const n = 300
	for i := range n {
		if err := dead.Put(ctx, delivery(i)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond) // its leases run out
	nodes := []*PushOutbox{newPushOutbox(p1, "node-b", time.Minute), newPushOutbox(p2, "node-c", time.Minute)}
	var mu sync.Mutex
	adopted := map[string][]string{} // id → the nodes that adopted it
	var wg sync.WaitGroup
	for _, node := range []*PushOutbox{nodes[0], nodes[1], nodes[0], nodes[1]} {
		wg.Go(func() {
			for {
				got, err := node.Adopt(ctx, 7)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				ids := make([]string, len(got))
				for i, d := range got {
					ids[i] = d.ID
				}
				if !slices.IsSorted(ids) {
					t.Errorf("a batch out of order: %v", ids)
				}
				mu.Lock()
				for _, id := range ids {
					adopted[id] = append(adopted[id], node.node)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(adopted) != n {
		t.Errorf("%d deliveries adopted, want %d", len(adopted), n)
	}
	for id, by := range adopted {
		if len(by) != 1 {
			t.Errorf("%s adopted by %v", id, by)
		} else if owner := ownerOf(t, dead, id); owner != by[0] {
			t.Errorf("%s adopted by %s, yet the database says %q", id, by[0], owner)
		}
	}
}
