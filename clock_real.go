package a2aport

import "time"

// RealClock returns the wall clock with runtime timers. It is the default natively; code that runs
// inside the WebAssembly module must be given a host-backed Clock instead.
func RealClock() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
