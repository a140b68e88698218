package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/logbuf"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
	"github.com/a2aport/a2aport/internal/testkit/tasktest"
)

// gatewayNode is one `a2aport gateway --postgres` process of a cluster.
type gatewayNode struct {
	name, base string // its node name in the work queue, its URL
	cmd        *exec.Cmd
	client     *a2aclient.Client
	log        *logbuf.Buffer // its stderr: the JSON log
}

// startGatewayNode starts a node of the cluster on dsn with config (a lease of 1 s, a grace of
// 2 s) and connects a client to it.
func startGatewayNode(ctx context.Context, t *testing.T, config, dsn string) *gatewayNode {
	t.Helper()
	cmd := command(t, "gateway", "--config", config, "--postgres", dsn, "--lease", "1s", "--grace", "2s")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	n := &gatewayNode{cmd: cmd, log: &logbuf.Buffer{}}
	cmd.Stderr = n.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "gateway on ")
	if err != nil || !ok {
		t.Fatalf("first line %q, %v; log:\n%s", line, err, n.log)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	host, _ := os.Hostname()
	n.name, n.base = fmt.Sprintf("%s-%d", host, cmd.Process.Pid), base
	if resp, err := http.Get(base + "/readyz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("node not ready: %v %v", resp, err)
	}
	card, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	if n.client, err = a2aclient.NewFromCard(ctx, card); err != nil {
		t.Fatal(err)
	}
	return n
}

// stop ends the node with sig (SIGTERM: it detaches its Works; SIGKILL: it dies mid-task).
func (n *gatewayNode) stop(sig syscall.Signal) error {
	_ = n.cmd.Process.Signal(sig)
	err := n.cmd.Wait()
	if sig == syscall.SIGKILL {
		return nil
	}
	return err
}

