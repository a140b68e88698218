package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
)

// These tests check the suite's own helpers; the suite itself runs against real Ports in their
// packages' tests.

// Every check of checks.json has a Go implementation and every implementation a place in the
// table, each name once, without spaces or slashes, with what it asserts said.
func TestEveryCheckOfTheTableIsImplemented(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, g := range contract.Groups {
		if g.Name == "" || g.Contract == "" || len(g.Checks) == 0 {
			t.Errorf("group %q: want a name, a contract and at least one check", g.Name)
		}
		for _, c := range g.Checks {
			name := g.Name + "/" + c.Name
			switch {
			case c.Name == "" || strings.ContainsAny(c.Name, " /") || c.Contract == "":
				t.Errorf("check %q: want a name without spaces or slashes and a contract", name)
			case seen[name]:
				t.Errorf("check %q is listed twice", name)
			case implementations[name] == nil:
				t.Errorf("check %q has no Go implementation", name)
			}
			seen[name] = true
		}
	}
	for name := range implementations {
		if !seen[name] {
			t.Errorf("the Go check %q is not in checks.json", name)
		}
	}
	if waitTimeout <= 0 || closeTimeout <= 0 || invalidWorkMessage == "" || alreadyActiveMessage == "" || len(activeStates) == 0 || len(eventTypes) == 0 {
		t.Error("checks.json lacks a constant")
	}
}

func TestDiagnoseErr(t *testing.T) {
	t.Parallel()
	invalid := &a2aport.Error{Code: a2aport.CodeInvalidWork, Message: "submit requires task id, owner and input"}
	tests := []struct {
		name   string
		err    error
		want   *a2aport.Error
		substr string
		ok     bool
	}{
		{"nil", nil, a2aport.ErrInvalidWork, "", false},
		{"same code", invalid, a2aport.ErrInvalidWork, "", true},
		{"wrapped", fmt.Errorf("call: %w", invalid), a2aport.ErrInvalidWork, "", true},
		{"message matches", invalid, a2aport.ErrInvalidWork, "requires task id, owner and input", true},
		{"message differs", invalid, a2aport.ErrInvalidWork, "already active", false},
		{"other code", invalid, a2aport.ErrWorkNotFound, "", false},
		{"plain error", fmt.Errorf("requires task id, owner and input"), a2aport.ErrInvalidWork, "", false},
	}
	for _, tt := range tests {
		if got := diagnoseErr(tt.err, tt.want, tt.substr); (got == "") != tt.ok {
			t.Errorf("%s: diagnoseErr(%v, %s, %q) = %q, want ok %t", tt.name, tt.err, tt.want.Code, tt.substr, got, tt.ok)
		}
	}
}

func TestDiagnoseEvents(t *testing.T) {
	t.Parallel()
	a := a2aport.Work{ID: "a", OwnerID: "alice"}
	b := a2aport.Work{ID: "b", OwnerID: "bob"}
	ev := func(typ, task, owner string) a2aport.Event {
		return a2aport.Event{Type: typ, WorkID: task, OwnerID: owner}
	}
	tests := []struct {
		name   string
		events []a2aport.Event
		ok     bool
	}{
		{"none", nil, true},
		{"own", []a2aport.Event{ev(a2aport.EventActivity, "a", "alice"), ev(a2aport.EventMessage, "b", "bob")}, true},
		{"unknown type", []a2aport.Event{ev("task.status", "a", "alice")}, false},
		{"remote id", []a2aport.Event{ev(a2aport.EventActivity, "remote-123", "alice")}, false},
		{"wrong owner", []a2aport.Event{ev(a2aport.EventActivity, "a", "bob")}, false},
		{"no owner", []a2aport.Event{ev(a2aport.EventArtifact, "b", "")}, false},
	}
	for _, tt := range tests {
		if got := diagnoseEvents(tt.events, a, b); (got == "") != tt.ok {
			t.Errorf("%s: diagnoseEvents() = %q, want ok %t", tt.name, got, tt.ok)
		}
	}
}

func TestValidateFixture(t *testing.T) {
	t.Parallel()
	work := a2aport.Work{ID: "w", OwnerID: "o", Instruction: "hi"}
	// The Backend is only compared with nil here, never called.
	var backend a2aport.Port = struct{ a2aport.Port }{}
	nextWork := func() a2aport.Work { return work }
	tests := []struct {
		name string
		f    Fixture
		opts FixtureOptions
		ok   bool
	}{
		{"complete", Fixture{Backend: backend, Work: work, NextWork: nextWork}, FixtureOptions{}, true},
		{"no backend", Fixture{Work: work, NextWork: nextWork}, FixtureOptions{}, false},
		{"no owner", Fixture{Backend: backend, Work: a2aport.Work{ID: "w", Instruction: "hi"}, NextWork: nextWork}, FixtureOptions{}, false},
		{"no input", Fixture{Backend: backend, Work: a2aport.Work{ID: "w", OwnerID: "o"}, NextWork: nextWork}, FixtureOptions{}, false},
		{"no NextWork", Fixture{Backend: backend, Work: work}, FixtureOptions{}, false},
		{"hold without Started", Fixture{Backend: backend, Work: work, NextWork: nextWork}, FixtureOptions{Hold: true}, false},
	}
	for _, tt := range tests {
		if got := validateFixture(tt.f, tt.opts); (got == "") != tt.ok {
			t.Errorf("%s: validateFixture() = %q, want ok %t", tt.name, got, tt.ok)
		}
	}
}
