package tests

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/fakeclock"
)

// scenario is one behaviour checked over every variant ({1.0, 0.3} × {JSON-RPC, HTTP+JSON} ×
// {streaming, polling}) and every implementation.
type scenario struct {
	name          string
	streamingOnly bool
	options       func(*a2aport.Options, *fakeclock.Clock)
	run           func(t *testing.T, e env)
}

type env struct {
	ctx     context.Context
	port    a2aport.Port
	variant agent.Variant
	clock   *fakeclock.Clock
}

// submit runs one Work to its outcome and returns its events.
func (e env) submit(t *testing.T, w a2aport.Work) (a2aport.Outcome, []a2aport.Event, error) {
	t.Helper()
	rec := newRecorder()
	r := await(e.ctx, t, submitAsync(e.ctx, e.port, w, rec))
	return r.out, rec.all(), r.err
}

func TestMatrix(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range agent.Variants() {
			for _, sc := range scenarios {
				if sc.streamingOnly && !v.Streaming {
					continue
				}
				t.Run(impl.name+"/"+v.Name()+"/"+sc.name, func(t *testing.T) {
					t.Parallel()
					opts := a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval}
					var clock *fakeclock.Clock
					if sc.options != nil {
						clock = fakeclock.New()
						sc.options(&opts, clock)
					}
					sc.run(t, env{ctx: testContext(t), port: newPort(t, impl, opts), variant: v, clock: clock})
				})
			}
		}
	}
}

func wantCode(t *testing.T, err error, want *a2aport.Error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error = %v (code %q), want code %s", err, a2aport.CodeOf(err), want.Code)
	}
}

