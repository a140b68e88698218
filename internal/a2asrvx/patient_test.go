package a2asrvx

import (
	"context"
	"errors"
	"iter"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// The race itself cannot be provoked on demand, so a handler that refuses a set number of times
// stands in for a2asrv here; the agents' own tests exercise the wrapper against the real server.
// refusingHandler refuses the first n sends as a2asrv does while a turn is being released.
type refusingHandler struct {
	a2asrv.RequestHandler
	n     int
	calls int
}

var errInProgress = errors.New("failed to start execution: task execution is already in progress")

func (h *refusingHandler) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	if h.calls++; h.calls <= h.n {
		return nil, errInProgress
	}
	return a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("ok")), nil
}

func (h *refusingHandler) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if h.calls++; h.calls <= h.n {
			yield(nil, errInProgress)
			return
		}
		if yield(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("one")), nil) {
			yield(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("two")), nil)
		}
	}
}

func TestPatientHandler(t *testing.T) {
	t.Parallel()
	answer := &a2a.SendMessageRequest{Message: a2a.NewMessageForTask(a2a.MessageRoleUser, a2a.TaskInfo{TaskID: "t1", ContextID: "c1"}, a2a.NewTextPart("tea and coffee"))}
	first := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))}
	patient := func(h a2asrv.RequestHandler, limit time.Duration) patientHandler {
		return patientHandler{RequestHandler: h, every: time.Millisecond, limit: limit}
	}
	ctx := context.Background()

	h := &refusingHandler{n: 3}
	if _, err := patient(h, time.Second).SendMessage(ctx, answer); err != nil || h.calls != 4 {
		t.Errorf("answer: err %v after %d calls; want success on the 4th", err, h.calls)
	}
	h = &refusingHandler{n: 3}
	if _, err := patient(h, time.Second).SendMessage(ctx, first); !errors.Is(err, errInProgress) || h.calls != 1 {
		t.Errorf("first message: err %v after %d calls; want the refusal, not retried", err, h.calls)
	}
	h = &refusingHandler{n: 1 << 30}
	if _, err := patient(h, 20*time.Millisecond).SendMessage(ctx, answer); !errors.Is(err, errInProgress) {
		t.Errorf("lasting refusal: err %v, want it returned after the limit", err)
	}

	h = &refusingHandler{n: 2}
	var texts []string
	for ev, err := range patient(h, time.Second).SendStreamingMessage(ctx, answer) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		texts = append(texts, ev.(*a2a.Message).Parts[0].Text())
	}
	if len(texts) != 2 || texts[0] != "one" || h.calls != 3 {
		t.Errorf("stream: %q after %d calls; want [one two] on the 3rd", texts, h.calls)
	}
}
