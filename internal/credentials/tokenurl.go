package credentials

import (
	"net"
	"net/url"
	"strings"
)

// A card names where its OAuth2 token endpoint is, and the client credentials flow sends the
// client secret there. A hostile card could name any place: another site, plain http, a cloud's
// metadata address. So the secret goes only over https (or plain http on loopback, for a local
// agent), and only to the card's own origin, an allowed origin, or a token URL the caller set
// (RFC 6749 §3.2 requires TLS for the token endpoint; the MCP authorization rules ask the same).

// refusedTokenURL says why the secret may not go to rawURL, or "" when it may. configured says
// the caller set it; origins are where a card's token URL may be (nil: anywhere).
func refusedTokenURL(rawURL string, configured bool, origins []string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return "not an absolute http(s) URL"
	}
	if u.Scheme == "http" && !Loopback(u.Hostname()) {
		return "plain http, which would carry the secret in the clear"
	}
	if configured || origins == nil {
		return ""
	}
	origin := Origin(u)
	for _, allowed := range origins {
		if allowed == "*" || allowed == origin {
			return ""
		}
	}
	return "not on the card's origin or an allowed one; set the credential's TokenURL to trust it"
}

// Origin is u's origin as a browser writes it: scheme://host[:port], default ports left out.
func Origin(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host
}

// Loopback reports whether host names this machine (localhost, 127.0.0.0/8, ::1).
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// TokenOrigins are the origins a card fetched from cardURL may name its token URL on: the card's
// own and allowed (an adapter's AllowedOrigins). Nil for an in-memory card (cardURL ""): its
// token URL is the caller's.
func TokenOrigins(cardURL string, allowed []string) []string {
	if cardURL == "" {
		return nil
	}
	u, err := url.Parse(cardURL)
	if err != nil {
		return []string{}
	}
	return append([]string{Origin(u)}, allowed...)
}
