package credentials

import (
	"errors"
	"strings"

	"github.com/a2aport/a2aport"
)

// Credential is the contract's: one secret for one security scheme of the Agent Card.
type Credential = a2aport.Credential

// Form says which form of Credential is set.
type Form string

// Forms of Credential.
const (
	FormToken             Form = "token"
	FormBasic             Form = "basic"
	FormClientCredentials Form = "clientCredentials"
	FormTransport         Form = "transport" // nothing set: the transport presents it (mutual TLS)
)

// FormOf returns the form c is in, or an error when it mixes forms or misses half of one.
func FormOf(c Credential) (Form, error) {
	token := c.Token != ""
	basic := c.Username != "" || c.Password != ""
	client := c.ClientID != "" || c.ClientSecret != "" || len(c.Scopes) > 0 || c.TokenURL != ""
	switch {
	case btoi(token)+btoi(basic)+btoi(client) > 1:
		return "", errors.New("sets more than one of Token, Username/Password and ClientID/ClientSecret")
	case token:
		return FormToken, nil
	case basic:
		if c.Username == "" {
			return "", errors.New("has a Password but no Username")
		}
		if strings.Contains(c.Username, ":") {
			return "", errors.New("has a Username with a colon, which HTTP basic cannot carry")
		}
		return FormBasic, nil
	case client:
		if c.ClientID == "" || c.ClientSecret == "" {
			return "", errors.New("needs both ClientID and ClientSecret for client credentials")
		}
		return FormClientCredentials, nil
	}
	return FormTransport, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Fits reports whether a credential of form f can satisfy scheme s.
func (f Form) Fits(s Scheme) bool {
	switch s.Kind {
	case KindBearer, KindAPIKey, KindOpenIDConnect:
		return f == FormToken
	case KindBasic:
		return f == FormBasic
	case KindOAuth2:
		return f == FormToken || f == FormClientCredentials
	case KindMutualTLS:
		return f == FormTransport
	}
	return false
}

// ProviderFits reports whether a token provider can satisfy s: it gives tokens, and API keys.
func ProviderFits(s Scheme) bool { return s.bearerLike() || s.Kind == KindAPIKey }

// TokenFits reports whether the plain bearer token (Options.Token) satisfies s.
func TokenFits(s Scheme) bool { return s.bearerLike() }
