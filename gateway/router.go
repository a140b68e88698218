package gateway

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"
)

// router is the one Port the facade serves: each Work goes to its backend's Port, and what is
// asked of a Work later (status, cancel, answers) goes where the Work went.
type router struct {
	g      *Gateway
	mu     sync.Mutex
	chosen map[string]choice // work id → backend (and skill), from admit until the Work's Submit starts
	works  map[string]string // work id → backend, while the Work runs (or is resumed) here
}

var _ a2aport.Port = (*router)(nil)

// choice is the backend admit chose for a Work, and the card's skill its message named (known
// only with traces on: the client spans say it).
type choice struct{ backend, skill string }

func newRouter(g *Gateway) *router {
	return &router{g: g, chosen: map[string]choice{}, works: map[string]string{}}
}

// admit chooses the backend of a message that starts a task, or refuses the message: the Router
// hook, then the skill or backend the message names, then Default.
func (r *router) admit(msg *a2a.Message, work a2aport.Work) error {
	name, err := r.route(msg, work)
	if err != nil {
		return err
	}
	chosen := choice{backend: name, skill: r.skillOf(msg, name)}
	r.mu.Lock()
	r.chosen[work.ID] = chosen
	r.mu.Unlock()
	return nil
}

func (r *router) route(msg *a2a.Message, work a2aport.Work) (string, error) {
	g := r.g
	var name string
	if g.opts.Router != nil {
		var err error
		if name, err = g.opts.Router(msg, work); err != nil {
			return "", a2a.NewError(a2a.ErrInvalidParams, err.Error())
		}
	}
	if name == "" && msg != nil {
		if skill, _ := msg.Metadata["skill"].(string); skill != "" {
			if name, _, _ = strings.Cut(skill, "/"); !g.hasSkill(name, skill) {
				return "", a2a.NewError(a2a.ErrInvalidParams, "unknown skill "+quote(skill)+": the card's skills are "+listOr(skillIDs(g.skills())))
			}
		}
	}
	if name == "" && msg != nil {
		name, _ = msg.Metadata["backend"].(string)
	}
	if name == "" {
		name, _ = work.Input["backend"].(string)
	}
	if name == "" {
		name = g.opts.Default
	}
	available := g.availableNames()
	switch {
	case name == "":
		return "", a2a.NewError(a2a.ErrInvalidParams, "the message names no backend (metadata \"skill\" or \"backend\", or a data part's \"backend\"): the backends are "+listOr(available))
	case g.backends[name] == nil:
		return "", a2a.NewError(a2a.ErrInvalidParams, "unknown backend "+quote(name)+": the backends are "+listOr(available))
	case !g.backends[name].available(): // why is the operator's (/backends, the log): it may name the backend's address
		return "", a2a.NewError(a2a.ErrInvalidParams, "the backend "+quote(name)+" is "+g.backends[name].stateNow()+": the available backends are "+listOr(available))
	}
	return name, nil
}

// Submit implements a2aport.Port: the Work runs on the backend admit chose for it (a Work that
// did not come through the facade is routed by its "backend" input and Default). Its route is
// recorded before anything is sent, so that any node of a cluster finds that backend again.
func (r *router) Submit(ctx context.Context, work a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	r.mu.Lock()
	chosen, ok := r.chosen[work.ID]
	name := chosen.backend
	delete(r.chosen, work.ID)
	r.mu.Unlock()
	if !ok {
		var err error
		if name, err = r.route(nil, work); err != nil {
			return a2aport.Outcome{}, &a2aport.Error{Code: a2aport.CodeInvalidWork, Message: err.Error()}
		}
	}
	if work.Input["backend"] == name { // addressed to the gateway, not to the backend
		work.Input = maps.Clone(work.Input)
		delete(work.Input, "backend")
		if len(work.Input) == 0 {
			work.Input = nil
		}
	}
	if routes := r.g.opts.Routes; routes != nil {
		if err := routes.SetRoute(ctx, work.ID, name); err != nil {
			return a2aport.Outcome{}, &a2aport.Error{Code: a2aport.CodeInternal, Retryable: true, Err: err,
				Message: "the gateway could not record which backend runs the Work, so nothing was sent"}
		}
	}
	defer r.track(work.ID, name)()
	ctx = r.traced(ctx, work.ID, chosen.skill)
	start := time.Now()
	out, err := r.g.backends[name].spec.Port.Submit(ctx, work, opts...)
	r.settled(work.ID, err)
	r.g.ended(name, work.ID, err, time.Since(start), false)
	return out, forCaller(name, err)
}

