package abi

import (
	"errors"

	"github.com/a2aport/a2aport/adapter"
)

// WireError is err as it crosses the boundary: an *adapter.Error keeps its code, message, status
// and retryability; anything else is INTERNAL with its text.
func WireError(err error) *Error {
	var ae *adapter.Error
	if errors.As(err, &ae) {
		return &Error{Code: string(ae.Code), Message: ae.Message, Status: ae.Status, Retryable: ae.Retryable}
	}
	return &Error{Code: string(adapter.CodeInternal), Message: err.Error()}
}

// AdapterError is e as the host hands it to its caller (nil for nil): errors.Is matches its code.
func (e *Error) AdapterError() error {
	if e == nil {
		return nil
	}
	return &adapter.Error{Code: adapter.Code(e.Code), Message: e.Message, Status: e.Status, Retryable: e.Retryable}
}
