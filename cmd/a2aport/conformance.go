package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var conformanceCommand = &subcommand{
	name: "conformance", args: "[REF]", summary: "check a live agent: built-in smoke checks, or the official conformance suite (--suite)",
	about: `Checks a live agent the way the A2A TCK's core checks do, in a few requests: its card (the fields
A2A requires, an interface a2aport speaks), a message sent and its task read back, an unknown
task answered with TaskNotFoundError, a task cancelled (or refused as A2A allows: an ended task
is TaskNotCancelableError), the stream when the card declares streaming, and push configurations
(create, get, list, delete) when it declares push notifications. Each check is a line: pass,
fail or skip, and why. Exit 0 when every check that ran passed, 1 when one failed (3 and 4 as
ever: no card, or no credentials). It is a smoke check, not the TCK.

With --suite PATH it runs the official draft conformance suite instead (ACTS: the tests/acts
folder of github.com/a2aproject/A2A, branch conformance-spec, checked out by you; nothing of it
ships with a2aport): every test on every binding (--binding; default: each the card offers),
with the credentials given here, a line per test and binding (PASS, FAIL, SKIP or ERROR, its id,
its level, why), then the totals by level. Exit 0 when every MUST test that ran passed, 1 when
one failed or could not be run as written; 3 when the agent cannot be reached and 4 when the
credentials are missing or refused, both found by reading the card and asking for an unknown
task before any test. Tests that need a behaviour of the suite's own agent (messages starting
tck-) fail on an agent without it: the suite is for SDKs, which serve that agent.`,
	examples: `$ a2aport conformance http://127.0.0.1:8080
$ a2aport conformance -a https://agent.example --bearer "$TOKEN" -o json | jq '.[] | select(.status == "fail")'
$ a2aport conformance -a http://127.0.0.1:8080 --cancel-text "hold"   # a message that keeps a task running
$ git clone -b conformance-spec https://github.com/a2aproject/A2A
$ a2aport conformance -a http://127.0.0.1:8080 --suite A2A/tests/acts --run '^CORE-' --binding jsonrpc`,
	groups: []flagGroup{{"Checks", []string{"text", "cancel-text", "timeout"}},
		{"Suite", []string{"suite", "run", "binding", "var", "raw-base"}}, agentFlagGroup},
	operands: operandURL,
	flags:    func(fs *flag.FlagSet) { new(conformanceFlags).register(fs) },
	run:      interruptible(runConformance),
}

type conformanceFlags struct {
	agent      agentFlags
	text       string
	cancelText string
	timeout    time.Duration
	suite      suiteFlags
}

func (f *conformanceFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	fs.StringVar(&f.text, "text", "Hello from a2aport conformance", "the `message` sent to make a task")
	fs.StringVar(&f.cancelText, "cancel-text", "", "the `message` that makes the task the cancel check cancels (default: --text)")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "how long each check, or each request and stream of the suite, may take (`duration`)")
	f.suite.register(fs)
}

// checkResult is one check: its name, pass, fail or skip, and why.
type checkResult struct {
	Check  string `json:"check"`
	Status string `json:"status"`
	Detail string `json:"detail"`
}

// checker runs the checks on one agent, in order: a check that needs what another made (a task,
// a client) is skipped when that one failed.
type checker struct {
	f       *conformanceFlags
	conn    *agentConn
	task    *a2a.Task // the task the send check made
	results []checkResult
}

func (c *checker) pass(name, detail string, args ...any) { c.add(name, "pass", detail, args...) }
func (c *checker) fail(name, detail string, args ...any) { c.add(name, "fail", detail, args...) }
func (c *checker) skip(name, detail string, args ...any) { c.add(name, "skip", detail, args...) }

func (c *checker) add(name, status, detail string, args ...any) {
	c.results = append(c.results, checkResult{Check: name, Status: status, Detail: fmt.Sprintf(detail, args...)})
}

// errName is an error as the agent named it (A2A's name), or the command's code for it.
func errName(err error) string {
	ce := classify(err, nil, true)
	return ce.code + " (" + ce.message + ")"
}

// runConformance runs the checks and prints them.
func runConformance(ctx context.Context, args []string, s streams) int {
	var f conformanceFlags
	ref, code, ok := agentRef("conformance", args, s, &f.agent, f.register)
	if !ok {
		return code
	}
	asJSON := f.agent.output == "json"
	if f.timeout <= 0 {
		return report(s, asJSON, &cliError{code: errUsage, message: "--timeout must be positive", exit: exitUsage})
	}
	if bad := f.mixedFlags(); bad != nil {
		return report(s, asJSON, bad)
	}
	if f.suite.path != "" {
		return runSuite(ctx, ref, &f, s)
	}
	if f.cancelText == "" {
		f.cancelText = f.text
	}
	c := &checker{f: &f}
	card, _, _, err := loadCard(ctx, ref, &f.agent, s.stderr)
	var ce *cliError
	switch {
	case errors.As(err, &ce) && ce.code == errCardInvalid: // the agent's fault: a check that failed
		c.fail("card", "%s", ce.message)
		for _, name := range clientChecks {
			c.skip(name, "no card to read the interfaces from")
		}
	case err != nil: // no card, no credentials: the command could not check anything
		return report(s, asJSON, classify(err, nil, f.agent.hasCredentials()))
	default:
		if missing := validateCard(card); len(missing) > 0 {
			c.fail("card", "missing what A2A requires: %s", strings.Join(missing, "; "))
		} else {
			c.pass("card", "%s %s: the fields A2A requires are there", card.Name, card.Version)
		}
		c.run(ctx, ref, s)
	}
	return c.print(s, asJSON)
}

