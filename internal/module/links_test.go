package module

import (
	"bytes"
	"testing"
)

// httpConnections are functions that exist only where net/http's client connects by itself:
// its Client and Transport, and TLS connections. The host's fetch does HTTP and TLS for the
// module, so the 1.0 module must not link them (docs/DESIGN.md §4); one reference to
// http.Client (it falls back to http.DefaultTransport) brings all of them, and 5 MB.
var httpConnections = []string{
	"net/http.(*Client).do",
	"net/http.(*Transport).roundTrip",
	"net/http.(*persistConn).readLoop",
	"crypto/tls.(*Conn).Handshake",
	"crypto/x509.(*Certificate).Verify",
}

// TestModuleLinksNoHTTPClient reads the function names Go's runtime keeps in the module's data
// (they survive wasm-opt, which drops the name section): none of net/http's connection code or
// crypto/tls may be in the 1.0 module. The full module links them through a2a-go's 0.3 compat
// layer (gRPC), which shows the check finds them where they are.
func TestModuleLinksNoHTTPClient(t *testing.T) {
	for _, c := range []struct {
		file  string
		links bool
	}{{"a2aport-1.0.wasm", false}, {"a2aport.wasm", true}} {
		b, err := Bytes(c.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range httpConnections {
			if got := bytes.Contains(b, []byte(name)); got != c.links {
				t.Errorf("%s links %s: %v, want %v", c.file, name, got, c.links)
			}
		}
	}
}