// track notes that workID runs on backend name in this process, until the returned func.
func (r *router) track(workID, name string) (untrack func()) {
	r.mu.Lock()
	r.works[workID] = name
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.works, workID)
		r.mu.Unlock()
	}
}

// settled forgets the route of a Work that ended here. A detached Work goes on at its agent for
// another node, and one this Port did not find or already runs is not this call's to end.
func (r *router) settled(workID string, err error) {
	routes := r.g.opts.Routes
	if routes == nil || errors.Is(err, a2aport.ErrWorkDetached) || errors.Is(err, a2aport.ErrWorkNotFound) || errors.Is(err, a2aport.ErrWorkAlreadyActive) {
		return
	}
	_ = routes.DeleteRoute(context.Background(), workID) // a route left behind names an ended Work: Resume finds no record
}

// backendOf is the backend a Work runs on: in this process, else as its route says (a Work
// another node of a cluster started). No other backend is ever asked about it: a backend sees
// only its own tasks and the answers meant for them.
func (r *router) backendOf(ctx context.Context, workID string) (string, error) {
	r.mu.Lock()
	name, ok := r.works[workID]
	r.mu.Unlock()
	if ok {
		return name, nil
	}
	routes := r.g.opts.Routes
	if routes == nil {
		return "", &a2aport.Error{Code: a2aport.CodeWorkNotFound, Message: fmt.Sprintf("work %q does not run on this gateway", workID)}
	}
	name, ok, err := routes.Route(ctx, workID)
	switch {
	case err != nil:
		return "", &a2aport.Error{Code: a2aport.CodeInternal, Retryable: true, Err: err, Message: "the gateway could not read which backend runs the Work"}
	case !ok:
		return "", &a2aport.Error{Code: a2aport.CodeWorkNotFound, Message: fmt.Sprintf("work %q: no backend is recorded for it", workID)}
	case r.g.backends[name] == nil:
		return name, &a2aport.Error{Code: a2aport.CodeOutcomeUnknown, Message: fmt.Sprintf(
			"the Work ran on the backend %q, which this gateway's configuration no longer has: whether it finished there is not known", name)}
	}
	return name, nil
}

// Resume implements a2aport.Port: a Work another node started is re-attached at its own backend
// (a takeover, or a cancel or answer that reached this node).
func (r *router) Resume(ctx context.Context, workID, ownerID string, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	name, err := r.backendOf(ctx, workID)
	if err != nil {
		if name != "" { // its backend left the configuration: the Work ends here, saying so
			r.settled(workID, err)
			r.g.ended(name, workID, err, 0, true)
		}
		return a2aport.Outcome{}, err
	}
	defer r.track(workID, name)()
	r.g.opts.Logger.Info("work resumed", "backend", name, "task", workID)
	start := time.Now()
	out, err := r.g.backends[name].spec.Port.Resume(ctx, workID, ownerID, opts...)
	r.settled(workID, err)
	r.g.ended(name, workID, err, time.Since(start), true)
	return out, forCaller(name, err)
}

// Status implements a2aport.Port; the runtime's status ("" work) is ready when any backend is.
func (r *router) Status(workID, ownerID string) a2aport.Status {
	if workID == "" {
		st := a2aport.Status{State: a2aport.RuntimeIdle}
		for _, name := range r.g.order {
			s := r.g.backends[name].spec.Port.Status("", "")
			st.ActiveWorks += s.ActiveWorks
			if s.State == a2aport.RuntimeReady {
				st.State, st.Started = a2aport.RuntimeReady, true
			}
		}
		return st
	}
	r.mu.Lock()
	name, ok := r.works[workID]
	r.mu.Unlock()
	if ok {
		return r.g.backends[name].spec.Port.Status(workID, ownerID)
	}
	return a2aport.Status{State: a2aport.StateNotFound}
}

