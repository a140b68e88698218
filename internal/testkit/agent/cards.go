package agent

import (
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// Names of the special cards, for [Server.SpecialCardURL].
const (
	// CardGRPCOnly is a 1.0 card whose only interface is GRPC, which the
	// server does not serve.
	CardGRPCOnly = "grpc-only"
	// CardMixed is a 1.0 card listing a GRPC interface, then the
	// v1-jsonrpc-stream endpoint, then the v1-rest-stream endpoint.
	CardMixed = "mixed"
	// CardV03First is a card in the 0.3/1.0 union format listing the
	// v03-jsonrpc-stream endpoint first and the v1-jsonrpc-stream endpoint
	// second. Its 0.3 fields (url, preferredTransport) name the 0.3
	// endpoint; its supportedInterfaces carry both, with protocolVersion.
	CardV03First = "v03-first"
	// CardExtensions is the v1-jsonrpc-stream endpoint behind a card that declares two extensions,
	// ExtensionOptional and ExtensionRequired (required: true).
	CardExtensions = "extensions"
	// CardExtended is the v1-jsonrpc-stream endpoint behind a card that offers an extended card to
	// authenticated callers: ExtendedCardName, with one more skill.
	CardExtended = "extended"
	// CardOtherOrigin is the v1-jsonrpc-stream endpoint named through localhost instead of
	// 127.0.0.1: the same server on another origin than its card's.
	CardOtherOrigin = "other-origin"
)

// SpecialCards returns the names of every special card.
func SpecialCards() []string {
	return append([]string{CardGRPCOnly, CardMixed, CardV03First, CardExtensions, CardOtherOrigin, CardExtended}, securedCards...)
}

// ExtendedCardName is the name on every variant's extended card.
const ExtendedCardName = "a2aport test agent (extended)"

// extendedCard is what a variant's endpoint gives authenticated callers who ask for its extended card.
func extendedCard(base *a2a.AgentCard) *a2a.AgentCard {
	card := *base
	card.Name = ExtendedCardName
	card.Capabilities.ExtendedAgentCard = true
	card.Skills = append(append([]a2a.AgentSkill(nil), base.Skills...), a2a.AgentSkill{
		ID: "members-only", Name: "Members only", Description: "Shown to authenticated callers.", Tags: []string{"test"}})
	return &card
}

// The extensions CardExtensions declares.
const (
	ExtensionOptional = "urn:a2aport:test:optional"
	ExtensionRequired = "urn:a2aport:test:required"
)

var contentModes = []string{"text/plain", "application/octet-stream", "application/json"}

// newCard describes the test agent reachable through ifaces.
func newCard(streaming bool, ifaces ...*a2a.AgentInterface) *a2a.AgentCard {
	return &a2a.AgentCard{
		Name:                "a2aport test agent",
		Version:             "1.2.3",
		Description:         "Scripted A2A agent for integration tests: the first word of a task's first message selects a scenario.",
		SupportedInterfaces: ifaces,
		Capabilities:        a2a.AgentCapabilities{Streaming: streaming},
		// Declared (not enforced), so that every discovery reads security schemes and requirements
		// as a2a-go's own serializers (1.0, and the 0.3 union of a2av0) write them.
		SecuritySchemes: a2a.NamedSecuritySchemes{
			"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", Description: "not checked by the test agent"},
			"key":    a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationHeader, Name: "X-Api-Key"},
		},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{"bearer": {}}, {"key": {"read"}}},
		DefaultInputModes:    contentModes,
		DefaultOutputModes:   contentModes,
		Skills: []a2a.AgentSkill{{
			ID:          "scenarios",
			Name:        "Test scenarios",
			Description: "Plays the scenario named by the first word of the first message: complete, chunks N, hold, slow MS, input, auth, fail, reject, message, context, artifacts, files, cutstream, emptystream, status500.",
			Tags:        []string{"test"},
			Examples:    []string{"complete hello", "chunks 5", "input", "hold"},
		}},
	}
}

// variantCard is the card of variant v, reachable through iface.
func variantCard(v Variant, iface *a2a.AgentInterface) *a2a.AgentCard {
	card := newCard(v.Streaming, iface)
	card.Capabilities.PushNotifications = v.Push
	return card
}

// cardHandler serves card in the JSON format of protocol version: 0.3
// clients need the legacy url and preferredTransport fields, which a2av0
// writes next to the 1.0 ones.
func cardHandler(card *a2a.AgentCard, version string) http.Handler {
	if version == version03 {
		return a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(card))
	}
	return a2asrv.NewStaticAgentCardHandler(card)
}

// endpoint is the interface of variant v on the server at baseURL.
func endpoint(baseURL string, v Variant) *a2a.AgentInterface {
	return &a2a.AgentInterface{
		URL:             baseURL + v.prefix(),
		ProtocolBinding: a2a.TransportProtocol(v.Binding),
		ProtocolVersion: a2a.ProtocolVersion(v.Version),
	}
}

// specialCards returns the handlers of the special cards by name.
func specialCards(baseURL string) map[string]http.Handler {
	// Nothing serves gRPC; the address only has the usual host:port form.
	grpc := &a2a.AgentInterface{
		URL:             strings.TrimPrefix(baseURL, "http://"),
		ProtocolBinding: a2a.TransportProtocolGRPC,
		ProtocolVersion: a2a.Version,
	}
	v1RPC := endpoint(baseURL, Variant{Version: version10, Binding: bindingJSONRPC, Streaming: true})
	v1REST := endpoint(baseURL, Variant{Version: version10, Binding: bindingHTTPJSON, Streaming: true})
	v03RPC := endpoint(baseURL, Variant{Version: version03, Binding: bindingJSONRPC, Streaming: true})
	elsewhere := endpoint(strings.Replace(baseURL, "127.0.0.1", "localhost", 1), Variant{Version: version10, Binding: bindingJSONRPC, Streaming: true})
	cards := map[string]http.Handler{
		CardOtherOrigin: cardHandler(newCard(true, elsewhere), version10),
		CardExtended:    cardHandler(withExtendedCard(newCard(true, v1RPC)), version10),
		CardGRPCOnly:    cardHandler(newCard(true, grpc), version10),
		CardMixed:       cardHandler(newCard(true, grpc, v1RPC, v1REST), version10),
		CardV03First:    cardHandler(newCard(true, v03RPC, v1RPC), version03),
		CardExtensions: cardHandler(withExtensions(newCard(true, v1RPC),
			a2a.AgentExtension{URI: ExtensionOptional, Description: "may be activated"},
			a2a.AgentExtension{URI: ExtensionRequired, Description: "must be activated", Required: true}), version10),
	}
	for _, name := range securedCards {
		cards[name] = cardHandler(securedCard(baseURL, name), version10)
	}
	return cards
}

func withExtendedCard(card *a2a.AgentCard) *a2a.AgentCard {
	card.Capabilities.ExtendedAgentCard = true
	return card
}

func withExtensions(card *a2a.AgentCard, exts ...a2a.AgentExtension) *a2a.AgentCard {
	card.Capabilities.Extensions = exts
	return card
}
