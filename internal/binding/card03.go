package binding

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// ParseCompatCard reads an Agent Card in A2A 0.3 format, in 1.0 format, or in the union of both
// that a2a-go serves to 0.3 clients, into a 1.0 card. Where a card says something in both formats,
// the 1.0 form wins.
//
// It gives the card, and fails exactly when, a2a-go's own compat parser
// (a2av0.NewAgentCardParser) does (card03_test.go compares the two), with two differences where
// a2av0 drops an interface that A2A 0.3 declares: a main url without preferredTransport is
// JSONRPC's, as 0.3 says the field defaults to, and an additional interface at the main url with
// another transport is kept (0.3 allows several transports at one URL). a2aport does not call that
// parser because its package links gRPC, a2a-go's server and http.Client, which would double the
// WebAssembly module.
func ParseCompatCard(body []byte) (*a2a.AgentCard, error) {
	var in card03
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, err
	}
	card := in.AgentCard
	card.SupportedInterfaces = in.interfaces()
	card.SecuritySchemes = a2a.NamedSecuritySchemes(in.SecuritySchemes)
	if card.SecuritySchemes == nil {
		card.SecuritySchemes = a2a.NamedSecuritySchemes{}
	}
	card.SecurityRequirements = requirementsOr03(in.SecurityRequirements, in.Security)
	if len(card.SecurityRequirements) == 0 {
		card.SecurityRequirements = nil // a2av0 keeps a skill's empty list, but not the card's
	}
	card.Skills = make([]a2a.AgentSkill, len(in.Skills))
	for i, skill := range in.Skills {
		card.Skills[i] = skill.AgentSkill
		card.Skills[i].SecurityRequirements = requirementsOr03(skill.SecurityRequirements, skill.Security)
	}
	if in.SupportsAuthenticatedExtendedCard {
		card.Capabilities.ExtendedAgentCard = true
	}
	return &card, nil
}

// card03 is a card as a 0.3 agent may serve it: a 1.0 card, plus the 0.3 fields that 1.0 renamed or
// replaced. Its SecuritySchemes and Skills hide the embedded card's, which read the 1.0 form only.
type card03 struct {
	a2a.AgentCard
	SecuritySchemes securitySchemes03 `json:"securitySchemes"`
	Skills          []cardSkill03     `json:"skills"`

	URL                               string                     `json:"url"`
	PreferredTransport                a2a.TransportProtocol      `json:"preferredTransport"`
	AdditionalInterfaces              []additionalInterface03    `json:"additionalInterfaces"`
	ProtocolVersion                   a2a.ProtocolVersion        `json:"protocolVersion"`
	Security                          []a2a.SecurityRequirements `json:"security"`
	SupportsAuthenticatedExtendedCard bool                       `json:"supportsAuthenticatedExtendedCard"`
}

// additionalInterface03 is an entry of a 0.3 card's additionalInterfaces, which 1.0 merged with
// the main url into supportedInterfaces.
type additionalInterface03 struct {
	URL       string                `json:"url"`
	Transport a2a.TransportProtocol `json:"transport"`
}

// cardSkill03 is a skill whose security requirements may be in the 0.3 field (security), the 1.0
// one (securityRequirements), or both.
type cardSkill03 struct {
	a2a.AgentSkill
	Security []a2a.SecurityRequirements `json:"security"`
}

// interfaces is the card's 1.0 interface list or, when it has none, the list its 0.3 fields make:
// the main url at its preferredTransport (JSONRPC when the card names none), then each additional
// interface that is not that one again, all at the card's protocolVersion (0.3 when it has none).
// The list is empty, never nil.
func (c *card03) interfaces() []*a2a.AgentInterface {
	if len(c.SupportedInterfaces) > 0 {
		return c.SupportedInterfaces
	}
	version := c.ProtocolVersion
	if version == "" {
		version = "0.3"
	}
	preferred := c.PreferredTransport
	if preferred == "" {
		preferred = a2a.TransportProtocolJSONRPC
	}
	list := []*a2a.AgentInterface{}
	if c.URL != "" {
		list = append(list, &a2a.AgentInterface{URL: c.URL, ProtocolBinding: preferred, ProtocolVersion: version})
	}
	for _, extra := range c.AdditionalInterfaces {
		if extra.URL != c.URL || extra.Transport != preferred {
			list = append(list, &a2a.AgentInterface{URL: extra.URL, ProtocolBinding: extra.Transport, ProtocolVersion: version})
		}
	}
	return list
}

