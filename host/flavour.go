package host

import (
	"errors"

	"github.com/a2aport/a2aport"
)

// The host starts every adapter that allows A2A 0.3 on the 1.0-only module, which is half the size
// and starts faster, and lets the module decide whether the agent needs more: a call that runs
// discovery there (Start, Submit, Resume) and meets a card that needs 0.3 fails with
// A2A_LEGACY_BUILD_REQUIRED, before anything was sent to the agent or reported to a listener. The
// host then loads the full module and makes the call again there, so the swap is invisible, and
// the call was a Work all along: its Cancel, its timeout, Close and Detach reach it as they would
// any other.

// startFlavour is the module an adapter with these options starts on.
func startFlavour(opts a2aport.Options) (f Flavour, onDemand bool) {
	legacy := opts.LegacyCompat == a2aport.LegacyCompatOn
	verifies := opts.VerifyCard != "" && opts.VerifyCard != a2aport.VerifyCardOff
	switch {
	case verifies:
		return Full, false // the 1.0-only module leaves card signatures out (internal/a2aclient/cardsig_off.go)
	case !legacy:
		return NoLegacy, false
	case opts.ProtocolVersion == "0.3":
		return Full, false // pinned: no need to ask
	case onlyFull():
		return Full, false // the caller chose the full module and gave no other
	default:
		return NoLegacy, true
	}
}

// upgrade swaps the 1.0-only module, whose call old answered A2A_LEGACY_BUILD_REQUIRED, for the
// full one (once: a concurrent call may have done it) and reports whether to make the call again.
func (h *Adapter) upgrade(old *driver, err error) bool {
	if !errors.Is(err, a2aport.ErrLegacyBuildRequired) {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.onDemand || h.closed {
		return false
	}
	if h.flavour == Full {
		return true // swapped by another call
	}
	h.flavour = Full
	if h.drv == old {
		h.drv = nil // the next call starts the full module
	}
	go old.retire()
	return true
}

// onlyFull says the caller gave its own full module and no other: every adapter runs on it.
func onlyFull() bool {
	c := config()
	return len(c.Modules[Full]) > 0 && len(c.Modules[NoLegacy]) == 0
}
