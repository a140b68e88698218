package abi

import (
	"errors"

	"github.com/a2aport/a2aport"
)

// WireError is err as it crosses the boundary: an *a2aport.Error keeps its code, message, status
// and retryability; anything else is INTERNAL with its text.
func WireError(err error) *Error {
	var ae *a2aport.Error
	if errors.As(err, &ae) {
		return &Error{Code: string(ae.Code), Message: ae.Message, Status: ae.Status, Retryable: ae.Retryable, AgentText: ae.AgentText, Cause: causeOf(ae)}
	}
	return &Error{Code: string(a2aport.CodeInternal), Message: err.Error()}
}

// AdapterError is e as the host hands it to its caller (nil for nil): errors.Is matches its code.
func (e *Error) AdapterError() error {
	if e == nil {
		return nil
	}
	out := &a2aport.Error{Code: a2aport.Code(e.Code), Message: e.Message, Status: e.Status, Retryable: e.Retryable, AgentText: e.AgentText}
	if e.Cause != nil {
		out.Err = e.Cause
	}
	return out
}

// HostCause is implemented by an error that carries a host's failure (the module's view of a
// failed fetch).
type HostCause interface{ HostCause() *Cause }

// causeOf finds the host's failure under err, if there is one.
func causeOf(err error) *Cause {
	var hc HostCause
	if errors.As(err, &hc) {
		return hc.HostCause()
	}
	return nil
}

func (c *Cause) Error() string { return c.Message }
