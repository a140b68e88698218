package a2aport

import (
	"errors"
	"fmt"
)

// Code classifies an *Error. The values are stable and shared with the JS package.
type Code string

// Error codes (DESIGN.md §5).
const (
	CodeInvalidOptions    Code = "INVALID_OPTIONS"
	CodeInvalidWork       Code = "INVALID_WORK"
	CodeWorkAlreadyActive Code = "WORK_ALREADY_ACTIVE"
	CodeWorkCancelled     Code = "WORK_CANCELLED"
	CodeWorkNotFound      Code = "WORK_NOT_FOUND"
	CodeAdapterClosed     Code = "ADAPTER_CLOSED"
	// CodeWorkDetached: the adapter was detached (Port.Detach) while the Work ran. The Work goes
	// on at the agent and its WorkStore record is kept: Resume in another adapter settles it.
	CodeWorkDetached          Code = "WORK_DETACHED"
	CodeDiscoveryFailed       Code = "A2A_DISCOVERY_FAILED"
	CodeNoCompatibleTransport Code = "A2A_NO_COMPATIBLE_TRANSPORT"
	CodeHTTPError             Code = "A2A_HTTP_ERROR"
	CodeNetworkError          Code = "A2A_NETWORK_ERROR"
	CodeProtocolError         Code = "A2A_PROTOCOL_ERROR"
	CodeHeadersFailed         Code = "A2A_HEADERS_FAILED"
	CodeTimeout               Code = "A2A_TIMEOUT"
	CodeTaskFailed            Code = "A2A_TASK_FAILED"
	CodeTaskRejected          Code = "A2A_TASK_REJECTED"
	CodeInvalidResponse       Code = "A2A_INVALID_RESPONSE"
	CodeContextMismatch       Code = "A2A_CONTEXT_MISMATCH"
	CodeInputNotPending       Code = "INPUT_NOT_PENDING"
	CodeInputAlreadySubmitted Code = "INPUT_ALREADY_SUBMITTED"
	CodeInputActionRequired   Code = "INPUT_ACTION_REQUIRED"
	// CodeInputUnanswered: a question of the agent was not answered within Options.InputTimeout;
	// the Work ended and the agent's task was cancelled, best-effort.
	CodeInputUnanswered          Code = "INPUT_UNANSWERED"
	CodeAuthorizationUnsupported Code = "A2A_AUTHORIZATION_UNSUPPORTED"
	CodeModuleTrapped            Code = "MODULE_TRAPPED"
	// CodeModuleUnavailable: the WebAssembly module could not be had or started: its file or URL
	// failed, its bytes are not the module, or a worker that must run it did not start. Nothing
	// was sent to the agent. Retryable only when fetching the module met a network error or a 5xx.
	CodeModuleUnavailable Code = "MODULE_UNAVAILABLE"
	// CodeLegacyBuildRequired is never returned any more: it came from the build without A2A 0.3
	// (the 1.0-only module), which is gone: every build speaks 0.3.
	//
	// Deprecated: kept so that code which names it still compiles.
	CodeLegacyBuildRequired Code = "A2A_LEGACY_BUILD_REQUIRED"
	// CodeExtensionRequired: the Agent Card marks an extension required that Options.Extensions
	// does not activate.
	CodeExtensionRequired Code = "A2A_EXTENSION_REQUIRED"
	// CodeOutcomeUnknown: the connection failed after the message may have reached the agent, and
	// before anything said what became of it. The message is never sent again by the adapter;
	// not retryable, since a retry could start the work twice.
	CodeOutcomeUnknown Code = "A2A_OUTCOME_UNKNOWN"
	// CodeResponseTooLarge: the Agent Card, an answer, one event of a stream or one artifact
	// passed its size limit (Options.MaxCardBytes, MaxResponseBytes, MaxArtifactBytes).
	CodeResponseTooLarge Code = "A2A_RESPONSE_TOO_LARGE"
	// CodeAuthRequired: the agent refused a request with 401 or 403, or the credentials for a
	// scheme of the card could not be had (the token endpoint or the token provider refused).
	// Not retryable: the credentials have to change first.
	CodeAuthRequired Code = "A2A_AUTH_REQUIRED"
	// CodeCardSignatureInvalid: Options.VerifyCard asks for a verified card and the Agent Card has
	// no signature that verifies with the trusted keys (or, with "required", none at all).
	CodeCardSignatureInvalid Code = "A2A_CARD_SIGNATURE_INVALID"
	// CodePushRefused: a request to Options.PushWebhookURL that is no push of this adapter's
	// Works (no token, a token no active Work has, a body naming another task). Nothing changed;
	// the error's Status is the HTTP status to answer it with.
	CodePushRefused Code = "PUSH_REFUSED"
	CodeInternal    Code = "INTERNAL"
)

