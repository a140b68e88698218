package conformance

import (
	"context"
	"os"

	"github.com/a2aport/a2aport/adapter"
)

// mutant breaks one behaviour of a real Port, chosen by $MUTATION. Scratch only.
type mutant struct {
	adapter.Port
	m string
}

func (p mutant) Describe() adapter.Description {
	d := p.Port.Describe()
	if p.m == "transport" {
		d.Transport = "GRPC"
	}
	return d
}

func (p mutant) Submit(ctx context.Context, w adapter.Work, opts ...adapter.SubmitOption) (adapter.Outcome, error) {
	on := adapter.ApplySubmitOptions(opts...)
	switch p.m {
	case "remote-id":
		return p.Port.Submit(ctx, w, adapter.OnEvent(func(e adapter.Event) {
			e.TaskID = "remote-" + e.TaskID
			if on != nil {
				on(e)
			}
		}))
	case "no-validation":
		if w.ID == "" {
			return adapter.Outcome{Content: "x"}, nil
		}
	case "dup-ok":
		if p.Port.Status(w.ID, w.OwnerID).State == adapter.StateWorking {
			<-ctx.Done()
			return adapter.Outcome{}, ctx.Err()
		}
	}
	return p.Port.Submit(ctx, w, opts...)
}

func (p mutant) Cancel(ctx context.Context, id, owner string) (adapter.CancelResult, error) {
	if p.m == "cancel-any-owner" {
		return p.Port.Cancel(ctx, id, "o")
	}
	return p.Port.Cancel(ctx, id, owner)
}

func (p mutant) Subscribe(l func(adapter.Event)) func() {
	un := p.Port.Subscribe(l)
	if p.m == "unsubscribe-noop" {
		return func() {}
	}
	if p.m == "listener-panics-propagate" {
		un()
		return p.Port.Subscribe(func(e adapter.Event) { l(e) })
	}
	return un
}

func (p mutant) Close() error {
	if p.m == "close-hangs" {
		select {}
	}
	return p.Port.Close()
}

func mutate(p adapter.Port) adapter.Port {
	if m := os.Getenv("MUTATION"); m != "" {
		return mutant{p, m}
	}
	return p
}
