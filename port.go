package a2aport

import "context"

// Port is the protocol-neutral BackendPort of DESIGN.md §2. *Adapter implements it natively;
// the wazero host implements it by driving the WebAssembly module. Both must behave the same,
// which the conformance suite checks.
type Port interface {
	// Describe reports identity and capabilities. It never blocks and never contains credentials.
	Describe() Description
	// Start discovers the agent. It is idempotent; concurrent calls share one discovery.
	Start(ctx context.Context) (Health, error)
	// Health reports readiness without touching any task.
	Health(ctx context.Context) (Health, error)
	// Submit runs one Work to its single outcome.
	Submit(ctx context.Context, work Work, opts ...SubmitOption) (Outcome, error)
	// Resume re-attaches to a Work a previous adapter left running (Options.WorkStore) and settles
	// it as Submit would have, without sending anything again. An unknown Work, or another
	// owner's, is WORK_NOT_FOUND.
	Resume(ctx context.Context, workID, ownerID string, opts ...SubmitOption) (Outcome, error)
	// Status reports a Work's state for its owner, or the runtime status when workID is empty.
	Status(workID, ownerID string) Status
	// Cancel cancels an owner's active Work.
	Cancel(ctx context.Context, workID, ownerID string) (CancelResult, error)
	// RespondInput answers a pending input or authorization request.
	RespondInput(ctx context.Context, workID, ownerID, inputRequestID string, response InputResponse) error
	// RespondAuthorization always fails with A2A_AUTHORIZATION_UNSUPPORTED: A2A has no universal approval semantics.
	RespondAuthorization(ctx context.Context, workID, ownerID, inputRequestID string, response InputResponse) error
	// Subscribe registers a listener for every event of every Work and returns its unsubscribe function.
	Subscribe(listener func(Event)) (unsubscribe func())
	// Close cancels active Works (bounded), rejects pending submits and clears listeners and contexts.
	Close() error
	// Detach stops like Close but leaves active Works running at the agent with their WorkStore
	// records, for Resume in another adapter; pending submits fail with WORK_DETACHED.
	Detach() error
}

// SubmitOption configures one Submit call.
type SubmitOption func(*SubmitConfig)

// SubmitConfig is what the options of one Submit call say.
type SubmitConfig struct {
	// OnEvent receives the Work's events (OnEvent).
	OnEvent func(Event)
	// Traceparent is the W3C trace context sent with the Work's requests (Traceparent).
	Traceparent string
}

// OnEvent receives the events of this one Work, in order, in addition to subscribed listeners.
func OnEvent(listener func(Event)) SubmitOption {
	return func(c *SubmitConfig) { c.OnEvent = listener }
}

// Traceparent sends a W3C trace context ("00-<trace id>-<parent id>-<flags>") in the traceparent
// header of every request of this Work, so a frontend's trace continues into the agent. A value
// that is not one fails Submit with INVALID_WORK.
func Traceparent(traceparent string) SubmitOption {
	return func(c *SubmitConfig) { c.Traceparent = traceparent }
}

// ApplySubmitOptions returns what opts configure: every implementation of Port reads its
// Submit options with it (the wazero host, a Port of your own that the facade serves).
func ApplySubmitOptions(opts ...SubmitOption) SubmitConfig {
	var c SubmitConfig
	for _, o := range opts {
		o(&c)
	}
	return c
}