// requirementsOr03 is a 1.0 list of security requirements, or the 0.3 list when the 1.0 one is
// empty and the 0.3 one is not. The two lists hold the same values: only their JSON differs.
func requirementsOr03(v10 a2a.SecurityRequirementsOptions, v03 []a2a.SecurityRequirements) a2a.SecurityRequirementsOptions {
	if len(v10) == 0 && len(v03) > 0 {
		return a2a.SecurityRequirementsOptions(v03)
	}
	return v10
}

// securitySchemes03 are a card's security schemes by name. Each may be in 0.3 form (a "type" and
// the scheme's fields), in the union form a2a-go serves to 0.3 clients (the same, with the 1.0
// scheme nested), or in 1.0 form (the scheme nested under its kind's name).
type securitySchemes03 map[a2a.SecuritySchemeName]a2a.SecurityScheme

// UnmarshalJSON reads the schemes one by one: one that cannot be read fails the card.
func (s *securitySchemes03) UnmarshalJSON(b []byte) error {
	var raw map[a2a.SecuritySchemeName]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	schemes := make(securitySchemes03, len(raw))
	for name, body := range raw {
		scheme, err := parseSecurityScheme(body)
		if err != nil {
			return fmt.Errorf("security scheme %q: %w", name, err)
		}
		schemes[name] = scheme
	}
	*s = schemes
	return nil
}

// schemeForms03 is what tells the forms of a scheme apart: a 0.3 "type", else a 1.0 kind's wrapper.
type schemeForms03 struct {
	Type          string                           `json:"type"`
	APIKey        *a2a.APIKeySecurityScheme        `json:"apiKeySecurityScheme"`
	HTTPAuth      *a2a.HTTPAuthSecurityScheme      `json:"httpAuthSecurityScheme"`
	MutualTLS     *a2a.MutualTLSSecurityScheme     `json:"mtlsSecurityScheme"`
	OAuth2        *a2a.OAuth2SecurityScheme        `json:"oauth2SecurityScheme"`
	OpenIDConnect *a2a.OpenIDConnectSecurityScheme `json:"openIdConnectSecurityScheme"`
}

// parseSecurityScheme reads one scheme. A 0.3 "type" decides its kind; without one, the first 1.0
// wrapper present does, in the order schemeForms03 lists them (a2a-go's 1.0 parser would refuse a
// scheme with two). Every wrapper present must parse, even one that is not used.
func parseSecurityScheme(body []byte) (a2a.SecurityScheme, error) {
	var kinds schemeForms03
	if err := json.Unmarshal(body, &kinds); err != nil {
		return nil, err
	}
	if kinds.Type != "" {
		parse, ok := securitySchemeTypes03[kinds.Type]
		if !ok {
			return nil, fmt.Errorf("unknown security scheme type %q", kinds.Type)
		}
		return parse(body)
	}
	switch {
	case kinds.APIKey != nil:
		return *kinds.APIKey, nil
	case kinds.HTTPAuth != nil:
		return *kinds.HTTPAuth, nil
	case kinds.MutualTLS != nil:
		return *kinds.MutualTLS, nil
	case kinds.OAuth2 != nil:
		return *kinds.OAuth2, nil
	case kinds.OpenIDConnect != nil:
		return *kinds.OpenIDConnect, nil
	}
	return nil, errors.New("a security scheme has neither a type nor a known kind")
}

// securitySchemeTypes03 reads a 0.3 scheme by the value of its "type".
var securitySchemeTypes03 = map[string]func([]byte) (a2a.SecurityScheme, error){
	"apiKey":        parseSecurityScheme03[apiKey03],
	"http":          parseSecurityScheme03[httpAuth03],
	"mutualTLS":     parseSecurityScheme03[mutualTLS03],
	"oauth2":        parseSecurityScheme03[oauth203],
	"openIdConnect": parseSecurityScheme03[openIDConnect03],
}

// securityScheme03 is a 0.3 scheme that knows its 1.0 equivalent.
type securityScheme03 interface {
	scheme() (a2a.SecurityScheme, error)
}

// parseSecurityScheme03 reads a 0.3 scheme of kind T and turns it into its 1.0 equivalent.
func parseSecurityScheme03[T securityScheme03](body []byte) (a2a.SecurityScheme, error) {
	var s T
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, err
	}
	return s.scheme()
}

// apiKey03 is a 0.3 API key scheme. The union form nests the 1.0 one under "apiKey".
type apiKey03 struct {
	Description string                           `json:"description"`
	In          a2a.APIKeySecuritySchemeLocation `json:"in"`
	Name        string                           `json:"name"`
	Nested      *a2a.APIKeySecurityScheme        `json:"apiKey"`
}

