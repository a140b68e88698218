package main

import (
	"errors"

	"github.com/a2aport/a2aport/adapter"
)

// Exit statuses (see the package documentation).
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitFailed      = 3
	exitRejected    = 4
	exitCancelled   = 5
	exitAuth        = 6
	exitNetwork     = 7
	exitUnanswered  = 8
	exitInterrupted = 130 // 128 + SIGINT, as shells report it
)

// errUnanswered: the agent asked for input and there was no one (no terminal) and no --answer left.
var errUnanswered = errors.New("the agent asked a question and there is no terminal and no --answer left to answer it")

// exitCode maps how a Work ended to the exit status.
func exitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errUnanswered):
		return exitUnanswered
	}
	switch adapter.CodeOf(err) {
	case adapter.CodeTaskFailed:
		return exitFailed
	case adapter.CodeTaskRejected:
		return exitRejected
	case adapter.CodeWorkCancelled, adapter.CodeTimeout:
		return exitCancelled
	case adapter.CodeAuthRequired, adapter.CodeCardSignatureInvalid:
		return exitAuth
	case adapter.CodeNetworkError, adapter.CodeOutcomeUnknown, adapter.CodeHTTPError:
		return exitNetwork
	case adapter.CodeDiscoveryFailed:
		var e *adapter.Error
		if errors.As(err, &e) && (e.Status == 401 || e.Status == 403) {
			return exitAuth // the card itself needs credentials
		}
	}
	return exitError
}
