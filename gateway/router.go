package gateway

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/adapter"
)

// router is the one Port the facade serves: each Work goes to its backend's Port, and what is
// asked of a Work later (status, cancel, answers) goes where the Work went.
type router struct {
	g      *Gateway
	mu     sync.Mutex
	chosen map[string]string // work id → backend, from admit until the Work's Submit starts
	works  map[string]string // work id → backend, while the Work runs here
}

var _ adapter.Port = (*router)(nil)

func newRouter(g *Gateway) *router {
	return &router{g: g, chosen: map[string]string{}, works: map[string]string{}}
}

// admit chooses the backend of a message that starts a task, or refuses the message: the Router
// hook, then the skill or backend the message names, then Default.
func (r *router) admit(msg *a2a.Message, work adapter.Work) error {
	name, err := r.route(msg, work)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.chosen[work.ID] = name
	r.mu.Unlock()
	return nil
}

func (r *router) route(msg *a2a.Message, work adapter.Work) (string, error) {
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
	case !g.backends[name].available():
		return "", a2a.NewError(a2a.ErrInvalidParams, "the backend "+quote(name)+" is "+g.backends[name].stateNow()+": the available backends are "+listOr(available))
	}
	return name, nil
}

// Submit implements adapter.Port: the Work runs on the backend admit chose for it (a Work that
// did not come through the facade is routed by its "backend" input and Default).
func (r *router) Submit(ctx context.Context, work adapter.Work, opts ...adapter.SubmitOption) (adapter.Outcome, error) {
	r.mu.Lock()
	name, ok := r.chosen[work.ID]
	delete(r.chosen, work.ID)
	r.mu.Unlock()
	if !ok {
		var err error
		if name, err = r.route(nil, work); err != nil {
			return adapter.Outcome{}, &adapter.Error{Code: adapter.CodeInvalidWork, Message: err.Error()}
		}
	}
	if work.Input["backend"] == name { // addressed to the gateway, not to the backend
		work.Input = maps.Clone(work.Input)
		delete(work.Input, "backend")
		if len(work.Input) == 0 {
			work.Input = nil
		}
	}
	r.mu.Lock()
	r.works[work.ID] = name
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.works, work.ID)
		r.mu.Unlock()
	}()
	start := time.Now()
	out, err := r.g.backends[name].spec.Port.Submit(ctx, work, opts...)
	took := time.Since(start)
	r.g.metrics.work(name, err, took)
	if log := r.g.opts.AccessLog; log != nil {
		log.Info("work", "backend", name, "task", work.ID, "outcome", outcomeOf(err), "duration_ms", took.Milliseconds())
	}
	return out, err
}

// portOf is the Port a Work runs on here, or nil when it runs on none of this process's.
func (r *router) portOf(workID string) adapter.Port {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name, ok := r.works[workID]; ok {
		return r.g.backends[name].spec.Port
	}
	return nil
}

// each asks every available backend in turn until one does not answer WORK_NOT_FOUND: for a
// Work this process did not start (a cluster's other node started it).
func (r *router) each(do func(adapter.Port) error) error {
	for _, name := range r.g.availableNames() {
		if err := do(r.g.backends[name].spec.Port); !errors.Is(err, adapter.ErrWorkNotFound) {
			return err
		}
	}
	return adapter.ErrWorkNotFound
}

// Resume implements adapter.Port.
func (r *router) Resume(ctx context.Context, workID, ownerID string, opts ...adapter.SubmitOption) (adapter.Outcome, error) {
	var out adapter.Outcome
	err := r.each(func(p adapter.Port) error {
		var err error
		out, err = p.Resume(ctx, workID, ownerID, opts...)
		return err
	})
	return out, err
}

// Status implements adapter.Port; the runtime's status ("" work) is ready when any backend is.
func (r *router) Status(workID, ownerID string) adapter.Status {
	if workID == "" {
		st := adapter.Status{State: adapter.RuntimeIdle}
		for _, name := range r.g.order {
			s := r.g.backends[name].spec.Port.Status("", "")
			st.ActiveWorks += s.ActiveWorks
			if s.State == adapter.RuntimeReady {
				st.State, st.Started = adapter.RuntimeReady, true
			}
		}
		return st
	}
	if p := r.portOf(workID); p != nil {
		return p.Status(workID, ownerID)
	}
	return adapter.Status{State: adapter.StateNotFound}
}

// Cancel implements adapter.Port.
func (r *router) Cancel(ctx context.Context, workID, ownerID string) (adapter.CancelResult, error) {
	if p := r.portOf(workID); p != nil {
		return p.Cancel(ctx, workID, ownerID)
	}
	var res adapter.CancelResult
	err := r.each(func(p adapter.Port) error {
		var err error
		res, err = p.Cancel(ctx, workID, ownerID)
		if err == nil && res.State == "not_found" {
			return adapter.ErrWorkNotFound
		}
		return err
	})
	if errors.Is(err, adapter.ErrWorkNotFound) {
		return adapter.CancelResult{State: "not_found"}, nil
	}
	return res, err
}

// RespondInput implements adapter.Port.
func (r *router) RespondInput(ctx context.Context, workID, inputRequestID string, response adapter.InputResponse, ownerID string) error {
	if p := r.portOf(workID); p != nil {
		return p.RespondInput(ctx, workID, inputRequestID, response, ownerID)
	}
	return r.each(func(p adapter.Port) error { return p.RespondInput(ctx, workID, inputRequestID, response, ownerID) })
}

// RespondAuthorization implements adapter.Port.
func (r *router) RespondAuthorization(ctx context.Context, workID, inputRequestID string, response adapter.InputResponse, ownerID string) error {
	if p := r.portOf(workID); p != nil {
		return p.RespondAuthorization(ctx, workID, inputRequestID, response, ownerID)
	}
	return r.each(func(p adapter.Port) error {
		return p.RespondAuthorization(ctx, workID, inputRequestID, response, ownerID)
	})
}

// Describe implements adapter.Port: the gateway's name, and what any of its backends can do.
func (r *router) Describe() adapter.Description {
	d := adapter.Description{Protocol: "a2a", Label: r.g.opts.Facade.Name}
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
		d.Capabilities.Continuity = d.Capabilities.Continuity || c.Continuity
		d.Capabilities.InputModes = union(d.Capabilities.InputModes, c.InputModes)
		d.Capabilities.OutputModes = union(d.Capabilities.OutputModes, c.OutputModes)
	}
	return d
}

// Start implements adapter.Port: the gateway discovers its backends itself (Gateway.Start).
func (r *router) Start(ctx context.Context) (adapter.Health, error) { return r.Health(ctx) }

// Health implements adapter.Port: ready when any backend is available.
func (r *router) Health(context.Context) (adapter.Health, error) {
	if len(r.g.availableNames()) > 0 {
		return adapter.Health{OK: true, Started: true}, nil
	}
	return adapter.Health{Error: "no backend is available"}, nil
}

// Subscribe implements adapter.Port: the events of every backend.
func (r *router) Subscribe(listener func(adapter.Event)) func() {
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

// Close and Detach implement adapter.Port; the gateway closes its backends itself.
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
	if b.reason != "" {
		return b.state + " (" + b.reason + ")"
	}
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
