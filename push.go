package a2aport

import (
	"context"
	"net/http"
)

// PushReceiver is a Port that can follow its Works by the agent's push notifications
// (Options.PushWebhookURL): a2aport's A2A client is one, natively (adapter.New) and in the module
// (host.New). The application serves the webhook and hands every request that reaches it to
// ReceivePush; adapter.PushHandler is that handler for a Go server.
//
// It is an interface apart, not a method of Port, so that Ports written outside this repository
// (funcport, DESIGN.md §2) owe nothing to a feature of the A2A client.
type PushReceiver interface {
	// ReceivePush takes one request to the webhook: its header and its body (at most
	// MaxPushBytes). nil: it was a push for an active Work, which reads its task now. Else an
	// *Error with CodePushRefused whose Status is the HTTP status to answer with (401: no token,
	// or one no active Work has; 400: a body that names no task or another Work's; 413: too
	// large), and nothing changed.
	ReceivePush(ctx context.Context, header http.Header, body []byte) error
}

// MaxPushBytes bounds the body of one push notification: an A2A 0.3 agent pushes the whole task,
// so the bound is an answer's (DefaultMaxResponseBytes).
const MaxPushBytes = DefaultMaxResponseBytes
