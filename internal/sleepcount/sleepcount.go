// Package sleepcount counts the Go runtime's requests to sleep (WASI poll_oneoff with a clock) in
// module instances of this process that ended without a trap. The module never uses runtime
// timers (DESIGN.md §4), so a sleep means a wrong quiescence count; the wazero host adds to it and
// the tests check, once every adapter is closed, that it stayed 0.
//
//	if n := sleepcount.Ended.Load(); n != 0 {
//		t.Errorf("%d runtime sleeps", n)
//	}
package sleepcount

import "sync/atomic"

// Ended is the sleep requests of the instances that ended normally. A trapping instance may sleep
// while it dies; those are not counted.
var Ended atomic.Int64