var scenarios = []scenario{
	{name: "complete", run: func(t *testing.T, e env) {
		w := newWork("alice", "complete hello there")
		out, events, err := e.submit(t, w)
		if err != nil {
			t.Fatalf("Submit() error = %v", err)
		}
		want := a2aport.Outcome{Content: "done\n\necho: complete hello there", Artifacts: []a2aport.Artifact{
			{ID: "result", Name: "result", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "echo: complete hello there"}}},
		}}
		if !reflect.DeepEqual(out, want) {
			t.Errorf("Submit() = %+v, want %+v", out, want)
		}
		for _, ev := range events {
			if ev.WorkID != w.ID || ev.OwnerID != w.OwnerID {
				t.Errorf("event %+v carries task %q owner %q, want %q %q", ev, ev.WorkID, ev.OwnerID, w.ID, w.OwnerID)
			}
		}
		if last := events[len(events)-1]; last.Type != a2aport.EventActivity || last.State != a2aport.StateCompleted {
			t.Errorf("last event = %+v, want completed activity", last)
		}
		if countType(events, a2aport.EventArtifact) != 1 {
			t.Errorf("artifact events = %d, want 1 (once per artifact and change)", countType(events, a2aport.EventArtifact))
		}
	}},
	{name: "padded", run: func(t *testing.T, e env) {
		// The content is the answer trimmed; the artifact keeps its white space. In the module the
		// content crosses as a reference to the artifact's text (abi.Sent.Outcome): the host's
		// trim of it must give what the adapter computed.
		out, _, err := e.submit(t, newWork("alice", "padded the answer"))
		if err != nil {
			t.Fatalf("Submit() error = %v", err)
		}
		want := a2aport.Outcome{Content: "the answer", Artifacts: []a2aport.Artifact{
			{ID: "answer", Name: "answer", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "\n\u3000 the answer \n"}}},
		}}
		if !reflect.DeepEqual(out, want) {
			t.Errorf("Submit() = %+v, want %+v", out, want)
		}
	}},
	{name: "chunks", run: func(t *testing.T, e env) {
		out, events, err := e.submit(t, newWork("alice", "chunks 5"))
		if err != nil {
			t.Fatalf("Submit() error = %v", err)
		}
		if len(out.Artifacts) != 1 || out.Artifacts[0].Parts[0].Text != "part-1 part-2 part-3 part-4 part-5 " {
			t.Fatalf("artifacts = %+v, want one report with the five chunks merged in order", out.Artifacts)
		}
		// Streamed chunks arrive in order, each event a longer prefix of the final text.
		prev := ""
		for _, ev := range events {
			if ev.Type != a2aport.EventArtifact {
				continue
			}
			text := ev.Artifact.Parts[0].Text
			if !strings.HasPrefix(text, prev) || text == prev {
				t.Errorf("artifact event %q does not extend %q", text, prev)
			}
			prev = text
		}
		if e.variant.Streaming && countType(events, a2aport.EventArtifact) != 5 {
			t.Errorf("streamed artifact events = %d, want 5", countType(events, a2aport.EventArtifact))
		}
	}},
	{name: "fail", run: func(t *testing.T, e env) {
		_, _, err := e.submit(t, newWork("alice", "fail now"))
		wantCode(t, err, a2aport.ErrTaskFailed)
		if !strings.Contains(err.Error(), "the agent failed on purpose") {
			t.Errorf("error = %q, want the agent's status text", err)
		}
	}},
	{name: "reject", run: func(t *testing.T, e env) {
		_, _, err := e.submit(t, newWork("alice", "reject this"))
		wantCode(t, err, a2aport.ErrTaskRejected)
		if !strings.Contains(err.Error(), "the agent rejected the request") {
			t.Errorf("error = %q, want the agent's status text", err)
		}
	}},
	{name: "message-only", run: func(t *testing.T, e env) {
		out, events, err := e.submit(t, newWork("alice", "message please"))
		if err != nil {
			t.Fatalf("Submit() error = %v", err)
		}
		want := a2aport.Outcome{Content: "plain reply", Artifacts: []a2aport.Artifact{{Name: "message",
			Parts: []a2aport.Part{{Type: a2aport.PartData, Data: map[string]any{"kind": "message"}}}}}, MessageReply: true}
		if len(out.Artifacts) == 1 {
			want.Artifacts[0].ID = out.Artifacts[0].ID
		}
		if !reflect.DeepEqual(out, want) {
			t.Errorf("Submit() = %+v, want %+v", out, want)
		}
		if countType(events, a2aport.EventMessage) != 1 {
			t.Errorf("message events = %d, want 1", countType(events, a2aport.EventMessage))
		}
		for _, ev := range events {
			if ev.Type == a2aport.EventActivity && ev.State == a2aport.StateSubmitted {
				t.Errorf("a Work the agent answered with a message, and made no task for, says submitted: %+v", ev)
			}
		}
	}},
	{name: "artifacts", run: func(t *testing.T, e env) {
		out, _, err := e.submit(t, newWork("alice", "artifacts all kinds"))
		if err != nil {
			t.Fatalf("Submit() error = %v", err)
		}
		want := []a2aport.Artifact{
			{ID: "a-text", Name: "notes", Description: "text part", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "hello artifacts"}}},
			{ID: "a-raw", Name: "bytes", Parts: []a2aport.Part{{Type: a2aport.PartRaw, Raw: []byte{0, 1, 2, 3, 255}, MediaType: "application/octet-stream", Filename: "bytes.bin"}}},
			{ID: "a-url", Name: "link", Parts: []a2aport.Part{{Type: a2aport.PartURL, URL: "https://example.com/report.pdf", MediaType: "application/pdf", Filename: "report.pdf"}}},
			{ID: "a-data", Name: "data", Parts: []a2aport.Part{{Type: a2aport.PartData, Data: map[string]any{"answer": float64(42), "ok": true}, MediaType: "application/json"}}},
		}
		if e.variant.Version == "0.3" {
			want[3].Parts[0].MediaType = "" // A2A 0.3 data parts carry no media type
		}
		if !reflect.DeepEqual(out.Artifacts, want) {
			t.Errorf("artifacts = %+v\nwant %+v", out.Artifacts, want)
		}
		if out.Content != "done\n\nhello artifacts" {
			t.Errorf("content = %q, want status text plus artifact text", out.Content)
		}
	}},
	{name: "files", run: func(t *testing.T, e env) {
		w := newWork("alice", "files attached")
		w.InputParts = []a2aport.InputPart{
			{Type: "file", URL: "data:text/plain;base64,aGVsbG8=", Filename: "a.txt"},
			{Type: "file", URL: "https://files.test/r.pdf", MIME: "application/pdf", Filename: "r.pdf"},
		}
		out, _, err := e.submit(t, w)
		if err != nil {
			t.Fatalf("Submit() error = %v", err)
		}
		got := out.Artifacts[0].Parts[0].Text
		for _, line := range []string{"raw a.txt text/plain 5", "url https://files.test/r.pdf application/pdf r.pdf"} {
			if !strings.Contains(got, line) {
				t.Errorf("agent saw %q, want a line %q", got, line)
			}
		}
	}},
	{name: "input-required", run: func(t *testing.T, e env) {
		w := newWork("alice", "input needed")
		rec := newRecorder()
		t.Cleanup(func() {
			if t.Failed() {
				for _, ev := range rec.all() {
					t.Logf("event %s %s %q %+v", ev.Type, ev.State, ev.Text, ev.Input)
				}
			}
		})
		done := submitAsync(e.ctx, e.port, w, rec)
		ev, at := rec.waitFor(e.ctx, t, 0, isType(a2aport.EventInputRequested))
		if ev.Input.Kind != a2aport.InputKindInput || ev.Input.Prompt != "What is your name?" || ev.Input.Mode != "text" {
			t.Errorf("input request = %+v, want kind input with the agent's prompt", ev.Input)
		}
		if st := e.port.Status(w.ID, w.OwnerID); st.State != a2aport.StateInputRequired {
			t.Errorf("Status() = %q, want input_required", st.State)
		}
		if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, "no-such-request", a2aport.InputResponse{Text: "x"}); !errors.Is(err, a2aport.ErrInputNotPending) {
			t.Errorf("RespondInput(wrong id) = %v, want INPUT_NOT_PENDING", err)
		}
		if err := e.port.RespondInput(e.ctx, w.ID, "mallory", ev.Input.InputRequestID, a2aport.InputResponse{Text: "x"}); !errors.Is(err, a2aport.ErrWorkNotFound) {
			t.Errorf("RespondInput(other owner) = %v, want WORK_NOT_FOUND", err)
		}
		if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{}); !errors.Is(err, a2aport.ErrInputActionRequired) {
			t.Errorf("RespondInput(empty) = %v, want INPUT_ACTION_REQUIRED", err)
		}
		if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: "again"}); err != nil {
			t.Fatalf("RespondInput() = %v", err)
		}
		if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: "twice"}); !errors.Is(err, a2aport.ErrInputAlreadySubmitted) {
			t.Errorf("RespondInput(repeat) = %v, want INPUT_ALREADY_SUBMITTED", err)
		}
		second, _ := rec.waitFor(e.ctx, t, at+1, isType(a2aport.EventInputRequested))
		if second.Input.Prompt != "What is your name, really?" || second.Input.InputRequestID == ev.Input.InputRequestID {
			t.Errorf("second request = %+v, want a new id and the follow-up prompt", second.Input)
		}
		if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, second.Input.InputRequestID, a2aport.InputResponse{Text: "Ada"}); err != nil {
			t.Fatalf("RespondInput() = %v", err)
		}
		r := await(e.ctx, t, done)
		if r.err != nil || !strings.Contains(r.out.Content, "Hello, Ada!") {
			t.Fatalf("Submit() = %+v, %v; want the greeting", r.out, r.err)
		}
		if countType(rec.all(), a2aport.EventInputResolved) != 2 {
			t.Errorf("input.resolved events = %d, want 2", countType(rec.all(), a2aport.EventInputResolved))
		}
	}},
	{name: "auth-decline", run: func(t *testing.T, e env) {
		_, out, err := answerAuth(t, e, a2aport.InputResponse{Action: a2aport.ActionDecline})
		if err != nil || !strings.Contains(out.Content, "authorization declined") {
			t.Errorf("Submit() = %+v, %v; want the agent to continue with the decline", out, err)
		}
	}},
	{name: "auth-accept", run: func(t *testing.T, e env) {
		_, out, err := answerAuth(t, e, a2aport.InputResponse{Action: a2aport.ActionAccept})
		if err != nil || !strings.Contains(out.Content, "authorized") {
			t.Errorf("Submit() = %+v, %v; want authorized", out, err)
		}
	}},
	{name: "auth-cancel", run: func(t *testing.T, e env) {
		w, _, err := answerAuth(t, e, a2aport.InputResponse{Action: a2aport.ActionCancel})
		wantCode(t, err, a2aport.ErrWorkCancelled)
		if !server.Cancelled(w.Instruction) {
			t.Error("cancelling an authorization request did not cancel the remote task")
		}
	}},
	{name: "cancel", run: func(t *testing.T, e env) {
		w := newWork("alice", "hold cancel "+e.variant.Name()+" "+t.Name())
		rec := newRecorder()
		done := submitAsync(e.ctx, e.port, w, rec)
		if err := server.WaitStarted(e.ctx, w.Instruction); err != nil {
			t.Fatal(err)
		}
		rec.waitFor(e.ctx, t, 0, func(ev a2aport.Event) bool { return ev.State == a2aport.StateWorking })
		if _, err := e.port.Cancel(e.ctx, w.ID, "mallory"); !errors.Is(err, a2aport.ErrWorkNotFound) {
			t.Errorf("Cancel(other owner) = %v, want WORK_NOT_FOUND", err)
		}
		res, err := e.port.Cancel(e.ctx, w.ID, w.OwnerID)
		if err != nil || res != (a2aport.CancelResult{WorkID: w.ID, State: a2aport.StateCancelled}) {
			t.Fatalf("Cancel() = %+v, %v", res, err)
		}
		wantCode(t, await(e.ctx, t, done).err, a2aport.ErrWorkCancelled)
		if !server.Cancelled(w.Instruction) {
			t.Error("Cancel did not cancel the remote task")
		}
	}},
	{name: "timeout", options: func(o *a2aport.Options, c *fakeclock.Clock) {
		o.Clock, o.Timeout = c, time.Minute
	}, run: func(t *testing.T, e env) {
		w := newWork("alice", "hold timeout "+e.variant.Name()+" "+t.Name())
		rec := newRecorder()
		done := submitAsync(e.ctx, e.port, w, rec)
		// Advance once the adapter knows the remote task: streaming shows it working, polling
		// arms its interval (a second timer beside the Work's timeout) after the send returned.
		if err := server.WaitStarted(e.ctx, w.Instruction); err != nil {
			t.Fatal(err)
		}
		if e.variant.Streaming {
			rec.waitFor(e.ctx, t, 0, func(ev a2aport.Event) bool { return ev.State == a2aport.StateWorking })
		} else if err := e.clock.WaitTimers(e.ctx, 2); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(time.Minute)
		wantCode(t, await(e.ctx, t, done).err, a2aport.ErrTimeout)
		if !server.Cancelled(w.Instruction) {
			t.Error("a timed-out Work did not cancel its remote task")
		}
	}},
	{name: "stream-cut-falls-back-to-polling", streamingOnly: true, run: func(t *testing.T, e env) {
		out, _, err := e.submit(t, newWork("alice", "cutstream please"))
		if err != nil || !strings.Contains(out.Content, "after cut") {
			t.Fatalf("Submit() = %+v, %v; want the outcome found by polling", out, err)
		}
	}},
	{name: "stream-break-recovers", streamingOnly: true, run: func(t *testing.T, e env) {
		// The connection drops after 3 of 12 chunks while the task carries on: the Work
		// resubscribes and delivers every chunk once, without sending the message again.
		checkRecovered(t, e, "breakstream please")
	}},
	{name: "stream-stall-recovers", streamingOnly: true, options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.StreamIdleTimeout = 200 * time.Millisecond
	}, run: func(t *testing.T, e env) {
		// The stream goes silent after 2 of 12 chunks, its connection open: past the idle limit
		// the Work resubscribes, as for a broken one.
		checkRecovered(t, e, "stallstream please")
	}},
	{name: "stream-stall-found-by-probe", streamingOnly: true, options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.StreamProbeInterval = 200 * time.Millisecond // the idle timeout stays at its 60 s default
	}, run: func(t *testing.T, e env) {
		// The same silent stream, found dead by the probe: the task moved on, the stream did not.
		checkRecovered(t, e, "stallstream probed")
	}},
	{name: "quiet-agent-is-kept", streamingOnly: true, options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.StreamProbeInterval = 100 * time.Millisecond
	}, run: func(t *testing.T, e env) {
		// The agent thinks for 1.5 s without a word on a healthy stream: the probes find the task
		// where the stream left it, and the stream is kept.
		tp := fmt.Sprintf("00-%032x-%016x-01", workSeq.Add(1), 11)
		rec := newRecorder()
		out, err := e.port.Submit(e.ctx, newWork("alice", "slow 1500 quietly"), a2aport.OnEvent(rec.record), a2aport.Traceparent(tp))
		if err != nil || !strings.Contains(out.Content, "slow done") {
			t.Fatalf("Submit() = %+v, %v", out, err)
		}
		for _, ev := range rec.all() {
			if ev.Reconnecting {
				t.Fatalf("a quiet agent on a healthy stream was reconnected: %+v", ev)
			}
		}
		probes := 0
		for _, r := range server.Requests() {
			if r.Header.Get("traceparent") == tp && r.A2AMethod == "GetTask" {
				probes++
			}
			if r.Header.Get("traceparent") == tp && r.A2AMethod == "SubscribeToTask" {
				t.Error("a quiet agent's stream was resubscribed")
			}
		}
		if probes == 0 {
			t.Error("no probe asked for the task while the agent was quiet")
		}
	}},
	{name: "stream-silent-before-first-event", streamingOnly: true, options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.FirstEventTimeout = 300 * time.Millisecond
	}, run: func(t *testing.T, e env) {
		// The message may have reached the agent: its fate is unknown, and it is never sent again.
		_, _, err := e.submit(t, newWork("alice", "stallfirst please"))
		wantCode(t, err, a2aport.ErrOutcomeUnknown)
		if !strings.Contains(err.Error(), "sent no event within") {
			t.Errorf("error = %v, want it to say the stream sent nothing", err)
		}
		if ae := (*a2aport.Error)(nil); errors.As(err, &ae) && ae.Retryable {
			t.Errorf("error = %+v: retryable, but the agent may have received the message", ae)
		}
	}},
	{name: "answer-refused-while-releasing-is-sent-again", run: func(t *testing.T, e env) {
		// The agent refuses the answer once ("task execution is already in progress", before
		// executing anything): the adapter sends it again and the Work completes.
		w := newWork("alice", "input needed")
		rec := newRecorder()
		done := submitAsync(e.ctx, e.port, w, rec)
		ev, _ := rec.waitFor(e.ctx, t, 0, isType(a2aport.EventInputRequested))
		answer := fmt.Sprintf("busyanswer %s-%d", w.ID, workSeq.Add(1))
		if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: answer}); err != nil {
			t.Fatal(err)
		}
		r := await(e.ctx, t, done)
		if r.err != nil || !strings.Contains(r.out.Content, "Hello, "+answer+"!") {
			t.Fatalf("Submit() = %+v, %v; want the greeting for the answer sent again", r.out, r.err)
		}
	}},
	{name: "answer-over-the-response-limit", options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.MaxResponseBytes = 64 << 10
	}, run: func(t *testing.T, e env) {
		// One event (streaming) or one GetTask answer (polling) of 100 kB, past a 64 KiB limit.
		_, _, err := e.submit(t, newWork("alice", "big 100000"))
		wantCode(t, err, a2aport.ErrResponseTooLarge)
	}},
	{name: "artifact-over-its-limit", options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.MaxArtifactBytes = 4096
	}, run: func(t *testing.T, e env) {
		_, _, err := e.submit(t, newWork("alice", "big 5000"))
		wantCode(t, err, a2aport.ErrResponseTooLarge)
	}},
	{name: "artifacts-over-the-work-limit", options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.MaxArtifactBytes, o.MaxWorkBytes = 4096, 10_000
	}, run: func(t *testing.T, e env) {
		// Each artifact within its limit, all of them past the Work's.
		_, _, err := e.submit(t, newWork("alice", "many 5 3000"))
		wantCode(t, err, a2aport.ErrResponseTooLarge)
		if !strings.Contains(err.Error(), "MaxWorkBytes") {
			t.Errorf("error = %v, want it to name MaxWorkBytes", err)
		}
		if out, _, err := e.submit(t, newWork("alice", "many 3 3000")); err != nil || len(out.Artifacts) != 3 {
			t.Errorf("within the limits: %d artifacts, %v", len(out.Artifacts), err)
		}
	}},
	{name: "send-dropped-outcome-unknown", run: func(t *testing.T, e env) {
		// The agent got the message, the connection dropped before any answer: the adapter cannot
		// know what became of it, says so, and does not invite a retry.
		_, _, err := e.submit(t, newWork("alice", "dropsend please"))
		wantCode(t, err, a2aport.ErrOutcomeUnknown)
		if ae := (*a2aport.Error)(nil); errors.As(err, &ae) && ae.Retryable {
			t.Errorf("error = %+v: retryable, but a retry could start the work twice", ae)
		}
	}},
	{name: "stream-refused-with-json-rpc-error", streamingOnly: true, run: func(t *testing.T, e env) {
		if e.variant.Binding != "JSONRPC" {
			t.Skip("a JSON-RPC error response is a JSON-RPC binding's")
		}
		_, _, err := e.submit(t, newWork("alice", "rpcerror please"))
		wantCode(t, err, a2aport.ErrProtocolError)
		if !strings.Contains(err.Error(), "streaming is switched off today") {
			t.Errorf("error = %v, want the agent's own message", err)
		}
	}},
	{name: "stream-unsupported-falls-back-to-send", streamingOnly: true, run: func(t *testing.T, e env) {
		out, _, err := e.submit(t, newWork("alice", "nostream please"))
		if err != nil || out.Content != "done\n\necho: nostream please" {
			t.Fatalf("Submit() = %+v, %v; want the task completed through a plain send", out, err)
		}
	}},
	{name: "empty-stream", streamingOnly: true, run: func(t *testing.T, e env) {
		_, _, err := e.submit(t, newWork("alice", "emptystream please"))
		wantCode(t, err, a2aport.ErrInvalidResponse)
	}},
	{name: "http-refusals", run: func(t *testing.T, e env) {
		// A send refused before the agent: A2A_HTTP_ERROR with the status, A2A_AUTH_REQUIRED for
		// 401 and 403; retryable only where a later try may succeed (429), and never retried by
		// the adapter.
		for _, c := range []struct {
			status    int
			code      *a2aport.Error
			retryable bool
		}{{401, a2aport.ErrAuthRequired, false}, {403, a2aport.ErrAuthRequired, false}, {404, a2aport.ErrHTTPError, false}, {429, a2aport.ErrHTTPError, true}} {
			_, _, err := e.submit(t, newWork("alice", fmt.Sprintf("status%d please", c.status)))
			wantCode(t, err, c.code)
			if ae := (*a2aport.Error)(nil); errors.As(err, &ae) && (ae.Status != c.status || ae.Retryable != c.retryable) {
				t.Errorf("error = %+v, want status %d, retryable %v", ae, c.status, c.retryable)
			}
		}
		out, _, err := e.submit(t, newWork("alice", "complete after refusals"))
		if err != nil || !strings.Contains(out.Content, "echo: complete after refusals") {
			t.Errorf("the next Work: %+v, %v", out, err)
		}
	}},
	{name: "answers-that-are-not-a2a", run: func(t *testing.T, e env) {
		for _, instruction := range []string{"badjson please", "wrongtype please"} {
			_, _, err := e.submit(t, newWork("alice", instruction))
			wantCode(t, err, a2aport.ErrInvalidResponse)
		}
	}},
	{name: "slow-drip-is-not-cut", streamingOnly: true, options: func(o *a2aport.Options, _ *fakeclock.Clock) {
		o.StreamIdleTimeout = time.Second
	}, run: func(t *testing.T, e env) {
		// Every event arrives in pieces, far apart but each gap well under the idle limit: a slow,
		// healthy stream completes without a reconnection.
		out, events, err := e.submit(t, newWork("alice", "slowdrip please"))
		if err != nil || len(out.Artifacts) != 1 || out.Artifacts[0].Parts[0].Text != pacedReport(12) {
			t.Fatalf("Submit() = %+v, %v; want the whole report", out, err)
		}
		for _, ev := range events {
			if ev.Reconnecting {
				t.Fatal("a slow but healthy stream was recovered as a broken one")
			}
		}
	}},
	{name: "repeated-status-updates", streamingOnly: true, run: func(t *testing.T, e env) {
		// A relay that sends every status update twice: each state shows once, the Work completes.
		out, events, err := e.submit(t, newWork("alice", "dupstatus please"))
		if err != nil || !strings.Contains(out.Content, "echo: dupstatus please") {
			t.Fatalf("Submit() = %+v, %v", out, err)
		}
		var states []a2aport.WorkState
		for _, ev := range events {
			if ev.Type == a2aport.EventActivity {
				states = append(states, ev.State)
			}
		}
		if want := []a2aport.WorkState{a2aport.StateSubmitted, a2aport.StateWorking, a2aport.StateCompleted}; !slices.Equal(states, want) {
			t.Errorf("activity states %v, want %v, once each", states, want)
		}
	}},
	{name: "http-500", run: func(t *testing.T, e env) {
		_, _, err := e.submit(t, newWork("alice", "status500 please"))
		wantCode(t, err, a2aport.ErrHTTPError)
		var ae *a2aport.Error
		if errors.As(err, &ae); ae.Status != 500 || !ae.Retryable || !strings.Contains(ae.Message, "agent exploded") {
			t.Errorf("error = %+v, want status 500, retryable, body summary", ae)
		}
	}},
}

