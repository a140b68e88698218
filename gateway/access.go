package gateway

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/facade"
)

// AccessRule grants the callers it matches some operations on some backends and skills. A
// gateway with rules takes a request when one rule that matches its caller allows it, and
// refuses everything else with PERMISSION_DENIED; a gateway without rules takes every
// authenticated request.
type AccessRule struct {
	// Callers are caller names (a bearer token's name, "jwt:" and a token's caller claim); "*" or
	// none: any caller.
	Callers []string `yaml:"callers"`
	// Tenants the caller must belong to (its identity's tenant); none: any.
	Tenants []string `yaml:"tenants"`
	// Claims a caller's token must carry, each with one of the values listed: a claim that is a
	// list matches when one of its members does, "scope" by each of its space-separated scopes.
	Claims map[string][]string `yaml:"claims"`
	// Backends the rule allows messages to ("*": all). With neither Backends nor Skills: all.
	Backends []string `yaml:"backends"`
	// Skills (card skill ids, "weather/forecast") a message may name in its "skill" metadata; a
	// message naming no skill reaches only the rule's Backends.
	Skills []string `yaml:"skills"`
	// Operations the rule allows: send, stream, get, list, cancel, subscribe, pushConfig,
	// extendedCard. None: all.
	Operations []string `yaml:"operations"`
}

// operations are the names of A2A operations in rules, by the facade's (A2A 1.0) names.
var operations = map[string]string{
	"SendMessage": "send", "SendStreamingMessage": "stream", "GetTask": "get", "ListTasks": "list",
	"CancelTask": "cancel", "SubscribeToTask": "subscribe",
	"CreateTaskPushNotificationConfig": "pushConfig", "GetTaskPushNotificationConfig": "pushConfig",
	"ListTaskPushNotificationConfigs": "pushConfig", "DeleteTaskPushNotificationConfig": "pushConfig",
	"GetExtendedAgentCard": "extendedCard",
}

func (a AccessRule) check(field string, known map[string]bool, fail func(field, msg string) error) error {
	short := map[string]bool{}
	for _, s := range operations {
		short[s] = true
	}
	for i, op := range a.Operations {
		if !short[op] {
			return fail(fmt.Sprintf("%s.operations[%d]", field, i), "must be send, stream, get, list, cancel, subscribe, pushConfig or extendedCard")
		}
	}
	for i, b := range a.Backends {
		if b != "*" && !known[b] {
			return fail(fmt.Sprintf("%s.backends[%d]", field, i), "names no backend of the catalogue")
		}
	}
	for i, s := range a.Skills {
		if backend, _, _ := strings.Cut(s, "/"); !known[backend] {
			return fail(fmt.Sprintf("%s.skills[%d]", field, i), "must be a skill id of the card: a backend's name, / and the backend's skill id")
		}
	}
	return nil
}

// matches reports whether the rule is about id.
func (a AccessRule) matches(id Identity) bool {
	if len(a.Callers) > 0 && !slices.Contains(a.Callers, "*") && !slices.Contains(a.Callers, id.Caller) {
		return false
	}
	if len(a.Tenants) > 0 && (id.Tenant == "" || !slices.Contains(a.Tenants, id.Tenant)) {
		return false
	}
	for claim, want := range a.Claims {
		if !claimHas(id.Claims[claim], claim, want) {
			return false
		}
	}
	return true
}

// claimHas reports whether a claim's value is, or holds, one of want.
func claimHas(value any, claim string, want []string) bool {
	switch v := value.(type) {
	case string:
		if claim == "scope" {
			return slices.ContainsFunc(strings.Fields(v), func(s string) bool { return slices.Contains(want, s) })
		}
		return slices.Contains(want, v)
	case []any:
		return slices.ContainsFunc(v, func(e any) bool { return claimHas(e, "", want) })
	case bool, float64:
		return slices.Contains(want, fmt.Sprint(v))
	}
	return false
}

