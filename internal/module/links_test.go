package module

import (
	"bytes"
	"testing"
)

// httpConnections are functions that exist only where net/http's client connects by itself:
// its Client and Transport, and TLS connections. The host's fetch does HTTP and TLS for the
// module, so the module must not link them (docs/DESIGN.md §4); one reference to
// http.Client (it falls back to http.DefaultTransport) brings all of them, and 5 MB.
var httpConnections = []string{
	"net/http.(*Client).do",
	"net/http.(*Transport).roundTrip",
	"net/http.(*persistConn).readLoop",
	"crypto/tls.(*Conn).Handshake",
	"crypto/x509.(*Certificate).Verify",
}

// linked is a function every module has, by the same kind of name: that it is found shows the
// names are where the check looks.
const linked = "github.com/a2aport/a2aport/internal/binding.(*Client).Do"

// TestModuleLinksNoHTTPClient reads the function names Go's runtime keeps in the module's data
// (they survive wasm-opt, which drops the name section): none of net/http's connection code or
// crypto/tls may be in the module. Until a2aport spoke A2A 0.3 itself (internal/binding), the
// module that spoke it linked them through a2a-go's compat layer.
func TestModuleLinksNoHTTPClient(t *testing.T) {
	b, err := Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(linked)) {
		t.Fatalf("%s not found: the names are not where this test looks", linked)
	}
	for _, name := range httpConnections {
		if bytes.Contains(b, []byte(name)) {
			t.Errorf("the module links %s", name)
		}
	}
}
