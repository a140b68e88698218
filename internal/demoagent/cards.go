package demoagent

import (
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// Paths of the demo agent. The card paths are what the page offers as presets.
const (
	cardPath     = a2asrv.WellKnownAgentCardPath // A2A 1.0: JSON-RPC, then HTTP+JSON
	restCardPath = "/rest" + cardPath            // A2A 1.0: HTTP+JSON only
	v03CardPath  = "/v03" + cardPath             // A2A 0.3: JSON-RPC
	jsonrpcPath  = "/a2a/jsonrpc"
	restPath     = "/a2a/rest"
	v03RPCPath   = "/v03/jsonrpc"
)

// demoCard describes the demo agent reachable through ifaces.
func demoCard(ifaces ...*a2a.AgentInterface) *a2a.AgentCard {
	return &a2a.AgentCard{
		Name:    "a2aport demo agent",
		Version: "1.0.0",
		Description: "A scripted research assistant for trying a2aport: it streams short markdown reports, " +
			"asks when a request is ambiguous, reviews attached files and fails on request. No model behind it.",
		SupportedInterfaces: ifaces,
		Capabilities:        a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:   []string{"text/plain", "image/png", "image/jpeg", "image/gif", "application/octet-stream"},
		DefaultOutputModes:  []string{"text/markdown", "text/csv", "image/png"},
		Skills: []a2a.AgentSkill{
			{
				ID:   "report",
				Name: "Short reports",
				Description: "Writes a markdown brief on a topic, streamed section by section with progress messages. " +
					"A request of fewer than three words gets a question back; with conversation continuity, " +
					"“more” continues the previous topic. Say “long” or “slow” for an eight-section report that " +
					"takes about twelve seconds — a good one to cancel.",
				Tags:     []string{"writing", "streaming"},
				Examples: []string{"Write a short report on ocean currents", "A long report about the history of the web", "more"},
			},
			{
				ID:          "compare",
				Name:        "Comparisons",
				Description: "“Compare A and B” weighs two things on the same criteria; when it is unclear what to compare, the agent asks.",
				Tags:        []string{"writing"},
				Examples:    []string{"Compare tea and coffee", "Please compare these"},
			},
			{
				ID:   "files",
				Name: "Attachment review",
				Description: "Describes attached files: name, type and size; images get their dimensions and a thumbnail, " +
					"text files their first line. Links are described, never downloaded. The review also comes as CSV.",
				Tags:     []string{"files"},
				Examples: []string{"What are these files?"},
			},
			{
				ID:          "fail",
				Name:        "Errors on request",
				Description: "A request containing the word “fail” fails, so that a client's error handling can be seen.",
				Tags:        []string{"testing"},
				Examples:    []string{"Please fail this task"},
			},
		},
	}
}

// cardHandlers serves the demo agent's three cards for the server at baseURL.
func cardHandlers(baseURL string) map[string]http.Handler {
	rpc := &a2a.AgentInterface{URL: baseURL + jsonrpcPath, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}
	rest := &a2a.AgentInterface{URL: baseURL + restPath, ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version}
	v03 := &a2a.AgentInterface{URL: baseURL + v03RPCPath, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "0.3"}
	return map[string]http.Handler{
		cardPath:     a2asrv.NewStaticAgentCardHandler(demoCard(rpc, rest)),
		restCardPath: a2asrv.NewStaticAgentCardHandler(demoCard(rest)),
		// 0.3 clients read the legacy url and preferredTransport fields, which a2av0 adds.
		v03CardPath: a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(demoCard(v03))),
	}
}
