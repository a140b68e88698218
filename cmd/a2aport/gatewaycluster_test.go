package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/internal/testkit/pgtest"
	"github.com/a2aport/a2aport/tests/agent"
)

// TestGatewayClusterHandsOver: two `a2aport gateway --postgres` processes on one real PostgreSQL.
// A task sent to the cluster runs on one node; SIGTERM to that node leaves the Work running at the
// agent (Detach), and the other node takes the task over after the lease and completes it, once.
func TestGatewayClusterHandsOver(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	config := filepath.Join(t.TempDir(), "gateway.yaml")
	yaml := "listen: 127.0.0.1:0\nname: cluster\ndefault: agent\nbackends:\n  - name: agent\n    card: " + server.CardURL(agent.Variants()[0]) + "\n"
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	type node struct {
		name, base string
		stop       func() error
	}
	start := func() node {
		cmd := command(t, "gateway", "--config", config, "--postgres", dsn, "--lease", "1s", "--grace", "2s")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		base, ok := strings.CutPrefix(strings.TrimSpace(line), "gateway on ")
		if err != nil || !ok {
			t.Fatalf("first line %q, %v", line, err)
		}
		host, _ := os.Hostname()
		stop := func() error { _ = cmd.Process.Signal(syscall.SIGTERM); return cmd.Wait() }
		t.Cleanup(func() { _ = cmd.Process.Kill() })
		return node{name: fmt.Sprintf("%s-%d", host, cmd.Process.Pid), base: base, stop: stop}
	}
	nodes := []node{start(), start()}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	clients := make([]*a2aclient.Client, len(nodes))
	for i, n := range nodes {
		if resp, err := http.Get(n.base + "/readyz"); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("node %d not ready: %v %v", i, resp, err)
		}
		card, err := agentcard.DefaultResolver.Resolve(ctx, n.base)
		if err != nil {
			t.Fatal(err)
		}
		if clients[i], err = a2aclient.NewFromCard(ctx, card); err != nil {
			t.Fatal(err)
		}
	}
	const instruction = "slow 3000 handed over by SIGTERM"
	res, err := clients[0].SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(instruction)),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a.Task)
	if err := server.WaitStarted(ctx, instruction); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var owner string
	for {
		var remote string
		err := pool.QueryRow(ctx, `SELECT record->>'remoteTaskId' FROM a2aport_works WHERE work_id = $1`, string(task.ID)).Scan(&remote)
		if err == nil && remote != "" && pool.QueryRow(ctx, `SELECT owner FROM a2a_work WHERE task_id = $1 AND owner IS NOT NULL`, string(task.ID)).Scan(&owner) == nil {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the Work was never recorded with its owner")
		case <-time.After(20 * time.Millisecond):
		}
	}
	running, other := 0, 1
	if owner == nodes[1].name {
		running, other = 1, 0
	} else if owner != nodes[0].name {
		t.Fatalf("the work's owner %q is neither node (%s, %s)", owner, nodes[0].name, nodes[1].name)
	}
	if err := nodes[running].stop(); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	if got, err := clients[other].GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); err != nil || got.Status.State.Terminal() {
		why := ""
		if got != nil && got.Status.Message != nil && len(got.Status.Message.Parts) > 0 {
			why = got.Status.Message.Parts[0].Text()
		}
		t.Fatalf("the node that got SIGTERM ended the task itself, or lost it: %+v (%q), %v", got, why, err)
	}
	for {
		got, err := clients[other].GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID})
		if err == nil && got.Status.State.Terminal() {
			if got.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("after SIGTERM to the node running it: %s", got.Status.State)
			}
			results := 0
			for _, art := range got.Artifacts {
				if art.Name == "result" {
					results++
				}
			}
			if results != 1 {
				t.Errorf("%d result artifacts, want 1: %+v", results, got.Artifacts)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the task never ended on the other node (%+v, %v)", got, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