// checkRecovered runs a Work whose stream fails after a few chunks of a 12-chunk report while the
// task carries on, and checks that it completes with every chunk delivered once, after one send
// and a resubscription.
func checkRecovered(t *testing.T, e env, instruction string) {
	t.Helper()
	tp := fmt.Sprintf("00-%032x-%016x-01", workSeq.Add(1), 9)
	rec := newRecorder()
	out, err := e.port.Submit(e.ctx, newWork("alice", instruction), a2aport.OnEvent(rec.record), a2aport.Traceparent(tp))
	want := pacedReport(12)
	if err != nil || len(out.Artifacts) != 1 || out.Artifacts[0].Parts[0].Text != want {
		t.Fatalf("Submit() = %+v, %v; want the whole report", out, err)
	}
	checkStreamedOnce(t, rec.all(), want)
	var methods []string
	for _, r := range server.Requests() {
		if r.Header.Get("traceparent") == tp && r.A2AMethod != "" {
			methods = append(methods, r.A2AMethod)
		}
	}
	if sends := slices.DeleteFunc(slices.Clone(methods), func(m string) bool { return m != "SendStreamingMessage" }); len(sends) != 1 ||
		!slices.Contains(methods, "SubscribeToTask") {
		t.Errorf("requests of the Work: %v; want one send and a resubscription", methods)
	}
}

