package a2aport

import "time"

// Clock is the adapter's only source of time. Inside the WebAssembly module it is backed by host
// timers, because a runtime timer there would sleep the whole module; tests use a fake clock.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d and returns a handle that can stop it.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop prevents the call if it has not started and reports whether it did.
	Stop() bool
}