// runningNode waits until the Work of task is recorded with its remote task and leased by a node,
// and returns the index of that node among nodes.
func runningNode(ctx context.Context, t *testing.T, dsn string, task a2a.TaskID, nodes ...*gatewayNode) int {
	t.Helper()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for {
		var remote, owner string
		err := pool.QueryRow(ctx, `SELECT record->>'remoteTaskId' FROM a2aport_works WHERE work_id = $1`, string(task)).Scan(&remote)
		if err == nil && remote != "" && pool.QueryRow(ctx, `SELECT owner FROM a2a_work WHERE task_id = $1 AND owner IS NOT NULL`, string(task)).Scan(&owner) == nil {
			for i, n := range nodes {
				if n.name == owner {
					return i
				}
			}
			t.Fatalf("the work's owner %q is none of the nodes", owner)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the Work was never recorded with its owner")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// agentsBehind starts a test agent of its own for each backend name, and writes the gateway
// configuration of those backends.
func agentsBehind(t *testing.T, names []string) ([]*agent.Server, string) {
	t.Helper()
	yaml := "listen: 127.0.0.1:0\nname: cluster\nbackends:\n"
	agents := make([]*agent.Server, len(names))
	for i, name := range names {
		var err error
		if agents[i], err = agent.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(agents[i].Close)
		yaml += "  - name: " + name + "\n    card: " + agents[i].CardURL(agent.Variants()[0]) + "\n"
	}
	return agents, writeConfig(t, yaml)
}

func writeConfig(t *testing.T, yaml string) string {
	t.Helper()
	config := filepath.Join(t.TempDir(), "gateway.yaml")
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return config
}

// TestGatewayClusterHandsOver: two `a2aport gateway --postgres` processes on one real PostgreSQL.
// A task sent to the cluster runs on one node; SIGTERM to that node leaves the Work running at the
// agent (Detach), and the other node takes the task over after the lease and completes it, once.
func TestGatewayClusterHandsOver(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	config := writeConfig(t, "listen: 127.0.0.1:0\nname: cluster\ndefault: agent\nbackends:\n  - name: agent\n    card: "+server.CardURL(agent.Variants()[0])+"\n")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	nodes := []*gatewayNode{startGatewayNode(ctx, t, config, dsn), startGatewayNode(ctx, t, config, dsn)}
	const instruction = "slow 3000 handed over by SIGTERM"
	res, err := nodes[0].client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(instruction)),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a.Task)
	if err := server.WaitStarted(ctx, instruction); err != nil {
		t.Fatal(err)
	}
	running := runningNode(ctx, t, dsn, task.ID, nodes...)
	other := nodes[1-running]
	if err := nodes[running].stop(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	if got, err := other.client.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); err != nil || got.Status.State.Terminal() {
		t.Fatalf("the node that got SIGTERM ended the task itself, or lost it: %+v (%q), %v", got, statusText(got), err)
	}
	got := tasktest.Final(ctx, t, other.client, task.ID)
	if got.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("after SIGTERM to the node running it: %s (%q)", got.Status.State, statusText(got))
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
}

// TestGatewayClusterAcrossNodes: two `a2aport gateway --postgres` processes on one real
// PostgreSQL in front of one agent. A task sent to one node is streamed from the other, and
// cancelled from either node: the task ends canceled and the agent gets the cancel.
func TestGatewayClusterAcrossNodes(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	upstream, err := agent.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(upstream.Close)
	config := writeConfig(t, "listen: 127.0.0.1:0\nname: cluster\ndefault: agent\nbackends:\n  - name: agent\n    card: "+upstream.CardURL(agent.Variants()[0])+"\n")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	nodes := []*gatewayNode{startGatewayNode(ctx, t, config, dsn), startGatewayNode(ctx, t, config, dsn)}
	send := func(instruction string) *a2a.Task {
		t.Helper()
		res, err := nodes[0].client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(instruction)),
			Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
		if err != nil {
			t.Fatal(err)
		}
		return res.(*a2a.Task)
	}

	t.Run("sent to one node, streamed from the other", func(t *testing.T) {
		task := send("slow 1500 streamed elsewhere")
		var states []a2a.TaskState
		for ev, err := range nodes[1].client.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
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
	})
	for i, via := range nodes {
		t.Run(fmt.Sprintf("cancelled from node %d", i+1), func(t *testing.T) {
			instruction := fmt.Sprintf("hold cancelled from node %d", i+1)
			task := send(instruction)
			if err := upstream.WaitStarted(ctx, instruction); err != nil {
				t.Fatal(err)
			}
			if _, err := via.client.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID}); err != nil {
				t.Fatalf("CancelTask() = %v", err)
			}
			if got := tasktest.Final(ctx, t, nodes[0].client, task.ID); got.Status.State != a2a.TaskStateCanceled {
				t.Errorf("state %s, want canceled", got.Status.State)
			}
			for !upstream.Cancelled(instruction) {
				select {
				case <-ctx.Done():
					t.Fatal("the agent never got the cancel")
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
}

// TestGatewayTakeoverGoesToItsBackend: three backends, each its own agent; a Work on the second
// or the third, two nodes, and the node running it killed (-9) or stopped (SIGTERM) halfway
// through a paced answer. The other node resumes the Work at its own backend, and only there: the
// other agents get no call at all, the Work's agent gets its message once, and the caller reads
// the whole answer once. The takeover is logged and counted.
func TestGatewayTakeoverGoesToItsBackend(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	admin, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close)
	const chunks = 30
	var want strings.Builder
	for i := 1; i <= chunks; i++ {
		fmt.Fprintf(&want, "part-%d ", i)
	}
	names := []string{"alpha", "beta", "gamma"}
	for _, c := range []struct {
		backend int
		signal  syscall.Signal
	}{{1, syscall.SIGKILL}, {2, syscall.SIGKILL}, {1, syscall.SIGTERM}, {2, syscall.SIGTERM}} {
		t.Run(fmt.Sprintf("%s/%s", names[c.backend], c.signal), func(t *testing.T) {
			t.Parallel()
			db := fmt.Sprintf("takeover_%s_%d", names[c.backend], c.signal)
			if _, err := admin.Exec(context.Background(), "CREATE DATABASE "+db); err != nil {
				t.Fatal(err)
			}
			dbDSN := strings.Replace(dsn, "/postgres?", "/"+db+"?", 1)
			agents, config := agentsBehind(t, names)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			nodes := []*gatewayNode{startGatewayNode(ctx, t, config, dbDSN), startGatewayNode(ctx, t, config, dbDSN)}
			instruction := fmt.Sprintf("paced %d 100", chunks)
			msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(instruction))
			msg.Metadata = map[string]any{"backend": names[c.backend]}
			res, err := nodes[0].client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg, Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
			if err != nil {
				t.Fatal(err)
			}
			task := res.(*a2a.Task)
			if err := agents[c.backend].WaitStarted(ctx, instruction); err != nil {
				t.Fatal(err)
			}
			running := runningNode(ctx, t, dbDSN, task.ID, nodes...)
			other := nodes[1-running]
			time.Sleep(500 * time.Millisecond) // some of the answer streamed through the node that stops
			if err := nodes[running].stop(c.signal); err != nil {
				t.Fatalf("%s: %v", c.signal, err)
			}
			got := tasktest.Final(ctx, t, other.client, task.ID)
			if got.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("after %s to the node running it: %s (%q)", c.signal, got.Status.State, statusText(got))
			}
			var report strings.Builder
			for _, art := range got.Artifacts {
				if art.Name == "report" {
					for _, p := range art.Parts {
						report.WriteString(p.Text())
					}
				}
			}
			if report.String() != want.String() {
				t.Errorf("the answer the caller reads:\n%q\nwant each chunk once:\n%q", report.String(), want.String())
			}
			for i, a := range agents {
				sends, calls := 0, 0
				for _, r := range a.Requests() {
					if r.A2AMethod != "" {
						calls++
					}
					if r.A2AMethod == "SendMessage" || r.A2AMethod == "SendStreamingMessage" {
						sends++
					}
				}
				switch {
				case i != c.backend && calls > 0:
					t.Errorf("the agent of %s, which does not run the Work, got %d A2A calls", names[i], calls)
				case i == c.backend && sends != 1:
					t.Errorf("the agent of %s got the message %d times, want once", names[i], sends)
				}
			}
			metrics := get(t, other.base+"/metrics")
			resumed := fmt.Sprintf(`a2aport_gateway_works_resumed_total{backend=%q,outcome="ok"} 1`, names[c.backend])
			if !strings.Contains(metrics, resumed) {
				t.Errorf("/metrics of the node that took over has no %s", resumed)
			}
			if log := other.log.String(); !strings.Contains(log, `"msg":"work resumed"`) || !strings.Contains(log, `"msg":"resumed work ended"`) {
				t.Errorf("the node that took over logged no takeover:\n%s", log)
			}
		})
	}
}

