// Package credentials adds the configured token and headers to outgoing requests and keeps their
// values out of anything printed. It lives outside the adapter so that the WebAssembly host can
// apply the same rules on its side of the boundary: credentials never enter the module.
//
//	rt := &credentials.Transport{Base: http.DefaultTransport, Token: "secret"}
//	client := &http.Client{Transport: rt}
//	_ = client
//	safe := rt.Redact("failed with secret") // "failed with [redacted]"
//	_ = safe
package credentials
