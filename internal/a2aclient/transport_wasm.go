//go:build wasip1

package a2aclient

import (
	"errors"
	"net/http"
)

// defaultTransport is never used in the module, whose host gives every adapter its fetch: naming
// http.DefaultTransport here would link net/http's connections and crypto/tls (DESIGN.md §4).
var defaultTransport http.RoundTripper = noTransport{}

type noTransport struct{}

func (noTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no Transport: in WebAssembly the host performs the requests")
}
