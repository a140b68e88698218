package a2aclient

import (
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/credentials"
)

// held is what the adapter's requests can carry, natively or through a host.
func (s *settings) held() *credentials.Held {
	if s.hostHeld != nil {
		return s.hostHeld
	}
	if h := credentials.HeldBy(s.Options); h != nil {
		return h
	}
	return &credentials.Held{}
}

// hasCredentials reports whether requests carry any of the caller's credentials: an extended
// card is for authenticated callers only.
func (s *settings) hasCredentials() bool {
	h := s.held()
	return h.Token || h.Headers || h.TokenProvider || len(h.Schemes) > 0
}

func validateCredentials(o a2aport.Options, hostHeld *credentials.Held) error {
	for name, c := range o.Credentials {
		if strings.TrimSpace(name) == "" {
			return newError(a2aport.CodeInvalidOptions, "Credentials contain an empty scheme name")
		}
		if _, err := credentials.FormOf(c); err != nil {
			return newError(a2aport.CodeInvalidOptions, "Credentials[%q] %v", name, err)
		}
	}
	if hostHeld != nil {
		for name, form := range hostHeld.Schemes {
			switch credentials.Form(form) {
			case credentials.FormToken, credentials.FormBasic, credentials.FormClientCredentials, credentials.FormTransport:
			default:
				return newError(a2aport.CodeInvalidOptions, "HostCredentials: scheme %q has unknown form %q", name, form)
			}
		}
	}
	return nil
}

// authState is the card's security as it applies to this adapter: the schemes each request to the
// agent gets, and what Describe and A2A_AUTH_REQUIRED say about it.
type authState struct {
	plan     []credentials.Scheme
	security *a2aport.Security
}

