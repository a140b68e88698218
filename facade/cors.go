package facade

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
)

// allowOrigins lets pages of the listed origins call the facade from a browser (CORS): their
// preflights are answered, and their answers are readable, with credentials. A page of any other
// origin gets no CORS header, and its preflight a 403: the browser refuses its request before it
// is sent. The card stays readable by any page (a2asrv's card handler says so). Without origins nothing changes: no CORS, and
// cross-origin browser requests refused (acceptOnlyJSON).
func allowOrigins(origins []string, next http.Handler) http.Handler {
	if len(origins) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		h := w.Header()
		h.Add("Vary", "Origin")
		if slices.Contains(origins, origin) {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Credentials", "true")
		}
		if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
			next.ServeHTTP(w, r)
			return
		}
		if h.Get("Access-Control-Allow-Origin") == "" {
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
		if asked := r.Header.Get("Access-Control-Request-Headers"); asked != "" {
			h.Set("Access-Control-Allow-Headers", asked)
		}
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
	})
}

// validOrigins checks that each is an origin as a browser sends it (scheme://host[:port]).
func validOrigins(origins []string) error {
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil || u.Fragment != "" {
			return errors.New("facade: AllowedOrigins: " + o + " is not an origin (scheme://host[:port])")
		}
	}
	return nil
}
