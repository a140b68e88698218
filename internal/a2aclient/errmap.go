package a2aclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/credentials"
	"github.com/a2aport/a2aport/internal/netfail"
)

// Causes with which the adapter ends contexts; ctxError turns them into typed errors.
var (
	errCancelled      = errors.New("work cancelled")
	errWorkTimeout    = errors.New("work timed out")
	errRequestTimeout = errors.New("request timed out")
	errClosed         = errors.New("adapter closed")
	errDetached       = errors.New("adapter detached")
	errUnanswered     = errors.New("question unanswered")
)

// ctxError types the reason ctx ended.
func (a *Adapter) ctxError(ctx context.Context) *a2aport.Error {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errWorkTimeout):
		return &a2aport.Error{Code: a2aport.CodeTimeout, Message: "the work did not finish within its timeout", Retryable: true}
	case errors.Is(cause, errRequestTimeout):
		return &a2aport.Error{Code: a2aport.CodeTimeout, Message: "the request did not finish within the request timeout", Retryable: true}
	case errors.Is(cause, errUnanswered):
		return newError(a2aport.CodeInputUnanswered, "the agent's question was not answered within %v (InputTimeout): the Work ended, and its task was cancelled at the agent", a.s.InputTimeout)
	case errors.Is(cause, errClosed):
		return newError(a2aport.CodeAdapterClosed, "the adapter was closed")
	case errors.Is(cause, errDetached):
		if a.s.WorkStore == nil {
			return newError(a2aport.CodeWorkDetached, "the adapter was detached: the Work goes on at the agent, and without a WorkStore nothing can resume it")
		}
		return newError(a2aport.CodeWorkDetached, "the adapter was detached: the Work goes on at the agent, and its WorkStore record lets Resume pick it up")
	default:
		return &a2aport.Error{Code: a2aport.CodeWorkCancelled, Message: "the work was cancelled", Err: cause}
	}
}

func (a *Adapter) redact(s string) string { return a.creds.Redact(s) }

// wrap types err under code with a message that names what failed and never credentials.
func (a *Adapter) wrap(code a2aport.Code, what string, err error) *a2aport.Error {
	return &a2aport.Error{Code: code, Message: a.redact(what + ": " + err.Error()), Err: err}
}

// requestError types the failure of one request to the agent. fallback is the code for errors
// that fit no more precise one.
func (a *Adapter) requestError(ctx context.Context, fallback a2aport.Code, what string, err error, rec *httpFailure) *a2aport.Error {
	if ctx.Err() != nil {
		return a.ctxError(ctx)
	}
	var typed *a2aport.Error
	if errors.As(err, &typed) {
		return typed
	}
	if over := rec.limit(); over != nil {
		err = errors.Join(over, err) // the read error a decoder reported, whether or not it wrapped it
	}
	if e := tooLarge(err); e != nil {
		return e
	}
	if e := redirected(err, fallback); e != nil {
		return e
	}
	var headerErr *credentials.HeaderFuncError
	if errors.As(err, &headerErr) {
		return a.wrap(a2aport.CodeHeadersFailed, what+": HeaderFunc failed", headerErr.Err)
	}
	var authErr *credentials.AuthError
	if errors.As(err, &authErr) {
		if authErr.Retry { // the token endpoint failed, not the agent: the request never left
			return &a2aport.Error{Code: a2aport.CodeNetworkError, Message: a.redact(what + ": " + authErr.Error()), Err: err, Retryable: true}
		}
		return &a2aport.Error{Code: a2aport.CodeAuthRequired, Status: authErr.Status, Message: a.redact(what + ": " + authErr.Error()), Err: err}
	}
	if rec != nil {
		if status, summary := rec.get(); status == http.StatusUnauthorized || status == http.StatusForbidden {
			rec.mu.Lock()
			challenge := rec.challenge
			rec.mu.Unlock()
			e := a.authRequired(what, status, challenge, summary)
			e.Err = err
			return e
		} else if named := namedA2AError(err); status != 0 && named != nil {
			// An HTTP+JSON agent's error names what went wrong (task not found, not cancelable):
			// its words, as a JSON-RPC agent's are given, with the status kept.
			return &a2aport.Error{Code: a2aport.CodeProtocolError, Status: status, Retryable: retryableStatus(status),
				Message: a.redact(what + ": the agent answered with an error: " + named.Error()), Err: err}
		} else if status != 0 {
			e := &a2aport.Error{Code: a2aport.CodeHTTPError, Status: status, Retryable: retryableStatus(status), Err: err}
			e.Message = a.redact(what + ": HTTP " + statusLine(status, summary))
			return e
		}
	}
	var protocolErr *a2a.Error
	if errors.As(err, &protocolErr) || isA2ASentinel(err) {
		return &a2aport.Error{Code: a2aport.CodeProtocolError, Message: a.redact(what + ": the agent answered with an error: " + err.Error()), Err: err,
			Retryable: errors.Is(err, a2a.ErrServerError) || errors.Is(err, a2a.ErrInternalError)}
	}
	// A body cut short (the connection dropped mid-stream) is the network's fault too: the module
	// sees the host's fetch fail there, and both must give the same code.
	var urlErr *url.Error
	var netErr net.Error
	if errors.As(err, &urlErr) || errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &a2aport.Error{Code: a2aport.CodeNetworkError, Message: a.redact(what + networkText(err)), Err: err, Retryable: !netfail.Blocked(err)}
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		return a.wrap(a2aport.CodeInvalidResponse, what+": the agent's answer is not valid A2A", err)
	}
	return a.wrap(fallback, what, err)
}

func isA2ASentinel(err error) bool {
	for _, s := range []error{a2a.ErrParseError, a2a.ErrInvalidRequest, a2a.ErrMethodNotFound, a2a.ErrInvalidParams,
		a2a.ErrInternalError, a2a.ErrServerError, a2a.ErrTaskNotFound, a2a.ErrTaskNotCancelable,
		a2a.ErrUnsupportedOperation, a2a.ErrUnsupportedContentType, a2a.ErrInvalidAgentResponse,
		a2a.ErrVersionNotSupported, a2a.ErrUnauthenticated, a2a.ErrUnauthorized} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func retryableStatus(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// networkText is ": " and why a request failed on the network, in words of a request rather than
// of Go's client (which says `Post "https://…": …`): " (to URL): why".
func networkText(err error) string {
	var urlErr *url.Error
	if !errors.As(err, &urlErr) {
		return ": " + err.Error()
	}
	return " (" + strings.ToUpper(urlErr.Op) + " " + urlErr.URL + "): " + urlErr.Err.Error()
}

// newError is an *a2aport.Error of code, its message made as fmt.Sprintf makes it.
func newError(code a2aport.Code, format string, args ...any) *a2aport.Error {
	return a2aport.Errorf(code, format, args...)
}

// namedA2AError is the A2A error an agent's error answer names (its HTTP+JSON body's reason), or
// nil when it names none: a server or internal error says no more than its HTTP status does.
func namedA2AError(err error) *a2a.Error {
	var e *a2a.Error
	if !errors.As(err, &e) || errors.Is(err, a2a.ErrInternalError) || errors.Is(err, a2a.ErrServerError) {
		return nil
	}
	return e
}