// Cancel implements a2aport.Port.
func (r *router) Cancel(ctx context.Context, workID, ownerID string) (a2aport.CancelResult, error) {
	name, err := r.backendOf(ctx, workID)
	if errors.Is(err, a2aport.ErrWorkNotFound) {
		return a2aport.CancelResult{State: a2aport.StateNotFound}, nil
	}
	if err != nil {
		return a2aport.CancelResult{}, err
	}
	return r.g.backends[name].spec.Port.Cancel(r.traced(ctx, workID, ""), workID, ownerID)
}

// RespondInput implements a2aport.Port.
func (r *router) RespondInput(ctx context.Context, workID, ownerID, inputRequestID string, response a2aport.InputResponse) error {
	name, err := r.backendOf(ctx, workID)
	if err != nil {
		return err
	}
	return r.g.backends[name].spec.Port.RespondInput(ctx, workID, ownerID, inputRequestID, response)
}

// RespondAuthorization implements a2aport.Port.
func (r *router) RespondAuthorization(ctx context.Context, workID, ownerID, inputRequestID string, response a2aport.InputResponse) error {
	name, err := r.backendOf(ctx, workID)
	if err != nil {
		return err
	}
	return r.g.backends[name].spec.Port.RespondAuthorization(ctx, workID, ownerID, inputRequestID, response)
}

// Describe implements a2aport.Port: the gateway's name, and what any of its backends can do.
func (r *router) Describe() a2aport.Description {
	d := a2aport.Description{Protocol: "a2a", Label: r.g.opts.Facade.Name}
	if d.Label == "" {
		d.Label = "gateway"
	}
	for _, name := range r.g.order {
		b := r.g.backends[name]
		if b.spec.Disabled {
			continue
		}
		c := b.spec.Port.Describe().Capabilities
		d.Discovered = d.Discovered || b.available()
		d.Capabilities.Cancel = d.Capabilities.Cancel || c.Cancel
		d.Capabilities.Streaming = d.Capabilities.Streaming || c.Streaming
		d.Capabilities.InputRequests = d.Capabilities.InputRequests || c.InputRequests
		d.Capabilities.MessageReplies = d.Capabilities.MessageReplies || c.MessageReplies
		d.Capabilities.Continuity = d.Capabilities.Continuity || c.Continuity
		d.Capabilities.InputModes = union(d.Capabilities.InputModes, c.InputModes)
		d.Capabilities.OutputModes = union(d.Capabilities.OutputModes, c.OutputModes)
	}
	return d
}

// Start implements a2aport.Port: the gateway discovers its backends itself (Gateway.Start).
func (r *router) Start(ctx context.Context) (a2aport.Health, error) { return r.Health(ctx) }

// Health implements a2aport.Port: ready when any backend is available.
func (r *router) Health(context.Context) (a2aport.Health, error) {
	if len(r.g.availableNames()) > 0 {
		return a2aport.Health{OK: true, Started: true}, nil
	}
	return a2aport.Health{Error: "no backend is available"}, nil
}

// Subscribe implements a2aport.Port: the events of every backend.
func (r *router) Subscribe(listener func(a2aport.Event)) func() {
	var stops []func()
	for _, name := range r.g.order {
		stops = append(stops, r.g.backends[name].spec.Port.Subscribe(listener))
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// Close and Detach implement a2aport.Port; the gateway closes its backends itself.
func (r *router) Close() error  { return nil }
func (r *router) Detach() error { return nil }

// availableNames are the available backends, in catalogue order.
func (g *Gateway) availableNames() []string {
	var out []string
	for _, name := range g.order {
		if g.backends[name].available() {
			out = append(out, name)
		}
	}
	return out
}

func (g *Gateway) hasSkill(name, id string) bool {
	return slices.Contains(skillIDs(g.skills()), id) && g.backends[name] != nil
}

func (b *backend) stateNow() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

func skillIDs(skills []a2a.AgentSkill) []string {
	ids := make([]string, len(skills))
	for i, s := range skills {
		ids[i] = s.ID
	}
	return ids
}

func union(a, b []string) []string {
	for _, v := range b {
		if !slices.Contains(a, v) {
			a = append(a, v)
		}
	}
	return a
}

func quote(s string) string { return `"` + s + `"` }

func listOr(names []string) string {
	if len(names) == 0 {
		return "none (no backend is available)"
	}
	return strings.Join(names, ", ")
}
