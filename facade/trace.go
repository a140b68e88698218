package facade

import (
	"regexp"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// w3cTraceparent is a W3C trace context header of version 00.
var w3cTraceparent = regexp.MustCompile(`^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$`)

// traceparentOf is the caller's trace context, passed on to the Work so that the trace goes on
// into the agent behind the Port; "" when the request has none, or one that is not valid (all
// zeros included), which is dropped rather than failing the task.
func traceparentOf(ec *a2asrv.ExecutorContext) string {
	values, _ := ec.ServiceParams.Get("traceparent")
	if len(values) != 1 {
		return ""
	}
	m := w3cTraceparent.FindStringSubmatch(values[0])
	if m == nil || strings.Trim(m[1], "0") == "" || strings.Trim(m[2], "0") == "" {
		return ""
	}
	return values[0]
}
