//go:build !wasip1

package a2aclient

import "net/http"

// defaultTransport performs the requests of an adapter given no Transport.
var defaultTransport http.RoundTripper = http.DefaultTransport
