// Package bridge runs the adapter inside a2aport.wasm: it turns input batches from the host into
// goroutines and wake-ups, and what those goroutines need from the outside world (HTTP, timers,
// the context store) into effect batches for the host.
//
// The module never blocks on the host. Call delivers a batch, lets the goroutines run until each
// one is either finished or parked on something only the host can provide, and returns the
// effects. That moment is found by counting, not guessing: every goroutine the bridge starts is
// counted busy; one that parks uncounts itself; whoever makes it ready counts it again (see
// sched.go). A wrong count shows up as a Go "all goroutines are asleep" trap, never as a hang.
//
//	b := bridge.New()
//	out := b.Call(frame) // frame: an abi frame of inputs; out: an abi frame of effects
package bridge