func (a AccessRule) allowsOperation(op string) bool {
	return len(a.Operations) == 0 || slices.Contains(a.Operations, operations[op])
}

func (a AccessRule) allowsAllBackends() bool {
	return (len(a.Backends) == 0 && len(a.Skills) == 0) || slices.Contains(a.Backends, "*")
}

// allowsMessage reports whether a message to backend naming skill ("" for none) may pass.
func (a AccessRule) allowsMessage(backend, skill string) bool {
	return a.allowsAllBackends() || slices.Contains(a.Backends, backend) || (skill != "" && slices.Contains(a.Skills, skill))
}

// allowsSkill reports whether the rule lets a caller use the card skill id of backend.
func (a AccessRule) allowsSkill(backend, id string) bool {
	return a.allowsAllBackends() || slices.Contains(a.Backends, backend) || slices.Contains(a.Skills, id)
}

// authorize is the facade's Authorize: the caller's rate, what its rules allow, and for a
// message that starts a task, its backend's rules and rate. Nothing is created before it said yes.
func (g *Gateway) authorize(ctx context.Context, req facade.Request) error {
	id := identityOf(ctx)
	if id.Caller == "" {
		id.Caller = req.Caller
	}
	now := time.Now()
	if wait, ok := g.perCaller.take(id.Caller, now); !ok {
		g.metrics.rateLimited.WithLabelValues("caller", "").Inc()
		return rateLimited("this caller sends too many requests", g.perCaller, wait)
	}
	rules := g.rulesFor(id)
	if rules != nil && !slices.ContainsFunc(rules, func(a AccessRule) bool { return a.allowsOperation(req.Operation) }) {
		return fmt.Errorf("%w: the caller %q may not call %s", facade.ErrForbidden, id.Caller, req.Operation)
	}
	if !req.StartsTask() || (rules == nil && g.perBackend == nil) {
		return nil // no rule or limit asks where the message goes: it is not read here
	}
	msg, work := req.Message()
	if msg == nil { // the server will refuse it too; what cannot be read is not let through
		return a2a.NewError(a2a.ErrInvalidParams, "the message could not be read")
	}
	backend, err := g.router.route(msg, work)
	if err != nil {
		return err
	}
	skill, _ := msg.Metadata["skill"].(string)
	if rules != nil && !slices.ContainsFunc(rules, func(a AccessRule) bool {
		return a.allowsOperation(req.Operation) && a.allowsMessage(backend, skill)
	}) {
		what := "the backend " + quote(backend)
		if skill != "" {
			what = "the skill " + quote(skill)
		}
		return fmt.Errorf("%w: the caller %q may not use %s", facade.ErrForbidden, id.Caller, what)
	}
	if wait, ok := g.perBackend.take(backend, now); !ok {
		g.metrics.rateLimited.WithLabelValues("backend", backend).Inc()
		return rateLimited("the backend "+quote(backend)+" takes no more messages now", g.perBackend, wait)
	}
	return nil
}

// rulesFor are the rules that match id: nil when the gateway has none (everything is allowed),
// empty when none matches (nothing is).
func (g *Gateway) rulesFor(id Identity) []AccessRule {
	if g.opts.Access == nil {
		return nil
	}
	out := []AccessRule{}
	for _, a := range g.opts.Access {
		if a.matches(id) {
			out = append(out, a)
		}
	}
	return out
}

// skillsFor are the card's skills the caller of ctx may use.
func (g *Gateway) skillsFor(ctx context.Context) []a2a.AgentSkill {
	all := g.skills()
	rules := g.rulesFor(identityOf(ctx))
	if rules == nil {
		return all
	}
	out := []a2a.AgentSkill{}
	for _, s := range all {
		backend, _, _ := strings.Cut(s.ID, "/")
		if slices.ContainsFunc(rules, func(a AccessRule) bool { return a.allowsSkill(backend, s.ID) }) {
			out = append(out, s)
		}
	}
	return out
}
