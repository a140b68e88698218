package gateway

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/netfail"
)

// A failure between the gateway and a backend is the operator's to read in full (the log, and
// /backends): it names the backend's internal address, its card URL or a piece of its answer's
// body. The caller learns which backend failed and how, in words of the gateway's own.

// forCaller is err as the gateway's caller sees it. What the backend's agent said itself (a task
// it failed or rejected, with its own words) and what concerns the caller's own calls (cancelled,
// not found, an answer out of turn) pass as they are.
func forCaller(backend string, err error) error {
	var e *adapter.Error
	if !errors.As(err, &e) {
		if err == nil {
			return nil
		}
		return &adapter.Error{Code: adapter.CodeInternal, Message: fmt.Sprintf("the backend %q failed", backend)}
	}
	var how string
	switch e.Code {
	case adapter.CodeTaskFailed, adapter.CodeTaskRejected, adapter.CodeWorkCancelled, adapter.CodeWorkNotFound,
		adapter.CodeWorkAlreadyActive, adapter.CodeWorkDetached, adapter.CodeAdapterClosed, adapter.CodeInvalidWork,
		adapter.CodeInputNotPending, adapter.CodeInputAlreadySubmitted, adapter.CodeInputActionRequired,
		adapter.CodeAuthorizationUnsupported, adapter.CodeContextMismatch:
		return err
	case adapter.CodeNetworkError:
		how = "could not be reached: the connection failed"
		if netfail.NotSent(e) {
			how = "could not be reached: the connection could not be made, and nothing was sent"
		}
	case adapter.CodeOutcomeUnknown:
		how = "lost the connection after the message may have reached it: whether it ran is not known (it was not sent again)"
	case adapter.CodeTimeout:
		how = "did not answer in time"
	case adapter.CodeHTTPError:
		how = fmt.Sprintf("answered HTTP %d %s", e.Status, http.StatusText(e.Status))
	case adapter.CodeProtocolError:
		how = "answered with an A2A error"
	case adapter.CodeInvalidResponse:
		how = "answered with something that is not valid A2A"
	case adapter.CodeResponseTooLarge:
		how = "sent more than the gateway accepts"
	case adapter.CodeAuthRequired, adapter.CodeHeadersFailed:
		how = "did not accept the gateway's credentials"
	case adapter.CodeDiscoveryFailed, adapter.CodeNoCompatibleTransport, adapter.CodeLegacyBuildRequired,
		adapter.CodeExtensionRequired, adapter.CodeCardSignatureInvalid:
		how = "could not be discovered"
	default:
		how = "failed (" + string(e.Code) + ")"
	}
	return &adapter.Error{Code: e.Code, Status: e.Status, Retryable: e.Retryable, Message: fmt.Sprintf("the backend %q %s", backend, how)}
}

// unreachable reports whether err says a connection to the backend could not be made at all:
// a passive health check takes the backend out at once (Gateway.lost).
func unreachable(err error) bool {
	var e *adapter.Error
	return errors.As(err, &e) && (e.Code == adapter.CodeNetworkError || e.Code == adapter.CodeOutcomeUnknown) && netfail.NotSent(e)
}
