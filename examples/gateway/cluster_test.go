package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
	"github.com/a2aport/a2aport/internal/testkit/tasktest"
	"github.com/a2aport/a2aport/tests/agent"
)

// node is one gateway process of the cluster.
type node struct {
	name string
	cmd  *exec.Cmd
	base string
}

// startNode runs the gateway as a cluster node on dsn in front of upstream.
func startNode(t *testing.T, bin, name, dsn, upstream string) *node {
	t.Helper()
	cmd := exec.Command(bin, "-upstream", upstream, "-addr", "127.0.0.1:0", "-postgres", dsn, "-node", name, "-lease", "1s", "-lifetime", "2m")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if base, ok := strings.CutPrefix(lines.Text(), "gateway on "); ok {
			go func() { _, _ = bufioDrain(lines) }()
			return &node{name: name, cmd: cmd, base: base}
		}
	}
	t.Fatalf("node %s did not start", name)
	return nil
}

func bufioDrain(s *bufio.Scanner) (int, error) {
	n := 0
	for s.Scan() {
		n++
	}
	return n, s.Err()
}

// client is a2a-go's client on a node's 1.0 JSON-RPC interface.
func client(ctx context.Context, t *testing.T, n *node) *a2aclient.Client {
	t.Helper()
	card, err := agentcard.DefaultResolver.Resolve(ctx, n.base)
	if err != nil {
		t.Fatal(err)
	}
	card.SupportedInterfaces = card.SupportedInterfaces[:1]
	c, err := a2aclient.NewFromCard(ctx, card)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}

func send(ctx context.Context, t *testing.T, c *a2aclient.Client, text string) *a2a.Task {
	t.Helper()
	res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text)),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("SendMessage() = %T", res)
	}
	return task
}

// TestCluster: two gateway processes on one PostgreSQL in front of the test agent. A task sent to
// one node is streamed from the other; either node cancels; killing the node that runs a task hands
// it to the other once the lease runs out, and it completes with nothing lost or repeated.
func TestCluster(t *testing.T) {
	dsn := pgtest.Start(t)
	upstreamAgent, err := agent.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer upstreamAgent.Close()
	upstream := upstreamAgent.CardURL(agent.Variant{Version: "1.0", Binding: "JSONRPC", Streaming: true})
	bin := filepath.Join(t.TempDir(), "gateway")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	n1, n2 := startNode(t, bin, "node-1", dsn, upstream), startNode(t, bin, "node-2", dsn, upstream)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c1, c2 := client(ctx, t, n1), client(ctx, t, n2)

	t.Run("sent to one node, streamed from the other", func(t *testing.T) {
		task := send(ctx, t, c1, "slow 1500 streamed elsewhere")
		var states []a2a.TaskState
		for ev, err := range c2.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
			if err != nil {
				t.Fatal(err)
			}
			if st, ok := ev.(*a2a.TaskStatusUpdateEvent); ok {
				states = append(states, st.Status.State)
			}
		}
		if len(states) == 0 || states[len(states)-1] != a2a.TaskStateCompleted {
			t.Errorf("node 2 streamed states %v, want them to end completed", states)
		}
		// And a2aport's own adapter, streaming through node 2.
		p, err := adapter.New(a2aport.Options{AgentCardURL: n2.base + "/.well-known/agent-card.json", ProtocolVersion: "1.0"})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = p.Close() }()
		out, err := p.Submit(ctx, a2aport.Work{ID: "w1", OwnerID: "o", Instruction: "chunks 5 through the cluster"})
		if err != nil || !strings.Contains(out.Content, "part-1 part-2 part-3 part-4 part-5") {
			t.Errorf("Submit() = %+v, %v", out, err)
		}
	})

	for i, via := range []*a2aclient.Client{c1, c2} {
		t.Run(fmt.Sprintf("cancel from node %d", i+1), func(t *testing.T) {
			instruction := fmt.Sprintf("hold cancelled from node %d", i+1)
			task := send(ctx, t, c1, instruction)
			if err := upstreamAgent.WaitStarted(ctx, instruction); err != nil {
				t.Fatal(err)
			}
			if _, err := via.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID}); err != nil {
				t.Fatalf("CancelTask() = %v", err)
			}
			if got := tasktest.Final(ctx, t, c1, task.ID); got.Status.State != a2a.TaskStateCanceled {
				t.Errorf("state %s, want canceled", got.Status.State)
			}
			deadline := time.Now().Add(10 * time.Second)
			for !upstreamAgent.Cancelled(instruction) && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if !upstreamAgent.Cancelled(instruction) {
				t.Error("the upstream agent never got the cancel")
			}
		})
	}

	t.Run("the node running a task dies; the other takes it over", func(t *testing.T) {
		pool, err := pgxpool.New(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		const instruction = "slow 4000 survives a node"
		task := send(ctx, t, c1, instruction)
		if err := upstreamAgent.WaitStarted(ctx, instruction); err != nil {
			t.Fatal(err)
		}
		// Under way: the node has the upstream task's id recorded (the agent answered). A node
		// that dies before that leaves a task nobody can follow again (the note says so).
		for {
			var remote string
			err := pool.QueryRow(ctx, `SELECT record->>'remoteTaskId' FROM a2aport_works WHERE work_id = $1`, string(task.ID)).Scan(&remote)
			if err == nil && remote != "" {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatal("the Work was never recorded")
			case <-time.After(20 * time.Millisecond):
			}
		}
		var owner string
		if err := pool.QueryRow(ctx, `SELECT owner FROM a2a_work WHERE task_id = $1 AND owner IS NOT NULL`, string(task.ID)).Scan(&owner); err != nil {
			t.Fatalf("no node holds the task's work: %v", err)
		}
		dead, alive := n1, c2
		if owner == n2.name {
			dead, alive = n2, c1
		}
		if err := dead.cmd.Process.Kill(); err != nil { // no goodbye: its lease just runs out
			t.Fatal(err)
		}
		_ = dead.cmd.Wait()
		got := tasktest.Final(ctx, t, alive, task.ID)
		if got.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("after %s died: %s %+v", dead.name, got.Status.State, got.Status.Message)
		}
		results := 0
		for _, art := range got.Artifacts {
			for _, p := range art.Parts {
				if tx, ok := p.Content.(a2a.Text); ok && strings.Contains(string(tx), "slow done") {
					results++
				}
			}
		}
		if results != 1 {
			t.Errorf("the result appears %d times in %+v, want once", results, got.Artifacts)
		}
	})
}