// TestGatewayAnswerGoesToItsBackend: three backends, each its own agent; the second asks a
// question on a node that then stops (SIGTERM), and the caller's answer reaches the other node.
// That node takes the Work over at the backend that asked, and only there: the answer completes
// the task with that agent's reply, and the other agents get no call (they were handed the task's
// id and the answer before).
func TestGatewayAnswerGoesToItsBackend(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	names := []string{"alpha", "beta", "gamma"}
	agents, config := agentsBehind(t, names)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	asked := startGatewayNode(ctx, t, config, dsn) // alone, so the question is its own
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("input for beta"))
	msg.Metadata = map[string]any{"backend": "beta"}
	res, err := asked.client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*a2a.Task)
	if !ok || task.Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("the first answer: %#v, want a task waiting for input", res)
	}
	other := startGatewayNode(ctx, t, config, dsn)
	if err := asked.stop(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	answer := a2a.NewMessageForTask(a2a.MessageRoleUser, task, a2a.NewTextPart("Ada"))
	res, err = other.client.SendMessage(ctx, &a2a.SendMessageRequest{Message: answer})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := res.(*a2a.Task)
	if !ok || !got.Status.State.Terminal() {
		got = tasktest.Final(ctx, t, other.client, task.ID)
	}
	var greeting string
	for _, art := range got.Artifacts {
		if art.Name == "greeting" && len(art.Parts) > 0 {
			greeting = art.Parts[0].Text()
		}
	}
	if got.Status.State != a2a.TaskStateCompleted || greeting != "Hello, Ada!" {
		t.Errorf("the answered task: %s %q, greeting %q; want COMPLETED with beta's greeting", got.Status.State, statusText(got), greeting)
	}
	for i, a := range agents {
		if i == 1 {
			continue
		}
		for _, r := range a.Requests() {
			if r.A2AMethod != "" {
				t.Errorf("the agent of %s, which did not ask, got %s", names[i], r.A2AMethod)
			}
		}
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

func statusText(task *a2a.Task) string {
	if task == nil || task.Status.Message == nil || len(task.Status.Message.Parts) == 0 {
		return ""
	}
	return task.Status.Message.Parts[0].Text()
}

// TestGatewayCallerFollowsItsToken: a caller is named by its token, not by the token's place in
// auth.bearerTokens. Tasks persist in PostgreSQL across restarts with other lists: after token A
// is revoked ([A, B] → [B]), B neither reads nor lists A's task (it was token-1's, and B became
// token-1); after a reorder ([B, A]), A still has its task; a token given a name keeps its tasks
// under that name.
func TestGatewayCallerFollowsItsToken(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	backend := "default: agent\nbackends:\n  - name: agent\n    card: " + server.CardURL(agent.Variants()[0]) + "\n"
	withTokens := func(tokens string) string {
		return writeConfig(t, "listen: 127.0.0.1:0\nname: tokens\nauth:\n  bearerTokens: "+tokens+"\n"+backend)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	as := func(n *gatewayNode, token string) *a2aclient.Client {
		card, err := agentcard.DefaultResolver.Resolve(ctx, n.base)
		if err != nil {
			t.Fatal(err)
		}
		c, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithCallInterceptors(bearerToken(token)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	first := startGatewayNode(ctx, t, withTokens(`[token-a, token-b, {name: ci, token: token-c}]`), dsn)
	res, err := as(first, "token-a").SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("complete for token a"))})
	if err != nil {
		t.Fatal(err)
	}
	tokenA := res.(*a2a.Task).ID
	res, err = as(first, "token-c").SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("complete for ci"))})
	if err != nil {
		t.Fatal(err)
	}
	named := res.(*a2a.Task).ID
	if err := first.stop(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}

	revoked := startGatewayNode(ctx, t, withTokens(`[token-b, {name: ci, token: token-c2}]`), dsn)
	b := as(revoked, "token-b")
	if got, err := b.GetTask(ctx, &a2a.GetTaskRequest{ID: tokenA}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("after A was revoked, B reads A's task: %+v, %v", got, err)
	}
	if list, err := b.ListTasks(ctx, &a2a.ListTasksRequest{}); err != nil || len(list.Tasks) != 0 {
		t.Errorf("after A was revoked, B lists %+v, %v; want none", list, err)
	}
	if got, err := as(revoked, "token-c2").GetTask(ctx, &a2a.GetTaskRequest{ID: named}); err != nil || got.ID != named {
		t.Errorf("the caller named ci, with its new token, lost its task: %+v, %v", got, err)
	}
	if err := revoked.stop(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}

	reordered := startGatewayNode(ctx, t, withTokens(`[token-b, token-a]`), dsn)
	if got, err := as(reordered, "token-a").GetTask(ctx, &a2a.GetTaskRequest{ID: tokenA}); err != nil || got.ID != tokenA {
		t.Errorf("after a reorder, A lost its task: %+v, %v", got, err)
	}
}

// bearerToken sends a bearer token with every call of a2a-go's client.
type bearerToken string

func (b bearerToken) Before(ctx context.Context, req *a2aclient.Request) (context.Context, any, error) {
	req.ServiceParams.Append("Authorization", "Bearer "+string(b))
	return ctx, nil, nil
}

func (bearerToken) After(context.Context, *a2aclient.Response) error { return nil }
