package demoagent

import "net/http"

// allowCrossOrigin lets pages of any origin call the demo agent, as a public agent would: the
// page of this server is one client, a page served elsewhere (or opened as localhost rather than
// 127.0.0.1) is another. Preflight requests are answered here; a2asrv's handlers refuse OPTIONS.
func allowCrossOrigin(next http.Handler) http.Handler {
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
