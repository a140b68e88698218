package facade

import (
	"context"
	"net/http"
)

type callerKey struct{}

// codeUnauthenticated is the JSON-RPC code of A2A's UNAUTHENTICATED, as a2a-go has it.
const codeUnauthenticated = -31401

// authenticate names the caller of each A2A request with fn, or answers 401 with A2A's error:
// JSON-RPC's UNAUTHENTICATED (-31401, as a2a-go's clients read it) on the JSON-RPC endpoints,
// google.rpc.Status UNAUTHENTICATED on HTTP+JSON.
func authenticate(fn func(*http.Request) (string, error), rpc bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller := ""
		if fn != nil {
			var err error
			if caller, err = fn(r); err != nil {
				w.Header().Set("WWW-Authenticate", "Bearer")
				unread(w, r)
				writeError(w, rpc, http.StatusUnauthorized, codeUnauthenticated, "unauthenticated: this agent needs the credentials its card declares")
				return
			}
		}
		next.ServeHTTP(w, withoutCredentials(r.WithContext(context.WithValue(r.Context(), callerKey{}, caller))))
	})
}

// credentialHeaders are the headers that carry a caller's secrets.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

// withoutCredentials is r without its credentials, once they named the caller: a2a-go's server
// keeps every header of a request as its service parameters, and in cluster mode writes them into
// the work queue it shares through the database, where a caller's token would stay.
func withoutCredentials(r *http.Request) *http.Request {
	for _, h := range credentialHeaders {
		if _, ok := r.Header[h]; ok {
			r.Header = r.Header.Clone()
			for _, h := range credentialHeaders {
				r.Header.Del(h)
			}
			return r
		}
	}
	return r
}

// callerFrom is the caller authenticate named for the request of ctx ("" when anonymous).
func callerFrom(ctx context.Context) string {
	caller, _ := ctx.Value(callerKey{}).(string)
	return caller
}
