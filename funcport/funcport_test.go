package funcport_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/conformance"
	"github.com/a2aport/a2aport/funcport"
)

// TestConformance: a Port built from a function keeps the whole BackendPort contract, checked by
// the suite every Port of the repository passes (the held Work waits for its context).
func TestConformance(t *testing.T) {
	var seq atomic.Int64
	conformance.Run(t, func(t *testing.T, opts conformance.FixtureOptions) conformance.Fixture {
		started := make(chan struct{}, 16)
		port := funcport.New(func(ctx context.Context, w a2aport.Work, turn *funcport.Turn) (a2aport.Outcome, error) {
			if strings.HasPrefix(w.Instruction, "hold") {
				started <- struct{}{}
				<-ctx.Done()
				return a2aport.Outcome{}, ctx.Err()
			}
			turn.AppendText("answer", "answer", "echo: ")
			turn.AppendText("answer", "answer", w.Instruction)
			return a2aport.Outcome{Content: "echo: " + w.Instruction}, nil
		}, funcport.Options{Label: "echo"})
		t.Cleanup(func() { _ = port.Close() })
		instruction := "complete"
		if opts.Hold {
			instruction = "hold"
		}
		next := func() a2aport.Work {
			return a2aport.Work{ID: fmt.Sprintf("work-%d", seq.Add(1)), OwnerID: "owner", Instruction: instruction}
		}
		f := conformance.Fixture{Backend: port, Work: next(), NextWork: next, Local: true}
		if opts.Hold {
			f.Started = func(ctx context.Context) error {
				select {
				case <-started:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		}
		return f
	})
}

// TestAsk: a question is an input request the owner answers with RespondInput; the Work is
// input_required meanwhile, an answer to another request id is INPUT_NOT_PENDING, and the answer
// reaches the function.
func TestAsk(t *testing.T) {
	port := funcport.New(func(ctx context.Context, w a2aport.Work, turn *funcport.Turn) (a2aport.Outcome, error) {
		answer, err := turn.Ask(ctx, "What is your name?")
		if err != nil {
			return a2aport.Outcome{}, err
		}
		return a2aport.Outcome{Content: "Hello, " + answer.Text + "!"}, nil
	}, funcport.Options{})
	defer func() { _ = port.Close() }()
	ctx := context.Background()
	asked := make(chan a2aport.InputRequest, 1)
	done := make(chan error, 1)
	var out a2aport.Outcome
	go func() {
		var err error
		out, err = port.Submit(ctx, a2aport.Work{ID: "w1", OwnerID: "o", Instruction: "greet"}, a2aport.OnEvent(func(ev a2aport.Event) {
			if ev.Type == a2aport.EventInputRequested {
				asked <- *ev.Input
			}
		}))
		done <- err
	}()
	req := <-asked
	if req.Prompt != "What is your name?" || port.Status("w1", "o").State != a2aport.StateInputRequired {
		t.Fatalf("the question %+v, state %s", req, port.Status("w1", "o").State)
	}
	if err := port.RespondInput(ctx, "w1", "o", "another", a2aport.InputResponse{Text: "x"}); a2aport.CodeOf(err) != a2aport.CodeInputNotPending {
		t.Errorf("an answer to another request = %v, want INPUT_NOT_PENDING", err)
	}
	if err := port.RespondInput(ctx, "w1", "o", req.InputRequestID, a2aport.InputResponse{Text: "Ada"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil || out.Content != "Hello, Ada!" {
		t.Errorf("Submit() = %+v, %v", out, err)
	}
}
