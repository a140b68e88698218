package a2aport

import (
	"context"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Default and minimum values of Options.
const (
	DefaultPollInterval   = time.Second
	MinPollInterval       = 10 * time.Millisecond
	DefaultRequestTimeout = 30 * time.Second
	// DefaultRecoveryAttempts and DefaultRecoveryBackoff bound the healing of a broken stream.
	DefaultRecoveryAttempts = 4
	DefaultRecoveryBackoff  = 250 * time.Millisecond
	// DefaultStreamIdleTimeout is how long a stream that has started may stay silent before the
	// adapter recovers it (resubscribes): proxies commonly drop idle connections after 60–100 s.
	DefaultStreamIdleTimeout = 60 * time.Second
	// DefaultStreamProbeInterval is how long a started stream may stay silent before the adapter
	// asks the agent for the task (GetTask) to tell a dead connection from a thinking agent.
	DefaultStreamProbeInterval = 10 * time.Second
	// Default size limits of what the agent sends.
	DefaultMaxCardBytes     = 1 << 20
	DefaultMaxResponseBytes = 16 << 20
	DefaultMaxArtifactBytes = 256 << 20
	DefaultMaxWorkBytes     = 256 << 20
)

// Options configure an Adapter. Exactly one of AgentCardURL and AgentCard is required.
type Options struct {
	// AgentCardURL is the Agent Card URL (absolute http or https, no userinfo), for example
	// https://agent.example/.well-known/agent-card.json. The agent's base URL alone
	// (https://agent.example/) means the card at WellKnownCardPath below it.
	AgentCardURL string
	// AgentCard replaces discovery with an in-memory card.
	AgentCard *a2a.AgentCard

	// Credentials are secrets by the name of the Agent Card's security scheme they are for. The
	// adapter applies the first of the card's requirement sets they satisfy, each scheme as the
	// card says (a bearer or basic Authorization header, an API key in a header, query parameter or
	// cookie, an OAuth2 token from the client-credentials flow, cached and renewed). Token,
	// Headers and HeaderFunc are applied after them and win where they set the same header.
	Credentials map[string]Credential
	// TokenProvider gives the token of a bearer, OAuth2, OpenID Connect or API key scheme that has
	// no entry in Credentials, for flows that need the user (authorization code, device code):
	// the application runs those. It is called for every request; cache in it.
	TokenProvider func(ctx context.Context, scheme string) (string, error)
	// Token is sent as "Authorization: Bearer <token>" unless Headers or HeaderFunc set Authorization.
	Token string
	// Headers are added to every request (discovery and task requests).
	Headers http.Header
	// HeaderFunc is called for every request; its headers override Headers.
	HeaderFunc func(req *http.Request) (http.Header, error)
	// Transport performs HTTP requests (the Go counterpart of fetchImpl). Default: http.DefaultTransport.
	Transport http.RoundTripper
	// Clock is the only source of time of the adapter. Default: the real clock.
	Clock Clock

	// AcceptedOutputModes are sent with every message when set.
	AcceptedOutputModes []string
	// PollInterval is the GetTask interval when the agent cannot stream (default 1 s, minimum 10 ms).
	PollInterval time.Duration
	// Timeout bounds each Work (0 = none). On expiry the remote task is cancelled best-effort.
	Timeout time.Duration
	// InputTimeout bounds how long one question of the agent (input or authorization) waits for
	// its answer (0 = as long as the Work may run). On expiry the Work ends INPUT_UNANSWERED and
	// the agent's task is cancelled, best-effort: a question nobody sees (no one listens to the
	// Work's events) or nobody answers then settles the Work instead of holding it forever.
	InputTimeout time.Duration
	// RequestTimeout bounds discovery and other requests outside a Work (default 30 s).
	RequestTimeout time.Duration
	// LegacyCompat says whether A2A 0.3 agents are reached too, through a2a-go's compat layer:
	// LegacyCompatOn (the zero value) or LegacyCompatOff. In a build without 0.3 (the
	// a2aport_nolegacy tag) a card that needs 0.3 fails discovery with A2A_LEGACY_BUILD_REQUIRED;
	// the module hosts answer that by loading the full module.
	LegacyCompat LegacyCompat
	// ProtocolVersion pins the A2A version of the interface to use: "1.0" or "0.3" ("" = the first
	// compatible interface of any version this build speaks).
	ProtocolVersion string
	// ProtocolBinding pins the binding: BindingJSONRPC or BindingHTTPJSON ("" = either). A pin the
	// card cannot satisfy is A2A_NO_COMPATIBLE_TRANSPORT listing what the card offers; so is
	// BindingGRPC, an A2A binding this client does not speak.
	ProtocolBinding Binding
	// Extensions are the URIs of the A2A extensions to activate (the A2A-Extensions header of
	// every request), of those the card declares; a card that marks an extension required that is
	// not listed here fails discovery with A2A_EXTENSION_REQUIRED.
	Extensions []string
	// RecoveryAttempts bounds how often a Work's stream that broke, or ended before the task did,
	// is resubscribed (SubscribeToTask) before the adapter falls back to polling the task, and how
	// many consecutive failed polls it retries; the message is never sent again. 0 means
	// DefaultRecoveryAttempts; a negative value turns recovery off (a broken stream fails the Work).
	RecoveryAttempts int
	// RecoveryBackoff is the wait before the second attempt (the first is immediate); it doubles
	// up to 4 s, with jitter. Default DefaultRecoveryBackoff.
	RecoveryBackoff time.Duration
	// StreamIdleTimeout is the longest silence between two events of a started stream; a longer one
	// is treated as a broken stream and recovered (never a failure while recovery is on). 0 means
	// DefaultStreamIdleTimeout; negative turns it off.
	StreamIdleTimeout time.Duration
	// StreamProbeInterval is the silence on a started stream after which the adapter asks the
	// agent for the task (GetTask), and again after each such silence: if the task moved past what
	// the stream delivered (another state, a new status message, more artifact content), the
	// connection is dead and the stream is recovered at once; if not, the agent is thinking and the
	// stream is kept. So a dead stream is found within about StreamProbeInterval + 1 s of the
	// agent's next step, and a quiet agent is never cut. 0 means DefaultStreamProbeInterval;
	// negative turns probing off.
	StreamProbeInterval time.Duration
	// FirstEventTimeout bounds the wait for a stream's first event (0 = none: an agent may think
	// long before it answers). On expiry the Work fails with A2A_OUTCOME_UNKNOWN, not retryable:
	// whether the agent received the message is not known.
	FirstEventTimeout time.Duration
	// VerifyCard checks the JWS signatures of the fetched Agent Card (A2A 1.0 §8.4) before anything
	// of it is used: VerifyCardOff (the default), VerifyCardIfSigned (a signed card must verify, an
	// unsigned one is used as it is) or VerifyCardRequired. A card that fails is A2A_CARD_SIGNATURE_INVALID; an extended
	// card that fails is not used (and noted). An in-memory AgentCard is the caller's and not checked.
	VerifyCard CardVerification
	// CardKeys are the public keys trusted to sign cards, as a JWK Set ({"keys": [...]}) or one JWK,
	// each with its kid.
	CardKeys []byte
	// CardKeysFromJKU lets a signature's "jku" header name the JWK Set to fetch its key from, when
	// the URL is on the card's origin or an AllowedOrigins one (then the card's origin vouches for
	// itself: prefer CardKeys).
	CardKeysFromJKU bool
	// AllowedOrigins are the origins (scheme://host[:port], or "*" for any) besides the card's own
	// where the card's interfaces may be: an interface elsewhere is refused (and so never gets the
	// credentials). An https card never leads to a plain-http interface, loopback excepted.
	AllowedOrigins []string
	// MaxCardBytes bounds the Agent Card (default 1 MiB), MaxResponseBytes one answer that is not a
	// stream and one event of a stream (default 16 MiB; an event is also bounded by a2a-go's own
	// 10 MiB per line), MaxArtifactBytes one artifact as its chunks merge (default 256 MiB), and
	// MaxWorkBytes all the artifacts of one Work together (default 256 MiB). Past a limit the
	// request or Work fails with A2A_RESPONSE_TOO_LARGE, and nothing more is read.
	MaxCardBytes     int
	MaxResponseBytes int
	MaxArtifactBytes int
	MaxWorkBytes     int
	// ReuseContext continues each owner's conversation in the remote context of its previous Work.
	ReuseContext bool
	// ContextStore keeps owner → context ids (default: in memory, 100 owners, no TTL).
	ContextStore ContextStore
	// WorkStore records each active Work (its remote task, context and state) so that Resume can
	// re-attach to it after the frontend restarts. Default: none (Resume finds nothing).
	WorkStore WorkStore
	// Label names the backend in Describe (default: the agent card's name).
	Label string
}

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
	// LegacyCompatOn, the default: A2A 1.0 agents, and 0.3 agents through a2a-go's compat layer.
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
