package gateway

import (
	"net/http"
)

// The operations endpoints: GET /healthz (the process is up), /readyz (it can serve), /backends
// (each backend's state, and why one is unavailable: its internal address may be in the reason)
// and /metrics (Prometheus). Admin serves them for a listener of their own that only the
// operator's network reaches (adminListen); without SeparateAdmin the gateway's own handler serves
// them too, and then /backends and /metrics take a caller's credentials when callers need any, and
// /readyz says why it is not ready in no more than a word.

// Admin is the handler of the operations endpoints, for a listener of their own.
func (g *Gateway) Admin() http.Handler { return g.admin }

// opsMux serves the operations endpoints; public: on the port callers reach.
func (g *Gateway) opsMux(public bool) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) { g.serveReady(w, r, !public) })
	backends, metrics := http.Handler(http.HandlerFunc(g.serveBackends)), g.metrics.handler()
	if public {
		backends, metrics = g.callersOnly(backends), g.callersOnly(metrics)
	}
	mux.Handle("GET /backends", backends)
	mux.Handle("GET /metrics", metrics)
	return mux
}

// callersOnly answers 401 to a request without a caller's credentials, when callers need any.
func (g *Gateway) callersOnly(next http.Handler) http.Handler {
	authenticate := g.opts.Facade.Authenticate
	if authenticate == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := authenticate(r); err != nil {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "unauthenticated", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
