//go:build !unix

package refused

import (
	"net"
	"testing"
)

// Addr returns host:port on 127.0.0.1 where nothing listens. Without a way to bind and not listen
// here, it closes a listener: another listener may take the port later.
func Addr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