// pacedReport is the text of the test agent's paced report of n chunks.
func pacedReport(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "part-%d ", i)
	}
	return b.String()
}

// checkStreamedOnce checks that a Work's artifact events grew its one artifact to want, each
// showing more than the one before (nothing delivered twice), that the Work said it was
// reconnecting and then that it was back, once for each break, and that no activity it showed
// came again after a recovery.
func checkStreamedOnce(t *testing.T, events []a2aport.Event, want string) {
	t.Helper()
	checkNoRepeats(t, events)
	shown, reconnecting := "", false
	for _, ev := range events {
		switch {
		case ev.Type == a2aport.EventArtifact:
			text := ev.Artifact.Parts[0].Text
			if len(text) <= len(shown) || !strings.HasPrefix(text, shown) {
				t.Fatalf("artifact event shows %q after %q: a chunk delivered twice or lost", text, shown)
			}
			if ev.Delta != nil && shown+ev.Delta.Text != text {
				t.Fatalf("delta %q does not take %q to %q", ev.Delta.Text, shown, text)
			}
			shown = text
		case ev.Type == a2aport.EventActivity && ev.Reconnecting:
			reconnecting = true
		}
	}
	if shown != want {
		t.Errorf("artifact events end at %q, want %q", shown, want)
	}
	if !reconnecting {
		t.Error("no activity event said the Work was reconnecting")
	}
}

