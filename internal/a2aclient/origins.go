package a2aclient

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/credentials"
	"github.com/a2aport/a2aport/internal/netfail"
)

// originOf returns u's origin as a browser writes it (scheme://host[:port], default ports left
// out), or "" when u is not an absolute http(s) URL.
func originOf(u *url.URL) string {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return credentials.Origin(u)
}

// refusedInterface says why the origin policy refuses an interface at rawURL, or "" when it
// allows it: an interface on the card's own origin or on one of AllowedOrigins ("*": any), never
// plain http from an https card (loopback excepted). Credentials go wherever the adapter sends
// requests, so this is also the rule of where they may go. An in-memory card has no origin: the
// caller chose its interfaces.
func (a *Adapter) refusedInterface(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || originOf(u) == "" {
		return "not an absolute http(s) URL"
	}
	if a.s.cardURL == nil {
		return ""
	}
	if a.s.cardURL.Scheme == "https" && u.Scheme == "http" && !credentials.Loopback(u.Hostname()) {
		return "plain http from an https card"
	}
	origin := originOf(u)
	if origin == originOf(a.s.cardURL) {
		return ""
	}
	for _, allowed := range a.s.AllowedOrigins {
		if allowed == "*" || allowed == origin {
			return ""
		}
	}
	return "another origin than the card's (allow it with AllowedOrigins)"
}

// validOrigin reports whether s is an origin as AllowedOrigins takes it ("*" or
// scheme://host[:port] exactly as originOf writes it).
func validOrigin(s string) bool {
	if s == "*" {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && s != "" && u.Path == "" && u.RawQuery == "" && u.User == nil && originOf(u) == s
}

// checkRedirect lets the adapter's HTTP client follow a redirect only where the origin policy
// lets its requests go: credentials are attached below the client, to every request it makes,
// so a redirect elsewhere would take them there.
func (a *Adapter) checkRedirect(req *http.Request, via []*http.Request) error {
	status := 0
	if req.Response != nil {
		status = req.Response.StatusCode
	}
	if len(via) >= 10 {
		return &netfail.Redirect{Status: status, Location: a.redact(req.URL.Redacted()), Why: "after 10 redirects"}
	}
	if why := a.refusedInterface(req.URL.String()); why != "" {
		return &netfail.Redirect{Status: status, Location: a.redact(req.URL.Redacted()), Why: why}
	}
	return nil
}

// redirected types a redirect that was not followed: the agent's own answer, so the request did
// not run anywhere (never A2A_OUTCOME_UNKNOWN); fallback is the code of the request's kind.
func redirected(err error, fallback a2aport.Code) *a2aport.Error {
	var r *netfail.Redirect
	if !errors.As(err, &r) {
		return nil
	}
	code := a2aport.CodeHTTPError
	if fallback == a2aport.CodeDiscoveryFailed {
		code = fallback
	}
	return &a2aport.Error{Code: code, Status: r.Status, Message: r.Error(), Err: err}
}
