// Command cards writes Agent Cards as a2a-go's own serializers emit them into
// internal/a2aclient/testdata/cards, beside the @a2a-js/sdk ones (js/test/cards/generate.mjs): a 0.3 card of
// the old a2a-go module (v0.3.15) and a 1.0 card of a2a-go v2, every field and security scheme kind
// filled. Run from the repository's root: go run ./tests/cards
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	a2av0 "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/v2/a2a"
)

const dir = "internal/a2aclient/testdata/cards"

func main() {
	for name, card := range map[string]any{"a2a-go-0.3.15.json": card03(), "a2a-go-v2.4.0.json": card10()} {
		body, err := json.MarshalIndent(card, "", "  ")
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), append(body, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// The interfaces the corpus tests point at the test agent (JSON-RPC) or leave unreachable.
const (
	jsonrpcURL = "http://127.0.0.1:1/a2a/jsonrpc"
	grpcURL    = "http://127.0.0.1:1/a2a/grpc"
	restURL    = "http://127.0.0.1:1/a2a/rest"
)

func card03() *a2av0.AgentCard {
	scopes := map[string]string{"read": "read things"}
	return &a2av0.AgentCard{
		ProtocolVersion: "0.3.0", Name: "full card", Description: "every field a2a-go v0.3.15 writes", Version: "0.3.15",
		URL: jsonrpcURL, PreferredTransport: a2av0.TransportProtocolJSONRPC,
		AdditionalInterfaces: []a2av0.AgentInterface{
			{Transport: a2av0.TransportProtocolJSONRPC, URL: jsonrpcURL},
			{Transport: a2av0.TransportProtocolGRPC, URL: grpcURL},
			{Transport: a2av0.TransportProtocolHTTPJSON, URL: restURL},
		},
		Provider:         &a2av0.AgentProvider{Org: "Example", URL: "https://provider.example"},
		DocumentationURL: "https://docs.example", IconURL: "https://icon.example/i.png",
		Capabilities: a2av0.AgentCapabilities{Streaming: true, PushNotifications: true, StateTransitionHistory: true,
			Extensions: []a2av0.AgentExtension{{URI: "https://ext.example/v1", Description: "an extension", Params: map[string]any{"level": 2}}}},
		SecuritySchemes: a2av0.NamedSecuritySchemes{
			"bearer": a2av0.HTTPAuthSecurityScheme{Scheme: "bearer", BearerFormat: "JWT", Description: "a token"},
			"basic":  a2av0.HTTPAuthSecurityScheme{Scheme: "basic"},
			"key":    a2av0.APIKeySecurityScheme{In: a2av0.APIKeySecuritySchemeInQuery, Name: "api_key", Description: "a key"},
			"oauth": a2av0.OAuth2SecurityScheme{Oauth2MetadataURL: "https://auth.example/.well-known/oauth-authorization-server",
				Flows: a2av0.OAuthFlows{ClientCredentials: &a2av0.ClientCredentialsOAuthFlow{TokenURL: "https://auth.example/token", RefreshURL: "https://auth.example/refresh", Scopes: scopes}}},
			"oidc": a2av0.OpenIDConnectSecurityScheme{OpenIDConnectURL: "https://auth.example/.well-known/openid-configuration"},
			"mtls": a2av0.MutualTLSSecurityScheme{Description: "client certificate"},
		},
		Security:           []a2av0.SecurityRequirements{{"bearer": {}}, {"oauth": {"read"}, "key": {}}},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain", "text/markdown"},
		Skills: []a2av0.AgentSkill{{ID: "report", Name: "report", Description: "writes reports", Tags: []string{"docs"},
			Examples: []string{"a report on tides"}, InputModes: []string{"text/plain"}, OutputModes: []string{"text/markdown"},
			Security: []a2av0.SecurityRequirements{{"oauth": {"read"}}}}},
		SupportsAuthenticatedExtendedCard: true,
		Signatures:                        []a2av0.AgentCardSignature{{Protected: "eyJhbGciOiJFUzI1NiJ9", Signature: "c2lnbmF0dXJl", Header: map[string]any{"kid": "key-1"}}},
	}
}

func card10() *a2a.AgentCard {
	scopes := map[string]string{"read": "read things"}
	return &a2a.AgentCard{
		Name: "full card", Description: "every field a2a-go v2.4.0 writes", Version: "2.4.0",
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: grpcURL, ProtocolBinding: a2a.TransportProtocolGRPC, ProtocolVersion: a2a.Version},
			{URL: jsonrpcURL, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
			{URL: restURL, ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version},
		},
		Provider:         &a2a.AgentProvider{Org: "Example", URL: "https://provider.example"},
		DocumentationURL: "https://docs.example", IconURL: "https://icon.example/i.png",
		Capabilities: a2a.AgentCapabilities{Streaming: true, PushNotifications: true, ExtendedAgentCard: true,
			Extensions: []a2a.AgentExtension{{URI: "https://ext.example/v1", Description: "an extension", Params: map[string]any{"level": 2}}}},
		SecuritySchemes: a2a.NamedSecuritySchemes{
			"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", BearerFormat: "JWT", Description: "a token"},
			"basic":  a2a.HTTPAuthSecurityScheme{Scheme: "Basic"},
			"key":    a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationQuery, Name: "api_key", Description: "a key"},
			"oauth": a2a.OAuth2SecurityScheme{Oauth2MetadataURL: "https://auth.example/.well-known/oauth-authorization-server",
				Flows: a2a.ClientCredentialsOAuthFlow{TokenURL: "https://auth.example/token", RefreshURL: "https://auth.example/refresh", Scopes: scopes}},
			"oidc": a2a.OpenIDConnectSecurityScheme{OpenIDConnectURL: "https://auth.example/.well-known/openid-configuration"},
			"mtls": a2a.MutualTLSSecurityScheme{Description: "client certificate"},
		},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{"bearer": {}}, {"oauth": {"read"}, "key": {}}},
		DefaultInputModes:    []string{"text/plain"},
		DefaultOutputModes:   []string{"text/plain", "text/markdown"},
		Skills: []a2a.AgentSkill{{ID: "report", Name: "report", Description: "writes reports", Tags: []string{"docs"},
			Examples: []string{"a report on tides"}, InputModes: []string{"text/plain"}, OutputModes: []string{"text/markdown"},
			SecurityRequirements: a2a.SecurityRequirementsOptions{{"oauth": {"read"}}}}},
		Signatures: []a2a.AgentCardSignature{{Protected: "eyJhbGciOiJFUzI1NiJ9", Signature: "c2lnbmF0dXJl", Header: map[string]any{"kid": "key-1"}}},
	}
}