// answerAuth submits an auth scenario and answers its authorization request with resp.
func answerAuth(t *testing.T, e env, resp a2aport.InputResponse) (a2aport.Work, a2aport.Outcome, error) {
	t.Helper()
	w := newWork("alice", "auth calendar "+t.Name())
	rec := newRecorder()
	done := submitAsync(e.ctx, e.port, w, rec)
	ev, _ := rec.waitFor(e.ctx, t, 0, isType(a2aport.EventInputRequested))
	if ev.Input.Kind != a2aport.InputKindAuthorization || ev.Input.Prompt != "Please authorize access to the calendar" {
		t.Errorf("request = %+v, want an authorization request with the agent's prompt", ev.Input)
	}
	if st := e.port.Status(w.ID, w.OwnerID); st.State != a2aport.StateAuthRequired {
		t.Errorf("Status() = %q, want auth_required", st.State)
	}
	if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: "ok"}); !errors.Is(err, a2aport.ErrInputActionRequired) {
		t.Errorf("RespondInput(no action) = %v, want INPUT_ACTION_REQUIRED", err)
	}
	if err := e.port.RespondInput(e.ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, resp); err != nil {
		t.Fatalf("RespondInput(%+v) = %v", resp, err)
	}
	r := await(e.ctx, t, done)
	return w, r.out, r.err
}

func countType(events []a2aport.Event, typ string) int {
	n := 0
	for _, ev := range events {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

// checkNoRepeats fails when an activity or message event shows what an earlier one of the Work
// already showed (the agent's snapshot after a reconnection re-applied), or when a reconnection
// notice is not answered by one Reconnected before the Work ends.
func checkNoRepeats(t *testing.T, events []a2aport.Event) {
	t.Helper()
	type shown struct {
		typ   string
		state a2aport.WorkState
		text  string
	}
	seen := map[shown]bool{}
	open := 0
	for i, ev := range events {
		switch {
		case ev.Reconnecting:
			open++
		case ev.Reconnected:
			if open != 1 {
				t.Errorf("event %d says reconnected with %d breaks open", i, open)
			}
			open = 0
		case ev.Type == a2aport.EventActivity || ev.Type == a2aport.EventMessage:
			k := shown{ev.Type, ev.State, ev.Text}
			if seen[k] {
				t.Errorf("event %d repeats %+v, which the Work already showed", i, k)
			}
			seen[k] = true
		}
	}
	if open > 1 {
		t.Errorf("%d reconnection notices for one break", open)
	}
}