func (s apiKey03) scheme() (a2a.SecurityScheme, error) {
	if s.Nested != nil {
		return *s.Nested, nil
	}
	return a2a.APIKeySecurityScheme{Description: s.Description, Location: s.In, Name: s.Name}, nil
}

// httpAuth03 is a 0.3 HTTP authentication scheme. The union form nests the 1.0 one under "http".
type httpAuth03 struct {
	BearerFormat string                      `json:"bearerFormat"`
	Description  string                      `json:"description"`
	Scheme       string                      `json:"scheme"`
	Nested       *a2a.HTTPAuthSecurityScheme `json:"http"`
}

func (s httpAuth03) scheme() (a2a.SecurityScheme, error) {
	if s.Nested != nil {
		return *s.Nested, nil
	}
	return a2a.HTTPAuthSecurityScheme{BearerFormat: s.BearerFormat, Description: s.Description, Scheme: s.Scheme}, nil
}

// mutualTLS03 is a 0.3 mutual TLS scheme. The union form nests the 1.0 one under "mutualTLS".
type mutualTLS03 struct {
	Description string                       `json:"description"`
	Nested      *a2a.MutualTLSSecurityScheme `json:"mutualTLS"`
}

func (s mutualTLS03) scheme() (a2a.SecurityScheme, error) {
	if s.Nested != nil {
		return *s.Nested, nil
	}
	return a2a.MutualTLSSecurityScheme{Description: s.Description}, nil
}

// openIDConnect03 is a 0.3 OpenID Connect scheme. The union form nests the 1.0 one under
// "openIdConnect".
type openIDConnect03 struct {
	Description      string                           `json:"description"`
	OpenIDConnectURL string                           `json:"openIdConnectUrl"`
	Nested           *a2a.OpenIDConnectSecurityScheme `json:"openIdConnect"`
}

func (s openIDConnect03) scheme() (a2a.SecurityScheme, error) {
	if s.Nested != nil {
		return *s.Nested, nil
	}
	return a2a.OpenIDConnectSecurityScheme{Description: s.Description, OpenIDConnectURL: s.OpenIDConnectURL}, nil
}

// oauth203 is a 0.3 OAuth 2.0 scheme. Its flows are keyed by flow name, as in 1.0, but a 1.0
// scheme holds exactly one flow, so a 0.3 scheme with several (or none) is refused. Unlike the
// other kinds, it has no nested 1.0 scheme: a2av0 writes none under "oauth2" and reads none.
type oauth203 struct {
	Description       string                                `json:"description"`
	Oauth2MetadataURL string                                `json:"oauth2MetadataUrl"`
	Flows             map[a2a.OAuthFlowName]json.RawMessage `json:"flows"`
}

func (s oauth203) scheme() (a2a.SecurityScheme, error) {
	if len(s.Flows) != 1 {
		return nil, fmt.Errorf("an OAuth 2.0 scheme must have exactly one flow, this one has %d", len(s.Flows))
	}
	var flow a2a.OAuthFlows
	var err error
	for name, body := range s.Flows { // the only one
		flow, err = parseOAuthFlow(name, body)
	}
	if err != nil {
		return nil, err
	}
	return a2a.OAuth2SecurityScheme{Description: s.Description, Flows: flow, Oauth2MetadataURL: s.Oauth2MetadataURL}, nil
}

// parseOAuthFlow reads an OAuth 2.0 flow of the kind its name says.
func parseOAuthFlow(name a2a.OAuthFlowName, body []byte) (a2a.OAuthFlows, error) {
	switch name {
	case a2a.AuthorizationCodeOAuthFlowName:
		return parseOAuthFlowAs[a2a.AuthorizationCodeOAuthFlow](body)
	case a2a.ClientCredentialsOAuthFlowName:
		return parseOAuthFlowAs[a2a.ClientCredentialsOAuthFlow](body)
	case a2a.ImplicitOAuthFlowName:
		return parseOAuthFlowAs[a2a.ImplicitOAuthFlow](body)
	case a2a.PasswordOAuthFlowName:
		return parseOAuthFlowAs[a2a.PasswordOAuthFlow](body)
	case a2a.DeviceCodeOAuthFlowName:
		return parseOAuthFlowAs[a2a.DeviceCodeOAuthFlow](body)
	}
	return nil, fmt.Errorf("unknown OAuth 2.0 flow %q", name)
}

// parseOAuthFlowAs reads an OAuth 2.0 flow of kind T.
func parseOAuthFlowAs[T a2a.OAuthFlows](body []byte) (a2a.OAuthFlows, error) {
	var flow T
	err := json.Unmarshal(body, &flow)
	return flow, err
}
