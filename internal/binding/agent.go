package binding

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Agent is the client of one A2A 1.0 or 0.3 interface of an agent. It adds to the binding what
// a2aclient.Client adds to a2a-go's transports: the A2A-Version and A2A-Extensions headers, the
// accepted output modes as the default send configuration, the interface's tenant, SendMessage in
// place of a stream when the card says the agent does not stream, and no extended card request
// to an agent whose card does not offer one.
//
// Its methods have a2aclient.Client's signatures, so a caller can hold either; its bindings'
// methods are unexported on purpose: the linker keeps every method of a type stored in an
// interface whose name and signature some interface call has, and a call with
// a2aclient.Transport's signatures would keep a2a-go's HTTP transports, and with them
// http.Client.
type Agent struct {
	wire         wire
	header       http.Header
	accepted     []string
	tenant       string
	streaming    bool
	extendedCard bool
	legacy       bool // A2A 0.3
}

// wire is one binding's requests.
type wire interface {
	send(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error)
	stream(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error]
	subscribe(ctx context.Context, h http.Header, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error]
	getTask(ctx context.Context, h http.Header, req *a2a.GetTaskRequest) (*a2a.Task, error)
	cancelTask(ctx context.Context, h http.Header, req *a2a.CancelTaskRequest) (*a2a.Task, error)
	extendedCard(ctx context.Context, h http.Header, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error)
}

// Config is what an Agent asks for on every call.
type Config struct {
	Extensions          []string // URIs of the extensions to activate (A2A-Extensions)
	AcceptedOutputModes []string // the default of every SendMessageRequest's configuration
}

// NewAgent is the client of iface, one of card's interfaces (A2A 1.0 or 0.3), whose requests go
// through client.
func NewAgent(card *a2a.AgentCard, iface *a2a.AgentInterface, client *Client, cfg Config) (*Agent, error) {
	legacy := isLegacy(iface.ProtocolVersion)
	var w wire
	switch iface.ProtocolBinding {
	case a2a.TransportProtocolJSONRPC:
		w = &jsonrpc{url: iface.URL, client: client}
		if legacy {
			w = &jsonrpc03{rpc: jsonrpc{url: iface.URL, client: client}}
		}
	case a2a.TransportProtocolHTTPJSON:
		base, err := url.Parse(iface.URL)
		if err != nil {
			return nil, fmt.Errorf("failed to parse endpoint URL: %w", err)
		}
		w = &rest{base: base, client: client}
		if legacy {
			w = &rest03{rest: rest{base: base, client: client}}
		}
	default:
		return nil, fmt.Errorf("no transport for the %s binding", iface.ProtocolBinding)
	}
	h := http.Header{}
	version, extensions := string(a2a.Version), a2a.SvcParamExtensions
	if legacy {
		// 0.3 names the extensions header with an X- (A2A 0.3 §3.2.6); its version is the interface's.
		version, extensions = legacyVersion, "X-"+a2a.SvcParamExtensions
	}
	h.Set(a2a.SvcParamVersion, version)
	for _, uri := range cfg.Extensions {
		h.Add(extensions, uri)
	}
	return &Agent{wire: w, header: h, accepted: cfg.AcceptedOutputModes, tenant: iface.Tenant, legacy: legacy,
		streaming: card.Capabilities.Streaming, extendedCard: card.Capabilities.ExtendedAgentCard}, nil
}

// legacyVersion is the A2A version a 0.3 interface is asked in.
const legacyVersion = "0.3"

// isLegacy says an interface speaks A2A 0.x, whose objects and names differ from 1.0's.
func isLegacy(v a2a.ProtocolVersion) bool {
	return strings.HasPrefix(string(v), "0.")
}

// SendMessage sends a message and returns the task or message the agent answers with.
func (a *Agent) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	req = a.withDefaults(req)
	req.Tenant = a.tenantOf(ctx, req.Tenant)
	return a.wire.send(ctx, a.header, req)
}

// SendStreamingMessage sends a message and yields the agent's events; an agent that does not
// stream is sent the message with SendMessage, and its answer is the one event.
func (a *Agent) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	req = a.withDefaults(req)
	req.Tenant = a.tenantOf(ctx, req.Tenant)
	if !a.streaming {
		return func(yield func(a2a.Event, error) bool) {
			res, err := a.wire.send(ctx, a.header, req)
			if err != nil {
				yield(nil, err)
				return
			}
			yield(res, nil)
		}
	}
	return a.wire.stream(ctx, a.header, req)
}

// SubscribeToTask yields the events of a running task.
func (a *Agent) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	req.Tenant = a.tenantOf(ctx, req.Tenant)
	return a.wire.subscribe(ctx, a.header, req)
}

// GetTask reads a task.
func (a *Agent) GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	req.Tenant = a.tenantOf(ctx, req.Tenant)
	return a.wire.getTask(ctx, a.header, req)
}

// CancelTask asks the agent to cancel a task.
func (a *Agent) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	req.Tenant = a.tenantOf(ctx, req.Tenant)
	return a.wire.cancelTask(ctx, a.header, req)
}

// GetExtendedAgentCard reads the card the agent shows an authenticated caller.
func (a *Agent) GetExtendedAgentCard(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	if !a.extendedCard {
		return nil, a2a.ErrExtendedCardNotConfigured
	}
	req.Tenant = a.tenantOf(ctx, req.Tenant)
	return a.wire.extendedCard(ctx, a.header, req)
}

// Destroy releases nothing: requests hold nothing between them.
func (a *Agent) Destroy() error { return nil }

// withDefaults is req with the accepted output modes as its configuration's default. A 0.3
// request always has a configuration: 0.3's blocking defaults to false where 1.0's
// returnImmediately defaults to a blocking call, and the configuration says blocking.
func (a *Agent) withDefaults(req *a2a.SendMessageRequest) *a2a.SendMessageRequest {
	if a.accepted == nil && (req.Config != nil || !a.legacy) {
		return req
	}
	out := *req
	config := a2a.SendMessageConfig{}
	if req.Config != nil {
		config = *req.Config
	}
	if config.AcceptedOutputModes == nil {
		config.AcceptedOutputModes = a.accepted
	}
	out.Config = &config
	return &out
}

// tenantOf is the tenant of a request: its own, else the interface's, else the context's.
func (a *Agent) tenantOf(ctx context.Context, current string) string {
	if current != "" {
		return current
	}
	if a.tenant != "" {
		return a.tenant
	}
	tenant, _ := a2a.TenantFrom(ctx)
	return tenant
}