// clientChecks are the checks after the card's, in order.
var clientChecks = []string{"interface", "send", "task.get", "task.unknown", "task.cancel", "stream", "push-config"}

// run runs the checks that need a client of the agent.
func (c *checker) run(ctx context.Context, ref string, s streams) {
	conn, err := c.f.agent.dial(ctx, ref, s.stderr)
	if err != nil {
		c.fail("interface", "%s", classify(err, nil, c.f.agent.hasCredentials()).message)
		for _, name := range clientChecks[1:] {
			c.skip(name, "no interface to call")
		}
		return
	}
	c.conn = conn
	c.pass("interface", "%s %s at %s", conn.iface.ProtocolBinding, conn.iface.ProtocolVersion, conn.iface.URL)
	for _, check := range []func(context.Context){c.send, c.get, c.unknown, c.cancel, c.stream, c.push} {
		cctx, cancel := context.WithTimeout(ctx, c.f.timeout)
		check(cctx)
		cancel()
	}
}

// send: a message gets a task (with its ids and a state) or a message back.
func (c *checker) send(ctx context.Context) {
	res, err := c.conn.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(c.f.text))})
	switch r := res.(type) {
	case nil:
		c.fail("send", "SendMessage: %s", errName(err))
	case *a2a.Message:
		if len(r.Parts) == 0 {
			c.fail("send", "the agent answered with a message of no part")
			return
		}
		c.pass("send", "the agent answered with a message (%d parts)", len(r.Parts))
	case *a2a.Task:
		if r.ID == "" || r.ContextID == "" || r.Status.State == a2a.TaskStateUnspecified {
			c.fail("send", "the task lacks its id, its context id or its state: %q, %q, %s", r.ID, r.ContextID, shortState(r.Status.State))
			return
		}
		c.task = r
		c.pass("send", "task %s, %s", r.ID, shortState(r.Status.State))
	}
}

// get: the task the send made is read back with its ids.
func (c *checker) get(ctx context.Context) {
	if c.task == nil {
		c.skip("task.get", "the send made no task")
		return
	}
	t, err := c.conn.GetTask(ctx, &a2a.GetTaskRequest{ID: c.task.ID})
	switch {
	case err != nil:
		c.fail("task.get", "GetTask %s: %s", c.task.ID, errName(err))
	case t.ID != c.task.ID || t.ContextID != c.task.ContextID:
		c.fail("task.get", "GetTask %s answered task %s of context %s, want context %s", c.task.ID, t.ID, t.ContextID, c.task.ContextID)
	default:
		c.pass("task.get", "task %s, %s", t.ID, shortState(t.Status.State))
	}
}

// unknown: a task no one made is TaskNotFoundError (A2A §3.3.2), not another error.
func (c *checker) unknown(ctx context.Context) {
	id := a2a.TaskID("a2aport-conformance-" + randomID())
	t, err := c.conn.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
	switch {
	case errors.Is(err, a2a.ErrTaskNotFound):
		c.pass("task.unknown", "GetTask of an unknown id: TaskNotFoundError")
	case err != nil:
		c.fail("task.unknown", "GetTask of an unknown id answered %s, want TaskNotFoundError", errName(err))
	default:
		c.fail("task.unknown", "GetTask of an unknown id answered a task (%s), want TaskNotFoundError", shortState(t.Status.State))
	}
}

// cancel: a task sent without waiting is cancelled (CANCELED), or refused with
// TaskNotCancelableError, which A2A requires of a task that had ended and allows of one that had not.
func (c *checker) cancel(ctx context.Context) {
	req := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(c.f.cancelText)),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}}
	res, err := c.conn.SendMessage(ctx, req)
	if err != nil {
		c.fail("task.cancel", "SendMessage (return immediately): %s", errName(err))
		return
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		c.skip("task.cancel", "the agent answered with a message: no task to cancel")
		return
	}
	after, err := c.conn.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
	switch {
	case err == nil && after.Status.State == a2a.TaskStateCanceled:
		c.pass("task.cancel", "task %s, %s when asked, CANCELED", task.ID, shortState(task.Status.State))
	case err == nil:
		c.fail("task.cancel", "CancelTask of task %s answered it %s, want CANCELED or TaskNotCancelableError", task.ID, shortState(after.Status.State))
	case errors.Is(err, a2a.ErrTaskNotCancelable):
		now, getErr := c.conn.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID})
		switch {
		case getErr != nil:
			c.fail("task.cancel", "CancelTask refused, then GetTask: %s", errName(getErr))
		case now.Status.State.Terminal():
			c.pass("task.cancel", "task %s had ended %s: TaskNotCancelableError (--cancel-text can keep one running)", task.ID, shortState(now.Status.State))
		default:
			c.pass("task.cancel", "task %s refused while %s: TaskNotCancelableError, which A2A allows", task.ID, shortState(now.Status.State))
		}
	default:
		c.fail("task.cancel", "CancelTask of task %s: %s", task.ID, errName(err))
	}
}

