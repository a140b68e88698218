package refused

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"
)

// The address refuses connections, and no listener can take its port while the test runs.
func TestAddrRefusesAndStaysTaken(t *testing.T) {
	addr := Addr(t)
	for range 3 {
		_, err := net.DialTimeout("tcp", addr, time.Second)
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("dial %s: %v, want connection refused", addr, err)
		}
	}
	if ln, err := net.Listen("tcp", addr); err == nil {
		_ = ln.Close()
		t.Fatalf("a listener took %s while it was held", addr)
	}
}
