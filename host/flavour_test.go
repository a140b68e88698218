package host

import (
	"errors"
	"testing"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/tests/agent"
)

// TestModuleFlavourFollowsTheCard: an adapter that allows 0.3 starts on the 1.0-only module and
// stays there for a 1.0 agent; a 0.3 agent makes it load the full module before anything is sent
// or reported, and the Work then runs as usual. LegacyCompat false never loads the full module.
func TestModuleFlavourFollowsTheCard(t *testing.T) {
	t.Parallel()
	v03 := agent.Variant{Version: "0.3", Binding: "JSONRPC", Streaming: true}
	tests := []struct {
		name        string
		variant     agent.Variant
		legacy      *bool
		wantFlavour Flavour
		wantErr     *adapter.Error
	}{
		{"1.0 agent, 0.3 allowed", streaming, nil, NoLegacy, nil},
		{"0.3 agent, 0.3 allowed", v03, nil, Full, nil},
		{"0.3 agent, LegacyCompat false", v03, new(bool), NoLegacy, adapter.ErrNoCompatibleTransport},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newAdapter(t, tt.variant, adapter.Options{LegacyCompat: tt.legacy})
			if h.flavour != NoLegacy {
				t.Fatalf("started on %s, want the 1.0-only module", h.flavour)
			}
			var events []adapter.Event
			out, err := h.Submit(testContext(t), adapter.Work{ID: "w", OwnerID: "o", Instruction: "complete flavour"},
				adapter.OnEvent(func(ev adapter.Event) { events = append(events, ev) }))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Submit() error = %v, want %s", err, tt.wantErr.Code)
				}
			} else if err != nil || out.Content == "" {
				t.Fatalf("Submit() = %+v, %v", out, err)
			}
			if h.flavour != tt.wantFlavour {
				t.Errorf("flavour after discovery = %s, want %s", h.flavour, tt.wantFlavour)
			}
			for _, ev := range events {
				if ev.State == adapter.StateFailed && tt.wantErr == nil {
					t.Errorf("a listener saw %+v: the swap must be invisible", ev)
				}
			}
		})
	}
}