// stream: when the card declares streaming, a streamed message starts with a task or a
// message, keeps to one task, and ends with that message or an end or a wait.
func (c *checker) stream(ctx context.Context) {
	if !c.conn.card.Capabilities.Streaming {
		c.skip("stream", "the card does not declare streaming")
		return
	}
	req := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(c.f.text))}
	var task a2a.TaskID
	n, last := 0, ""
	for ev, err := range c.conn.SendStreamingMessage(ctx, req) {
		if err != nil {
			c.fail("stream", "after %d events: %s", n, errName(err))
			return
		}
		n++
		switch e := ev.(type) {
		case *a2a.Message:
			if n == 1 {
				c.pass("stream", "a message, alone")
			} else {
				c.fail("stream", "event %d is a message, after a task", n)
			}
			return
		case *a2a.Task:
			if n > 1 && e.ID != task {
				c.fail("stream", "event %d is task %s, the stream's is %s", n, e.ID, task)
				return
			}
			task, last = e.ID, shortState(e.Status.State)
			if e.Status.State.Terminal() || interrupted(e.Status.State) {
				c.pass("stream", "%d events, the task %s", n, last)
				return
			}
			continue
		}
		if n == 1 {
			c.fail("stream", "the first event is a %T, want the task or a message", ev)
			return
		}
		if id := ev.TaskInfo().TaskID; id != task {
			c.fail("stream", "event %d is of task %s, the stream's is %s", n, id, task)
			return
		}
		if e, ok := ev.(*a2a.TaskStatusUpdateEvent); ok {
			last = shortState(e.Status.State)
			if e.Status.State.Terminal() || interrupted(e.Status.State) {
				c.pass("stream", "%d events, the task %s", n, last)
				return
			}
		}
	}
	c.fail("stream", "the stream closed after %d events with the task %s, neither ended nor waiting", n, orDefault(last, "unnamed"))
}

// push: when the card declares push notifications, a configuration of the send's task is
// created, read, listed and deleted.
func (c *checker) push(ctx context.Context) {
	switch {
	case !c.conn.card.Capabilities.PushNotifications:
		c.skip("push-config", "the card does not declare push notifications")
		return
	case c.task == nil:
		c.skip("push-config", "the send made no task")
		return
	}
	want := &a2a.PushConfig{TaskID: c.task.ID, ID: "a2aport-conformance", URL: "https://push.invalid/a2aport-conformance"}
	created, err := c.conn.CreateTaskPushConfig(ctx, want)
	if err != nil {
		c.fail("push-config", "create: %s", errName(err))
		return
	}
	id := orDefault(created.ID, want.ID)
	got, err := c.conn.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigRequest{TaskID: c.task.ID, ID: id})
	if err != nil || got.URL != want.URL {
		c.fail("push-config", "get of the configuration just created: %v", orDefault(fmt.Sprint(err), "another URL"))
		return
	}
	all, err := c.conn.ListTaskPushConfigs(ctx, &a2a.ListTaskPushConfigRequest{TaskID: c.task.ID})
	if err != nil || len(all) == 0 {
		c.fail("push-config", "list: %d configurations, %v", len(all), err)
		return
	}
	if err := c.conn.DeleteTaskPushConfig(ctx, &a2a.DeleteTaskPushConfigRequest{TaskID: c.task.ID, ID: id}); err != nil {
		c.fail("push-config", "delete: %s", errName(err))
		return
	}
	c.pass("push-config", "created, read, listed and deleted on task %s", c.task.ID)
}

// print writes the results (-o json: one list) and returns the exit status: 1 when a check failed.
func (c *checker) print(s streams, asJSON bool) int {
	count := map[string]int{}
	for _, r := range c.results {
		count[r.Status]++
	}
	if asJSON {
		_ = writeJSON(s.stdout, c.results)
	} else {
		for _, r := range c.results {
			field(s.stdout, "Check", r.Status+" "+r.Check+": "+r.Detail)
		}
		field(s.stdout, "Passed", strconv.Itoa(count["pass"]))
		field(s.stdout, "Failed", strconv.Itoa(count["fail"]))
		field(s.stdout, "Skipped", strconv.Itoa(count["skip"]))
	}
	if count["fail"] > 0 {
		fmt.Fprintf(s.stderr, "a2aport conformance: %d of %d checks failed\n", count["fail"], len(c.results))
		return exitError
	}
	return exitOK
}