// Error is the one error type of the port. Use errors.Is with the Err* sentinels to test codes.
type Error struct {
	Code    Code
	Message string
	// Status is the HTTP status when the failure came from a non-2xx response, else 0.
	Status int
	// Retryable says whether repeating the same call may succeed.
	Retryable bool
	// AgentText is what the agent itself said, as it said it, when its task ended the Work
	// (failed, rejected, cancelled: the text of its final status): Message wraps it in a2aport's
	// words, this keeps the agent's own for a user interface to show. "" when the agent gave none.
	AgentText string
	// Err is the underlying cause, if any. It never carries credentials.
	Err error
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = string(e.Code)
	}
	return "a2aport: " + msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so sentinels match any error of their code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Message == "" && t.Err == nil
}

func sentinel(code Code) *Error { return &Error{Code: code} }

// Sentinels for errors.Is, one per code.
var (
	ErrInvalidOptions           = sentinel(CodeInvalidOptions)
	ErrInvalidWork              = sentinel(CodeInvalidWork)
	ErrWorkAlreadyActive        = sentinel(CodeWorkAlreadyActive)
	ErrWorkCancelled            = sentinel(CodeWorkCancelled)
	ErrWorkNotFound             = sentinel(CodeWorkNotFound)
	ErrAdapterClosed            = sentinel(CodeAdapterClosed)
	ErrWorkDetached             = sentinel(CodeWorkDetached)
	ErrLegacyBuildRequired      = sentinel(CodeLegacyBuildRequired) // Deprecated: never returned.
	ErrExtensionRequired        = sentinel(CodeExtensionRequired)
	ErrDiscoveryFailed          = sentinel(CodeDiscoveryFailed)
	ErrNoCompatibleTransport    = sentinel(CodeNoCompatibleTransport)
	ErrHTTPError                = sentinel(CodeHTTPError)
	ErrNetworkError             = sentinel(CodeNetworkError)
	ErrProtocolError            = sentinel(CodeProtocolError)
	ErrHeadersFailed            = sentinel(CodeHeadersFailed)
	ErrTimeout                  = sentinel(CodeTimeout)
	ErrTaskFailed               = sentinel(CodeTaskFailed)
	ErrTaskRejected             = sentinel(CodeTaskRejected)
	ErrInvalidResponse          = sentinel(CodeInvalidResponse)
	ErrContextMismatch          = sentinel(CodeContextMismatch)
	ErrInputNotPending          = sentinel(CodeInputNotPending)
	ErrInputAlreadySubmitted    = sentinel(CodeInputAlreadySubmitted)
	ErrInputActionRequired      = sentinel(CodeInputActionRequired)
	ErrInputUnanswered          = sentinel(CodeInputUnanswered)
	ErrAuthorizationUnsupported = sentinel(CodeAuthorizationUnsupported)
	ErrModuleTrapped            = sentinel(CodeModuleTrapped)
	ErrModuleUnavailable        = sentinel(CodeModuleUnavailable)
	ErrOutcomeUnknown           = sentinel(CodeOutcomeUnknown)
	ErrResponseTooLarge         = sentinel(CodeResponseTooLarge)
	ErrAuthRequired             = sentinel(CodeAuthRequired)
	ErrCardSignatureInvalid     = sentinel(CodeCardSignatureInvalid)
	ErrPushRefused              = sentinel(CodePushRefused)
	ErrInternal                 = sentinel(CodeInternal)
)

// Errorf returns an *Error of code whose message is format with args, as fmt.Sprintf makes it:
// the error a Port of your own returns for a code of this table.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of err's *Error, or "" when err is not one.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
