package main

import (
	"errors"

	"github.com/a2aport/a2aport"
)

// Exit statuses, as the A2A CLI specification (SPEC.md §11.6) has them: the status says whether
// the command did its job, never how the agent's task ended; that is in the output (and named in
// a warning on stderr). 3, 4 and 5 are the specification's reserved statuses and mean nothing
// else; 130 is the shells' own for Ctrl-C. exitStatuses says what each means, in help and the README.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitUnreachable = 3
	exitAuth        = 4
	exitTimeout     = 5
	exitInterrupted = 130 // 128 + SIGINT, as shells report it
)

// exitStatuses is the table of exit statuses that help prints; the README has the same table
// and a test checks both against the statuses the commands return.
var exitStatuses = []struct {
	code    int
	meaning string
}{
	{exitOK, "done: the turn was conducted and reported, whatever the task's state (completed, failed, rejected,\n       cancelled, or waiting for input: a warning on stderr names any but completed)"},
	{exitError, "another error (a protocol error of the agent's, an unknown Work, a file that cannot be written, …)"},
	{exitUsage, "usage: a flag or an argument is wrong"},
	{exitUnreachable, "the agent or its card could not be reached or resolved (DNS, connection, TLS, no card there)"},
	{exitAuth, "authentication could not be completed: required and not supplied, or refused (a card behind a 401 too)"},
	{exitTimeout, "timeout: --timeout (or --wait) passed before the task ended"},
	{exitInterrupted, "Ctrl-C (send: after cancelling the task at the agent; a second Ctrl-C quits at once)"},
}

// errUnanswered: the agent asked for input and there was no one (no terminal) and no --answer left.
var errUnanswered = errors.New("the agent asked a question and there is no terminal and no --answer left to answer it")

// exitCode maps how a Work ended to the exit status: every end of the agent's task is 0 (the
// command did its job), and an error of the command's is the specification's status for it.
func exitCode(err error) int {
	if err == nil || errors.Is(err, errUnanswered) {
		return exitOK
	}
	var e *a2aport.Error
	status := 0
	if errors.As(err, &e) {
		status = e.Status
	}
	switch a2aport.CodeOf(err) {
	case a2aport.CodeTaskFailed, a2aport.CodeTaskRejected, a2aport.CodeWorkCancelled:
		return exitOK
	case a2aport.CodeTimeout:
		return exitTimeout
	case a2aport.CodeAuthRequired:
		return exitAuth
	case a2aport.CodeNetworkError:
		return exitUnreachable
	case a2aport.CodeHTTPError:
		return httpExit(status, exitError)
	case a2aport.CodeDiscoveryFailed:
		return httpExit(status, exitUnreachable)
	}
	return exitError
}

// httpExit is the status of an HTTP answer that failed a request: authentication for 401 and
// 403, unreachable for a gateway's 502–504 (the agent behind it was not reached), else otherwise
// (for the card: it could not be resolved).
func httpExit(status, otherwise int) int {
	switch status {
	case 401, 403:
		return exitAuth
	case 502, 503, 504:
		return exitUnreachable
	}
	return otherwise
}
