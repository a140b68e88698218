package gateway

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
)

// memoryRoutes are Routes in a map, as a cluster's nodes would share them.
type memoryRoutes struct {
	mu sync.Mutex
	m  map[string]string
}

func (r *memoryRoutes) SetRoute(_ context.Context, workID, backend string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[workID] = backend
	return nil
}

func (r *memoryRoutes) Route(_ context.Context, workID string) (string, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.m[workID]
	return b, ok, nil
}

func (r *memoryRoutes) DeleteRoute(_ context.Context, workID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, workID)
	return nil
}

// TestWorkOfABackendThatLeft: a Work whose route names a backend this node's configuration no
// longer has (a rolling change) ends with A2A_OUTCOME_UNKNOWN naming that backend, its route is
// forgotten, and no other backend is asked; a Work with no route is not found.
func TestWorkOfABackendThatLeft(t *testing.T) {
	port, err := adapter.New(a2aport.Options{AgentCardURL: "http://127.0.0.1:9/.well-known/agent-card.json"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = port.Close() }()
	routes := &memoryRoutes{m: map[string]string{"w1": "gone"}}
	g, err := New(Options{Facade: facade.Options{BaseURL: "http://127.0.0.1:1"}, Backends: []Backend{{Name: "here", Port: port}}, Routes: routes})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.router.Resume(context.Background(), "w1", "owner")
	if !errors.Is(err, a2aport.ErrOutcomeUnknown) || !strings.Contains(err.Error(), `"gone"`) || !strings.Contains(err.Error(), "no longer has") {
		t.Errorf("Resume of a Work on a backend that left = %v, want A2A_OUTCOME_UNKNOWN naming it", err)
	}
	if _, ok, _ := routes.Route(context.Background(), "w1"); ok {
		t.Error("the route of the ended Work is still there")
	}
	if _, err := g.router.Resume(context.Background(), "w2", "owner"); !errors.Is(err, a2aport.ErrWorkNotFound) {
		t.Errorf("Resume of a Work with no route = %v, want WORK_NOT_FOUND", err)
	}
	if res, err := g.router.Cancel(context.Background(), "w2", "owner"); err != nil || res.State != a2aport.StateNotFound {
		t.Errorf("Cancel of a Work with no route = %+v, %v, want not_found", res, err)
	}
}

// TestBackendTextIsPrintable: what a backend's failure says reaches the log and /backends made
// printable: no C1 control (U+009B: a terminal's CSI) and no bidirectional override (U+202E).
func TestBackendTextIsPrintable(t *testing.T) {
	for _, raw := range []string{"evil \u009b31m red", "evil \u202e txt.exe", "not utf-8 \xff"} {
		got := printable(raw, maxLoggedReason)
		for _, r := range got {
			if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || r == utf8.RuneError {
				t.Errorf("printable(%q) = %q keeps %U", raw, got, r)
			}
		}
	}
	if got := printable(strings.Repeat("x", 100), 10); len(got) > 10+len("…") {
		t.Errorf("printable kept %d bytes of a bound of 10", len(got))
	}
}