// planAuth chooses the first of the card's requirement sets (an OR of ANDs) that the held
// credentials satisfy entirely.
func planAuth(card *a2a.AgentCard, h *credentials.Held) *authState {
	st := &authState{}
	if len(card.SecuritySchemes) == 0 && len(card.SecurityRequirements) == 0 {
		return st
	}
	sec := &a2aport.Security{Required: len(card.SecurityRequirements) > 0}
	names := make([]string, 0, len(card.SecuritySchemes))
	for name := range card.SecuritySchemes {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, name := range names {
		s := schemeOf(name, card.SecuritySchemes[a2a.SecuritySchemeName(name)], nil)
		sec.Schemes = append(sec.Schemes, a2aport.SecurityScheme{Name: name, Kind: string(s.Kind), In: s.In, Param: s.Param})
	}
	st.security = sec
	for _, req := range card.SecurityRequirements {
		set := make([]string, 0, len(req))
		for name := range req {
			set = append(set, string(name))
		}
		sort.Strings(set)
		sec.Requirements = append(sec.Requirements, set)
		if sec.InUse != nil {
			continue
		}
		if plan, ok := satisfy(card, req, set, h); ok {
			st.plan, sec.InUse = plan, set
		}
	}
	sec.Missing = sec.Required && sec.InUse == nil
	return st
}

// satisfy returns the schemes to apply for one requirement set, if every scheme in it is
// declared and held in a form that fits.
func satisfy(card *a2a.AgentCard, req a2a.SecurityRequirements, set []string, h *credentials.Held) ([]credentials.Scheme, bool) {
	plan := []credentials.Scheme{}
	for _, name := range set {
		declared, ok := card.SecuritySchemes[a2a.SecuritySchemeName(name)]
		if !ok {
			return nil, false
		}
		s := schemeOf(name, declared, req[a2a.SecuritySchemeName(name)])
		form, given := h.Schemes[name]
		switch {
		case given && credentials.Form(form).Fits(s):
			plan = append(plan, s)
		case !given && h.TokenProvider && credentials.ProviderFits(s):
			plan = append(plan, s)
		case !given && h.Token && credentials.TokenFits(s):
			// Options.Token already sends "Authorization: Bearer".
		default:
			return nil, false
		}
	}
	return plan, true
}

// schemeOf is how a declared security scheme applies to a request.
func schemeOf(name string, declared a2a.SecurityScheme, scopes []string) credentials.Scheme {
	s := credentials.Scheme{Name: name, Kind: credentials.KindUnsupported, Scopes: scopes}
	switch v := deref(declared).(type) {
	case a2a.HTTPAuthSecurityScheme:
		switch strings.ToLower(v.Scheme) {
		case "bearer":
			s.Kind = credentials.KindBearer
		case "basic":
			s.Kind = credentials.KindBasic
		}
	case a2a.APIKeySecurityScheme:
		s.Kind, s.In, s.Param = credentials.KindAPIKey, string(v.Location), v.Name
	case a2a.OAuth2SecurityScheme:
		s.Kind = credentials.KindOAuth2
		if flow, ok := deref(v.Flows).(a2a.ClientCredentialsOAuthFlow); ok {
			s.TokenURL = flow.TokenURL
		}
	case a2a.OpenIDConnectSecurityScheme:
		s.Kind = credentials.KindOpenIDConnect
	case a2a.MutualTLSSecurityScheme:
		s.Kind = credentials.KindMutualTLS
	}
	return s
}

// deref turns the pointer forms of a2a-go's union members into their values.
func deref(v any) any {
	switch p := v.(type) {
	case *a2a.HTTPAuthSecurityScheme:
		return *p
	case *a2a.APIKeySecurityScheme:
		return *p
	case *a2a.OAuth2SecurityScheme:
		return *p
	case *a2a.OpenIDConnectSecurityScheme:
		return *p
	case *a2a.MutualTLSSecurityScheme:
		return *p
	case *a2a.ClientCredentialsOAuthFlow:
		return *p
	}
	return v
}

// authPlanner puts the schemes in use on every request to the agent, for the credentials
// transport (natively) or the host (in the module) to apply.
type authPlanner struct {
	base http.RoundTripper
	auth *atomic.Pointer[authState]
}

func (p authPlanner) RoundTrip(req *http.Request) (*http.Response, error) {
	if st := p.auth.Load(); st != nil && len(st.plan) > 0 {
		req = req.WithContext(credentials.WithPlan(req.Context(), st.plan))
	}
	return p.base.RoundTrip(req)
}

// authRequired types a 401 or 403 of the agent: never retryable, and naming what the card asks
// for, what was sent and the agent's challenge (its schemes only, never a value).
func (a *Adapter) authRequired(what string, status int, challenge, summary string) *a2aport.Error {
	msg := what + ": HTTP " + http.StatusText(status) + " (" + strconv.Itoa(status) + ")"
	if st := a.auth.Load(); st != nil && st.security != nil {
		sec := st.security
		switch {
		case sec.InUse != nil:
			msg += "; sent the credentials of " + strings.Join(sec.InUse, " and ")
			if len(sec.Requirements) > 0 {
				msg += "; the card asks for " + describeRequirements(sec)
			}
		case sec.Missing:
			msg += "; no credentials satisfy the card, which asks for " + describeRequirements(sec)
		}
	}
	if schemes := challengeSchemes(challenge); len(schemes) > 0 {
		msg += "; the agent asks for " + strings.Join(schemes, " or ")
	}
	if summary != "" {
		msg += ": " + summary
	}
	return &a2aport.Error{Code: a2aport.CodeAuthRequired, Status: status, Message: a.redact(msg)}
}

// describeRequirements names the card's requirement sets, then what each of their schemes takes:
// "basic and key, or bearer (basic: a username and password ...; key: a token ...; ...)".
func describeRequirements(sec *a2aport.Security) string {
	kinds := map[string]credentials.Kind{}
	for _, s := range sec.Schemes {
		kinds[s.Name] = credentials.Kind(s.Kind)
	}
	parts := make([]string, len(sec.Requirements))
	var forms []string
	seen := map[string]bool{}
	for i, set := range sec.Requirements {
		parts[i] = strings.Join(set, " and ")
		for _, name := range set {
			if !seen[name] {
				seen[name] = true
				forms = append(forms, name+": "+expectedForm(kinds[name]))
			}
		}
	}
	return strings.Join(parts, ", or ") + " (" + strings.Join(forms, "; ") + ")"
}

// challengeSchemes returns the auth-scheme names of a WWW-Authenticate header (RFC 9110 §11.6.1):
// the tokens that start a challenge, never their parameters.
func challengeSchemes(header string) []string {
	var schemes []string
	for _, part := range strings.Split(header, ",") {
		word, _, _ := strings.Cut(strings.TrimSpace(part), " ")
		if word == "" || strings.ContainsAny(word, "=\"") || slices.Contains(schemes, word) {
			continue
		}
		schemes = append(schemes, word)
	}
	return schemes
}

// cloneSecurity returns a copy of s the caller may keep (nil stays nil).
func cloneSecurity(s *a2aport.Security) *a2aport.Security {
	if s == nil {
		return nil
	}
	c := *s
	c.Schemes = slices.Clone(s.Schemes)
	c.Requirements = make([][]string, len(s.Requirements))
	for i, set := range s.Requirements {
		c.Requirements[i] = slices.Clone(set)
	}
	c.InUse = slices.Clone(s.InUse)
	return &c
}
