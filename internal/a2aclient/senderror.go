package a2aclient

import (
	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/netfail"
)

// sendError types the failure of a request that carried the Work's message. A network failure is
// A2A_OUTCOME_UNKNOWN unless the request provably never left: the agent may have received the
// message, and a retry could start the work twice.
func sendError(e *a2aport.Error) *a2aport.Error {
	if e.Code != a2aport.CodeNetworkError || netfail.NotSent(e.Err) {
		return e
	}
	return &a2aport.Error{Code: a2aport.CodeOutcomeUnknown, Err: e.Err,
		Message: e.Message + " (the agent may have received the message; it was not sent again)"}
}
