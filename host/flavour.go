package host

import (
	"context"
	"errors"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/abi"
)

// The host starts every adapter that allows A2A 0.3 on the 1.0-only module, which is half the size
// and starts faster, and lets the module decide whether the agent needs more: before the first
// Start or Submit it runs discovery there once, and a card that needs 0.3
// (A2A_LEGACY_BUILD_REQUIRED) makes it load the full module instead. Nothing has been sent to the
// agent or reported to a listener by then, so the swap is invisible.

// startFlavour is the module an adapter with these options starts on.
func startFlavour(opts adapter.Options) (f Flavour, onDemand bool) {
	legacy := opts.LegacyCompat == nil || *opts.LegacyCompat
	verifies := opts.VerifyCard != "" && opts.VerifyCard != adapter.VerifyCardOff
	switch {
	case verifies:
		return Full, false // the 1.0-only module leaves card signatures out (adapter/cardsig_off.go)
	case !legacy:
		return NoLegacy, false
	case opts.ProtocolVersion == "0.3":
		return Full, false // pinned: no need to ask
	case len(Binary[Full]) > 0 && len(Binary[NoLegacy]) == 0:
		return Full, false // the caller chose the full module and gave no other
	default:
		return NoLegacy, true
	}
}

// settleFlavour runs the one discovery that decides the module, if it has not run yet.
func (h *Adapter) settleFlavour(ctx context.Context) {
	h.probeMu.Lock()
	defer h.probeMu.Unlock()
	h.mu.Lock()
	pending := h.onDemand && !h.settled
	h.mu.Unlock()
	if !pending {
		return
	}
	d, err := h.driver(ctx)
	if err != nil {
		return // the call that follows reports it
	}
	pc, err := d.start(abi.Envelope{Method: abi.MethodStart}, nil)
	if err != nil {
		return
	}
	err = (<-pc.done).Error.AdapterError()
	switch {
	case err == nil:
		h.mu.Lock()
		h.settled = true
		h.mu.Unlock()
	case errors.Is(err, adapter.ErrLegacyBuildRequired):
		h.mu.Lock()
		h.flavour, h.settled = Full, true
		old := h.drv
		h.drv = nil
		h.mu.Unlock()
		if old != nil {
			old.stop()
		}
	}
	// Any other failure (the agent unreachable): the call that follows runs discovery again.
}
