package host

import (
	"errors"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestModuleFlavourFollowsTheCard: an adapter that allows 0.3 starts on the 1.0-only module and
// stays there for a 1.0 agent; a 0.3 agent makes it load the full module before anything is sent
// or reported, and the Work then runs as usual. LegacyCompatOff never loads the full module.
func TestModuleFlavourFollowsTheCard(t *testing.T) {
	t.Parallel()
	v03 := agent.Variant{Version: "0.3", Binding: "JSONRPC", Streaming: true}
	tests := []struct {
		name        string
		variant     agent.Variant
		legacy      a2aport.LegacyCompat
		wantFlavour Flavour
		wantErr     *a2aport.Error
	}{
		{"1.0 agent, 0.3 allowed", streaming, a2aport.LegacyCompatOn, NoLegacy, nil},
		{"0.3 agent, 0.3 allowed", v03, a2aport.LegacyCompatOn, Full, nil},
		{"0.3 agent, LegacyCompatOff", v03, a2aport.LegacyCompatOff, NoLegacy, a2aport.ErrNoCompatibleTransport},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newAdapter(t, tt.variant, a2aport.Options{LegacyCompat: tt.legacy})
			if h.flavour != NoLegacy {
				t.Fatalf("started on %s, want the 1.0-only module", h.flavour)
			}
			var events []a2aport.Event
			out, err := h.Submit(testContext(t), a2aport.Work{ID: "w", OwnerID: "o", Instruction: "complete flavour"},
				a2aport.OnEvent(func(ev a2aport.Event) { events = append(events, ev) }))
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
				if ev.State == a2aport.StateFailed && tt.wantErr == nil {
					t.Errorf("a listener saw %+v: the swap must be invisible", ev)
				}
			}
		})
	}
}

// The 1.0-only module leaves card signatures out: an adapter that verifies cards starts on the
// full module (LegacyCompatOff included, which the full module then honours), and an adapter
// that does not never loads it for a 1.0 agent.
func TestVerifyingCardsTakesTheFullModule(t *testing.T) {
	t.Parallel()
	keys := []byte(`{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"k"}`)
	for _, tc := range []struct {
		opts a2aport.Options
		want Flavour
	}{
		{a2aport.Options{VerifyCard: a2aport.VerifyCardIfSigned, CardKeys: keys}, Full},
		{a2aport.Options{VerifyCard: a2aport.VerifyCardRequired, CardKeys: keys, LegacyCompat: a2aport.LegacyCompatOff}, Full},
		{a2aport.Options{VerifyCard: a2aport.VerifyCardOff}, NoLegacy},
	} {
		if got, _ := startFlavour(tc.opts); got != tc.want {
			t.Errorf("startFlavour(%+v) = %s, want %s", tc.opts, got, tc.want)
		}
	}
	h := newAdapter(t, streaming, a2aport.Options{VerifyCard: a2aport.VerifyCardIfSigned, CardKeys: keys, LegacyCompat: a2aport.LegacyCompatOff})
	if _, err := h.Start(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if sig := h.Describe().CardSignature; h.flavour != Full || sig == nil || sig.Status != "unsigned" {
		t.Errorf("flavour %s, CardSignature %+v; want the full module reporting an unsigned card", h.flavour, sig)
	}
}
