package gateway

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/netfail"
)

// A failure between the gateway and a backend is the operator's to read in full (the log, and
// /backends): it names the backend's internal address, its card URL or a piece of its answer's
// body. The caller learns which backend failed and how, in words of the gateway's own.

// forCaller is err as the gateway's caller sees it. What the backend's agent said itself (a task
// it failed or rejected, with its own words) and what concerns the caller's own calls (cancelled,
// not found, an answer out of turn) pass as they are.
func forCaller(backend string, err error) error {
	var e *a2aport.Error
	if !errors.As(err, &e) {
		if err == nil {
			return nil
		}
		return &a2aport.Error{Code: a2aport.CodeInternal, Message: fmt.Sprintf("the backend %q failed", backend)}
	}
	var how string
	switch e.Code {
	case a2aport.CodeTaskFailed, a2aport.CodeTaskRejected, a2aport.CodeWorkCancelled, a2aport.CodeWorkNotFound,
		a2aport.CodeWorkAlreadyActive, a2aport.CodeWorkDetached, a2aport.CodeAdapterClosed, a2aport.CodeInvalidWork,
		a2aport.CodeInputNotPending, a2aport.CodeInputAlreadySubmitted, a2aport.CodeInputActionRequired,
		a2aport.CodeAuthorizationUnsupported, a2aport.CodeContextMismatch:
		return err
	case a2aport.CodeNetworkError:
		how = "could not be reached: the connection failed"
		if netfail.NotSent(e) {
			how = "could not be reached: the connection could not be made, and nothing was sent"
		}
	case a2aport.CodeOutcomeUnknown:
		how = "lost the connection after the message may have reached it: whether it ran is not known (it was not sent again)"
	case a2aport.CodeTimeout:
		how = "did not answer in time"
	case a2aport.CodeHTTPError:
		how = fmt.Sprintf("answered HTTP %d %s", e.Status, http.StatusText(e.Status))
	case a2aport.CodeProtocolError:
		how = "answered with an A2A error"
	case a2aport.CodeInvalidResponse:
		how = "answered with something that is not valid A2A"
	case a2aport.CodeResponseTooLarge:
		how = "sent more than the gateway accepts"
	case a2aport.CodeAuthRequired, a2aport.CodeHeadersFailed:
		how = "did not accept the gateway's credentials"
	case a2aport.CodeDiscoveryFailed, a2aport.CodeNoCompatibleTransport,
		a2aport.CodeExtensionRequired, a2aport.CodeCardSignatureInvalid:
		how = "could not be discovered"
	default:
		how = "failed (" + string(e.Code) + ")"
	}
	return &a2aport.Error{Code: e.Code, Status: e.Status, Retryable: e.Retryable, Message: fmt.Sprintf("the backend %q %s", backend, how)}
}

// unreachable reports whether err says a connection to the backend could not be made at all:
// a passive health check takes the backend out at once (Gateway.lost).
func unreachable(err error) bool {
	var e *a2aport.Error
	return errors.As(err, &e) && (e.Code == a2aport.CodeNetworkError || e.Code == a2aport.CodeOutcomeUnknown) && netfail.NotSent(e)
}
