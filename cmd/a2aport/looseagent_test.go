package main

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// startLooseAgent serves exec on a2a-go's server on loopback (JSON-RPC, streaming), with a card
// edit may spoil and handler options that may too: an agent a test makes to misbehave in one
// way. It returns the card's URL.
func startLooseAgent(t *testing.T, exec a2asrv.AgentExecutor, edit func(*a2a.AgentCard), opts ...a2asrv.RequestHandlerOption) string {
	t.Helper()
	return serveLooseAgent(t, httptest.NewServer, exec, edit, opts...)
}

// serveLooseAgent is startLooseAgent on the server serve starts (httptest.NewTLSServer: over TLS,
// with a certificate no one trusts).
func serveLooseAgent(t *testing.T, serve func(http.Handler) *httptest.Server, exec a2asrv.AgentExecutor, edit func(*a2a.AgentCard), opts ...a2asrv.RequestHandlerOption) string {
	t.Helper()
	mux := http.NewServeMux()
	srv := serve(mux)
	t.Cleanup(srv.Close)
	card := &a2a.AgentCard{
		Name: "loose agent", Description: "misbehaves on purpose", Version: "0.1.0",
		SupportedInterfaces: []*a2a.AgentInterface{{URL: srv.URL + "/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "1.0"}},
		Capabilities:        a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:   []string{"text/plain"},
		DefaultOutputModes:  []string{"text/plain"},
		Skills:              []a2a.AgentSkill{{ID: "echo", Name: "Echo", Description: "says it back", Tags: []string{"test"}}},
	}
	if edit != nil {
		edit(card)
	}
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle("/rpc", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(exec, opts...)))
	return srv.URL + a2asrv.WellKnownAgentCardPath
}

// hostileNames are file names an agent could give its artifacts' parts to write outside the
// folder they are saved in, hide them, or name a device.
var hostileNames = []string{"../../escape.txt", "/etc/passwd", "..", "a\x00b.txt", "CON", "nul.txt", ".bashrc",
	`..\..\win.txt`, "sub/dir/x", "", "escape.txt", "link.txt", "COM9.log"}

// hostileFiles completes every task with one artifact, named "../../art", of a text part with
// no name and a file part of three bytes under each of hostileNames.
type hostileFiles struct{}

func (hostileFiles) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		parts := []*a2a.Part{a2a.NewTextPart("a text with no name")}
		for _, name := range hostileNames {
			p := a2a.NewRawPart([]byte{1, 2, 3})
			p.Filename, p.MediaType = name, "application/octet-stream"
			parts = append(parts, p)
		}
		art := a2a.NewArtifactEvent(ec, parts...)
		art.Artifact.Name = "../../art"
		if yield(a2a.NewSubmittedTask(ec, ec.Message), nil) && yield(art, nil) {
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		}
	}
}

func (hostileFiles) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// wrongNotFound answers a task no one made with InternalError, where A2A wants TaskNotFoundError.
type wrongNotFound struct{}

func (wrongNotFound) Before(ctx context.Context, _ *a2asrv.CallContext, _ *a2asrv.Request) (context.Context, any, error) {
	return ctx, nil, nil
}

func (wrongNotFound) After(_ context.Context, _ *a2asrv.CallContext, resp *a2asrv.Response) error {
	if errors.Is(resp.Err, a2a.ErrTaskNotFound) {
		resp.Err = a2a.ErrInternalError
	}
	return nil
}
