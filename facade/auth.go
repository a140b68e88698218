package facade

import (
	"context"
	"net/http"
)

type callerKey struct{}

// authenticate names the caller of each A2A request with fn, or answers 401.
func authenticate(fn func(*http.Request) (string, error), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller := ""
		if fn != nil {
			var err error
			if caller, err = fn(r); err != nil {
				w.Header().Set("WWW-Authenticate", "Bearer")
				http.Error(w, "unauthenticated", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, caller)))
	})
}

// callerFrom is the caller authenticate named for the request of ctx ("" when anonymous).
func callerFrom(ctx context.Context) string {
	caller, _ := ctx.Value(callerKey{}).(string)
	return caller
}
