package a2aport

// WellKnownCardPath is where an A2A agent publishes its Agent Card below its origin. An
// AgentCardURL with no path (the agent's base URL) means the card there.
const WellKnownCardPath = "/.well-known/agent-card.json"

// CardVerification is how Options.VerifyCard checks the Agent Card's signatures.
type CardVerification string

// Modes of Options.VerifyCard ("" is VerifyCardOff).
const (
	VerifyCardOff      CardVerification = "off"
	VerifyCardIfSigned CardVerification = "if-signed"
	VerifyCardRequired CardVerification = "required"
)

// Binding is an A2A protocol binding, as Agent Cards name it (Options.ProtocolBinding).
type Binding string

// The A2A bindings. a2aport speaks JSON-RPC and HTTP+JSON; a pin to gRPC is refused at discovery.
const (
	BindingJSONRPC  Binding = "JSONRPC"
	BindingHTTPJSON Binding = "HTTP+JSON"
	BindingGRPC     Binding = "GRPC"
)

// LegacyCompat says whether an adapter reaches A2A 0.3 agents too (Options.LegacyCompat).
type LegacyCompat uint8

// Values of Options.LegacyCompat.
const (
	// LegacyCompatOn, the default: A2A 1.0 agents, and 0.3 agents (spoken by internal/binding).
	LegacyCompatOn LegacyCompat = iota
	// LegacyCompatOff: A2A 1.0 agents only; a card that offers only 0.3 has no compatible interface.
	LegacyCompatOff
)

// CardSignature says how the card in use was checked (Options.VerifyCard).
type CardSignature struct {
	// Status is "verified", or "unsigned" (VerifyCard "if-signed" let an unsigned card through).
	Status    string `json:"status"`
	KeyID     string `json:"keyId,omitempty"`
	Algorithm string `json:"algorithm,omitempty"`
	// Uncovered are members of the card the signature does not cover: @a2a-js/sdk 1.3.0 signs its
	// card object without the security schemes given in its own (ts-proto) form.
	Uncovered []string `json:"uncovered,omitempty"`
}

// Credential is the caller's secret for one security scheme of the Agent Card
// (Options.Credentials, keyed by the scheme's name on the card). Set one form: Token (a bearer
// token, an API key, an OAuth2 or OpenID Connect token); Username and Password (HTTP basic);
// ClientID and ClientSecret (OAuth2 client credentials, run against the card's token URL or
// TokenURL, asking for Scopes, by default those the card's requirement names); or nothing, for
// mutual TLS that Options.Transport presents.
type Credential struct {
	Token                  string
	Username, Password     string
	ClientID, ClientSecret string
	Scopes                 []string
	TokenURL               string
}
