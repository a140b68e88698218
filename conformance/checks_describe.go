package conformance

import (
	"testing"

	"github.com/a2aport/a2aport"
)

// The describe checks: Describe is synchronous, names the protocol and a label before discovery, and
// the selected transport and protocol version after it.
// describe calls Describe, failing the check if it does not return promptly.
func describe(t *testing.T, p a2aport.Port) a2aport.Description {
	t.Helper()
	var d a2aport.Description
	if !within(syncTimeout, func() { d = p.Describe() }) {
		t.Fatalf("Describe() did not return within %v, want a synchronous answer", syncTimeout)
	}
	return d
}

// wantIdentity checks what Describe reports at any time.
func wantIdentity(t *testing.T, d a2aport.Description) {
	t.Helper()
	if d.Protocol != "a2a" {
		t.Errorf("Describe().Protocol = %q, want %q", d.Protocol, "a2a")
	}
	if d.Label == "" {
		t.Errorf("Describe().Label = %q, want non-empty", d.Label)
	}
}

func checkDescribeBeforeStart(t *testing.T, s *suite) {
	f := s.fixture(t, FixtureOptions{})
	// Discovered may be false or true (a fixture may hand over a started backend): only the
	// identity is required before Start.
	wantIdentity(t, describe(t, f.Backend))
}

func checkDescribeAfterStart(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	d := describe(t, f.Backend)
	wantIdentity(t, d)
	if !d.Discovered {
		t.Errorf("Describe().Discovered = false after Start, want true")
	}
	if f.Local {
		return
	}
	if d.Transport != "JSONRPC" && d.Transport != "HTTP+JSON" {
		t.Errorf("Describe().Transport = %q, want %q or %q", d.Transport, "JSONRPC", "HTTP+JSON")
	}
	if d.ProtocolVersion == "" {
		t.Errorf("Describe().ProtocolVersion = %q, want non-empty", d.ProtocolVersion)
	}
}
