package facade

import (
	"context"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2asrv"
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

// callerInterceptor hands the authenticated caller to a2asrv, whose task store then keeps each
// caller's tasks to that caller.
type callerInterceptor struct {
	a2asrv.PassthroughCallInterceptor
}

func (callerInterceptor) Before(ctx context.Context, callCtx *a2asrv.CallContext, _ *a2asrv.Request) (context.Context, any, error) {
	caller, _ := ctx.Value(callerKey{}).(string)
	callCtx.User = a2asrv.NewAuthenticatedUser(caller, nil)
	return ctx, nil, nil
}
