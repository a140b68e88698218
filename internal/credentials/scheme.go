package credentials

import "context"

// Kind says how a security scheme carries its secret.
type Kind string

// Kinds of security scheme, named as the Agent Card names them.
const (
	KindBearer        Kind = "bearer"        // HTTP "Authorization: Bearer <token>"
	KindBasic         Kind = "basic"         // HTTP "Authorization: Basic <user:password>"
	KindAPIKey        Kind = "apiKey"        // a header, query parameter or cookie (In, Param)
	KindOAuth2        Kind = "oauth2"        // an access token as bearer: given, by client credentials, or from the TokenProvider
	KindOpenIDConnect Kind = "openIdConnect" // an ID or access token as bearer: given or from the TokenProvider
	KindMutualTLS     Kind = "mutualTLS"     // the transport's client certificate: nothing is added
	KindUnsupported   Kind = "unsupported"   // an HTTP scheme other than bearer and basic (Digest, ...)
)

// Where an API key goes.
const (
	InHeader = "header"
	InQuery  = "query"
	InCookie = "cookie"
)

// Scheme says how one security scheme of the Agent Card applies to a request. It holds no
// secret: the module sends it to its host with every fetch that needs it, and the host adds the
// secret it keeps under Name.
type Scheme struct {
	Name     string   `json:"name"`
	Kind     Kind     `json:"kind"`
	In       string   `json:"in,omitempty"`       // apiKey: InHeader, InQuery or InCookie
	Param    string   `json:"param,omitempty"`    // apiKey: the header, query parameter or cookie name
	TokenURL string   `json:"tokenUrl,omitempty"` // oauth2: the card's client-credentials token endpoint
	Scopes   []string `json:"scopes,omitempty"`   // oauth2: the scopes the requirement asks for
}

// bearerLike kinds end as "Authorization: Bearer <token>", whatever gave the token.
func (s Scheme) bearerLike() bool {
	return s.Kind == KindBearer || s.Kind == KindOAuth2 || s.Kind == KindOpenIDConnect
}

type planKey struct{}

// WithPlan returns ctx carrying the schemes to apply to the requests made with it.
func WithPlan(ctx context.Context, plan []Scheme) context.Context {
	if len(plan) == 0 {
		return ctx
	}
	return context.WithValue(ctx, planKey{}, plan)
}

// PlanOf returns the schemes ctx carries (WithPlan), or nil.
func PlanOf(ctx context.Context) []Scheme {
	plan, _ := ctx.Value(planKey{}).([]Scheme)
	return plan
}
