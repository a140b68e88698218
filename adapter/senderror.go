package adapter

import "github.com/a2aport/a2aport/internal/netfail"

// sendError types the failure of a request that carried the Work's message. A network failure is
// A2A_OUTCOME_UNKNOWN unless the request provably never left: the agent may have received the
// message, and a retry could start the work twice.
func sendError(e *Error) *Error {
	if e.Code != CodeNetworkError || netfail.NotSent(e.Err) {
		return e
	}
	return &Error{Code: CodeOutcomeUnknown, Err: e.Err,
		Message: e.Message + " (the agent may have received the message; it was not sent again)"}
}
