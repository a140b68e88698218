// Package cors lets pages of any origin call an A2A agent, as a public agent allows them: every
// answer says any origin may read it, and preflight requests are answered here, before a2asrv's
// handlers (which refuse OPTIONS). The demo agent and the test agent serve browsers through it.
//
//	http.ListenAndServe(addr, cors.AllowAny(handler))
package cors

import "net/http"

// AllowAny answers preflights with the methods A2A uses and whatever headers the page asks for,
// and marks every other answer readable by any origin.
func AllowAny(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		if asked := r.Header.Get("Access-Control-Request-Headers"); asked != "" {
			h.Set("Access-Control-Allow-Headers", asked)
		}
		h.Set("Access-Control-Max-Age", "600")
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
