package main

import (
	"errors"

	"github.com/a2aport/a2aport"
)

// Exit statuses (exitStatuses says what each means, in help and the README).
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

// exitStatuses is the table of exit statuses that help prints; the README has the same table
// and a test checks both against the statuses the commands return.
var exitStatuses = []struct {
	code    int
	meaning string
}{
	{exitOK, "completed (status: the state was read; cancel: the task is cancelled)"},
	{exitError, "another error (an unknown Work, a file that cannot be written, …)"},
	{exitUsage, "usage: a flag or an argument is wrong"},
	{exitFailed, "the task failed"},
	{exitRejected, "the agent rejected the task"},
	{exitCancelled, "the task was cancelled, or --timeout passed (the task is cancelled)"},
	{exitAuth, "authentication required or refused (also a card behind a 401 or 403, a bad card signature)"},
	{exitNetwork, "the agent could not be reached, or answered with an HTTP error"},
	{exitUnanswered, "the agent asked a question nobody could answer (no terminal, no --answer left): the task is cancelled"},
	{exitInterrupted, "Ctrl-C (after cancelling the task at the agent; a second Ctrl-C quits at once)"},
}

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
	switch a2aport.CodeOf(err) {
	case a2aport.CodeTaskFailed:
		return exitFailed
	case a2aport.CodeTaskRejected:
		return exitRejected
	case a2aport.CodeWorkCancelled, a2aport.CodeTimeout:
		return exitCancelled
	case a2aport.CodeAuthRequired, a2aport.CodeCardSignatureInvalid:
		return exitAuth
	case a2aport.CodeNetworkError, a2aport.CodeOutcomeUnknown, a2aport.CodeHTTPError:
		return exitNetwork
	case a2aport.CodeDiscoveryFailed:
		var e *a2aport.Error
		if errors.As(err, &e) && (e.Status == 401 || e.Status == 403) {
			return exitAuth // the card itself needs credentials
		}
	}
	return exitError
}
