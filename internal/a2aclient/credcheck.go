package a2aclient

import (
	"fmt"
	"sort"
	"strings"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/credentials"
)

// Credentials are given by the names the card gives its schemes, so a mistake in them shows only
// once the card is read. A credential in a form its scheme cannot use (a token for HTTP basic,
// a username for a bearer scheme) fails Start with INVALID_OPTIONS naming the scheme and the form
// it takes; a credential for a scheme the card does not declare is noted in Describe().CardNotes
// (it may be meant for the extended card, or for a card to come).

// checkCredentialForms fails when a held credential names a scheme of card in a form that scheme
// cannot use.
func checkCredentialForms(card *a2a.AgentCard, h *credentials.Held) error {
	for _, name := range sortedNames(h.Schemes) {
		declared, ok := card.SecuritySchemes[a2a.SecuritySchemeName(name)]
		if !ok {
			continue
		}
		s := schemeOf(name, declared, nil)
		if form := credentials.Form(h.Schemes[name]); !form.Fits(s) {
			return newError(a2aport.CodeInvalidOptions, "Credentials[%q] is %s, but the Agent Card's scheme %q is %s, which takes %s",
				name, formName(form), name, kindName(s), expectedForm(s.Kind))
		}
	}
	return nil
}

// unknownCredentialNotes name the held credentials for schemes card does not declare.
func unknownCredentialNotes(card *a2a.AgentCard, h *credentials.Held) []string {
	var notes []string
	for _, name := range sortedNames(h.Schemes) {
		if _, ok := card.SecuritySchemes[a2a.SecuritySchemeName(name)]; ok {
			continue
		}
		declared := make([]string, 0, len(card.SecuritySchemes))
		for n := range card.SecuritySchemes {
			declared = append(declared, string(n))
		}
		sort.Strings(declared)
		what := "declares no security scheme"
		if len(declared) > 0 {
			what = "declares " + strings.Join(declared, ", ")
		}
		notes = append(notes, fmt.Sprintf("Credentials[%q] is for no scheme of the Agent Card, which %s: it is not used", name, what))
	}
	return notes
}

func sortedNames(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func formName(f credentials.Form) string {
	switch f {
	case credentials.FormToken:
		return "a token"
	case credentials.FormBasic:
		return "a username and password"
	case credentials.FormClientCredentials:
		return "OAuth2 client credentials"
	}
	return "empty (for a transport's client certificate)"
}

func kindName(s credentials.Scheme) string {
	switch s.Kind {
	case credentials.KindBearer:
		return "HTTP bearer"
	case credentials.KindBasic:
		return "HTTP basic"
	case credentials.KindAPIKey:
		return "an API key in the " + s.In
	case credentials.KindOAuth2:
		return "OAuth2"
	case credentials.KindOpenIDConnect:
		return "OpenID Connect"
	case credentials.KindMutualTLS:
		return "mutual TLS"
	}
	return "a kind a2aport cannot apply"
}

// expectedForm says, in the words of both APIs, what a scheme of kind takes.
func expectedForm(kind credentials.Kind) string {
	switch kind {
	case credentials.KindBearer, credentials.KindAPIKey, credentials.KindOpenIDConnect:
		return "a token (Go: {Token}; JS: a string)"
	case credentials.KindBasic:
		return "a username and password (Go: {Username, Password}; JS: {username, password})"
	case credentials.KindOAuth2:
		return "a token, or client credentials (Go: {ClientID, ClientSecret}; JS: {clientId, clientSecret})"
	case credentials.KindMutualTLS:
		return "an empty credential, with the client certificate in Transport (JS: {}, with a fetchImpl that presents it)"
	}
	return "no credential a2aport can apply"
}
