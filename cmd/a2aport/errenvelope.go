package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A failure of a command of the specification is reported in two layers (SPEC.md §11.4): an
// error the agent answered with carries A2A's own name for it; a failure of the command's own
// carries one of the specification's A2ACLI_ERR_* codes (Appendix D), never one a2aport made up.
// With -o json it is the error object of Appendix B on stdout, else lines on stderr; the exit
// status agrees with it (§11.6).
const (
	errUsage              = "A2ACLI_ERR_USAGE"
	errCardNotFound       = "A2ACLI_ERR_CARD_NOT_FOUND"
	errCardInvalid        = "A2ACLI_ERR_CARD_INVALID"
	errUnreachable        = "A2ACLI_ERR_UNREACHABLE"
	errCredentialsMissing = "A2ACLI_ERR_CREDENTIALS_MISSING"
	errAuthFailed         = "A2ACLI_ERR_AUTH_FAILED"
	errTimeout            = "A2ACLI_ERR_TIMEOUT"
	errInternal           = "A2ACLI_ERR_INTERNAL"
)

// cliError is a classified failure: its code, what happened, what to do, the protocol's reason
// (a2aCode) when the agent gave one, and the exit status.
type cliError struct {
	code, message, hint string
	a2aCode             any
	exit                int
}

func (e *cliError) Error() string { return e.message }

// protocolNames are A2A's names (A2A §3.3.2) of the errors a2a-go decodes from any binding.
var protocolNames = []struct {
	err  error
	name string
}{
	{a2a.ErrTaskNotFound, "TaskNotFoundError"},
	{a2a.ErrTaskNotCancelable, "TaskNotCancelableError"},
	{a2a.ErrPushNotificationNotSupported, "PushNotificationNotSupportedError"},
	{a2a.ErrUnsupportedOperation, "UnsupportedOperationError"},
	{a2a.ErrUnsupportedContentType, "ContentTypeNotSupportedError"},
	{a2a.ErrInvalidAgentResponse, "InvalidAgentResponseError"},
	{a2a.ErrExtendedCardNotConfigured, "ExtendedAgentCardNotConfiguredError"},
	{a2a.ErrExtensionSupportRequired, "ExtensionSupportRequiredError"},
	{a2a.ErrVersionNotSupported, "VersionNotSupportedError"},
	{a2a.ErrParseError, "JSONParseError"},
	{a2a.ErrInvalidRequest, "InvalidRequestError"},
	{a2a.ErrMethodNotFound, "MethodNotFoundError"},
	{a2a.ErrInvalidParams, "InvalidParamsError"},
	{a2a.ErrUnauthenticated, "UnauthenticatedError"},
	{a2a.ErrUnauthorized, "UnauthorizedError"},
	{a2a.ErrInternalError, "InternalError"},
	{a2a.ErrServerError, "ServerError"},
}

// classify names a failure of a call to the agent (conn nil before there is one).
func classify(err error, conn *agentConn, credentials bool) *cliError {
	var c *cliError
	if errors.As(err, &c) {
		return c
	}
	debugHint := "run it again with --debug to see what went on the wire"
	switch {
	case errors.Is(err, context.Canceled): // Ctrl-C (interruptible)
		return &cliError{code: errInternal, message: "interrupted", exit: exitInterrupted}
	case errors.Is(err, context.DeadlineExceeded):
		return &cliError{code: errTimeout, message: "--timeout passed before the task ended", exit: exitTimeout,
			hint: "a2aport task get --wait TASK_ID follows it on"}
	case conn != nil && conn.http.refused.Load() != 0, errors.Is(err, a2a.ErrUnauthenticated), errors.Is(err, a2a.ErrUnauthorized):
		c = &cliError{code: errAuthFailed, message: err.Error(), exit: exitAuth, hint: "check the credentials (--bearer, --api-key, a2aport auth login)"}
		if !credentials {
			c.code, c.hint = errCredentialsMissing, "the agent wants credentials: a2aport card get shows its schemes; give --bearer or --api-key, or a2aport auth login"
		}
		return c
	}
	for _, p := range protocolNames {
		if errors.Is(err, p.err) {
			msg := err.Error()
			if p.err == a2a.ErrTaskNotFound {
				msg = "task not found"
			}
			return &cliError{code: p.name, message: msg, a2aCode: a2a.ErrorReason(err), exit: exitError, hint: debugHint}
		}
	}
	var netErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &netErr) || errors.As(err, &dnsErr) {
		return &cliError{code: errUnreachable, message: err.Error(), exit: exitUnreachable, hint: "is the agent running at the address its card gives?"}
	}
	if tlsFailure(err) { // §11.6 and Appendix D: a TLS failure is the agent unreachable
		return &cliError{code: errUnreachable, message: err.Error(), exit: exitUnreachable,
			hint: "the agent's certificate does not verify: --insecure (development only) skips the check"}
	}
	for _, s := range []string{"502", "503", "504"} {
		if strings.Contains(err.Error(), "HTTP status: "+s) {
			return &cliError{code: errUnreachable, message: err.Error(), exit: exitUnreachable, hint: debugHint}
		}
	}
	return &cliError{code: errInternal, message: err.Error(), exit: exitError, hint: debugHint}
}

// report writes a classified failure as -o asks, and returns its exit status.
func report(s streams, asJSON bool, c *cliError) int {
	if asJSON {
		var hint any
		if c.hint != "" {
			hint = c.hint
		}
		line, _ := json.Marshal(map[string]any{"error": map[string]any{"code": c.code, "message": c.message, "hint": hint, "a2aCode": c.a2aCode}})
		fmt.Fprintln(s.stdout, string(jsonSafe(line)))
		return c.exit
	}
	writeErrorText(s.stderr, c)
	return c.exit
}

func writeErrorText(w io.Writer, c *cliError) {
	fmt.Fprintf(w, "Error: %s\nMessage: %s\n", c.code, cleanLine(c.message))
	if c.hint != "" {
		fmt.Fprintf(w, "Hint: %s\n", cleanLine(c.hint))
	}
}

// tlsFailure reports whether err is a TLS handshake that failed: a certificate that does not
// verify (a2a-go wraps it, errors.As finds it) or one that names another host.
func tlsFailure(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &record)
}
