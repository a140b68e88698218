// Package conformance checks that an [a2aport.Port] keeps the BackendPort contract of DESIGN.md §2.
//
// a2aport has one contract and two implementations of it in Go: the native [adapter.Adapter] and
// the wazero host that drives the WebAssembly module. Both run this same suite, and the JS package
// runs the same checks as verifyBackendAdapterConformance; a behaviour that differs between them
// is a bug. The suite is black-box: it uses only the Port methods, the Err* sentinels and
// [a2aport.CodeOf].
//
// [Run] asks a fixture factory for a fresh backend per check. A Fixture holds the backend (started
// or not: the suite calls Start itself), a Work ready to submit, NextWork for fresh Works of the
// same owner, and, when [FixtureOptions].Hold is set, Started, which returns once the held Work
// reached the agent. Without Hold the Work must complete quickly with non-empty content or
// artifacts; with Hold it must keep running until it is cancelled or the backend is closed.
//
// The checks are listed once, in checks.json, with what each asserts and the contract's values:
// this package and the JS package's verifyBackendAdapterConformance run that one table, each
// implementing every check in its own language, and a check either runner lacks fails, naming it.
// They are grouped by method (describe, start, health, status, submit, events, hold, respond,
// resume, close); each is a parallel subtest with its own fixture, so the factory must be safe
// for concurrent use and must register its own cleanup with t.Cleanup. Every wait is bounded
// (15 s per check, 10 s per Close, 5 s for the synchronous Describe and Status), so a Port that
// hangs fails instead of blocking the test binary.
//
// A test agent serving the fixture (here testAgent, not part of this package) would be wired
// like this:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, func(t *testing.T, opts conformance.FixtureOptions) conformance.Fixture {
//			agent := testAgent(t, opts.Hold) // an httptest A2A agent, stopped by t.Cleanup
//			backend, err := adapter.New(a2aport.Options{AgentCardURL: agent.CardURL})
//			if err != nil {
//				t.Fatalf("adapter.New() error = %v", err)
//			}
//			t.Cleanup(func() {
//				if err := backend.Close(); err != nil {
//					t.Errorf("Close() error = %v", err)
//				}
//			})
//			var n atomic.Int64
//			nextWork := func() a2aport.Work {
//				return a2aport.Work{
//					ID:          fmt.Sprintf("work-%d", n.Add(1)),
//					OwnerID:     "owner-1",
//					Instruction: "say hello",
//				}
//			}
//			f := conformance.Fixture{Backend: backend, Work: nextWork(), NextWork: nextWork}
//			if opts.Hold {
//				f.Started = agent.Started // returns once the agent runs f.Work
//			}
//			return f
//		})
//	}
package conformance
