package facade

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// The guard against webhooks on the facade's own network (SSRF, CWE-918). A webhook URL is a
// caller's: without the guard, any caller could have the facade POST to 127.0.0.1, to the cloud's
// metadata service at 169.254.169.254, to a database's HTTP port on 10.x, from inside the network,
// and read whether it answered. So a webhook is an https URL whose address is public, checked
// twice: its text when it is registered (an address written in it, the scheme), and the address
// actually dialled, in the dialer's Control function, after DNS: a name that resolves to a private
// address, or that resolves to a public one when registered and a private one when called (DNS
// rebinding), is refused before the connection is made. No proxy is used (the guard would check
// the proxy's address, and the proxy would reach anything), and no redirect is followed (one to
// an internal URL would carry the POST there).

// blockedPrefixes are refused besides what netip.Addr's predicates say (loopback, private,
// link-local, multicast, unspecified): addresses that are not the public Internet's, and IPv6
// forms that embed an IPv4 address the checks of IPv4 would not see.
var blockedPrefixes = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",         // "this network"
		"100.64.0.0/10",     // carrier-grade NAT, shared address space (RFC 6598): often a cloud's internal network
		"192.0.0.0/24",      // IETF protocol assignments
		"198.18.0.0/15",     // benchmarking
		"240.0.0.0/4",       // reserved, and the broadcast address
		"64:ff9b::/96",      // NAT64: an IPv4 address behind an IPv6 one
		"64:ff9b:1::/48",    // local-use NAT64
		"2002::/16",         // 6to4: the same
		"fec0::/10",         // site-local (deprecated, still routed inside some networks)
		"100::/64",          // discard-only
		"2001:db8::/32",     // documentation
		"::ffff:0:0/96",     // IPv4-mapped (Unmap catches them first; kept for clarity)
		"::/128", "::1/128", // unspecified and loopback (the predicates say so too)
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// webhookGuard decides which webhooks may be called: Options.Push.AllowedWebhooks, parsed.
type webhookGuard struct {
	origins map[string]bool // "scheme://host:port", the port always written
	nets    []netip.Prefix
}

func newWebhookGuard(allowed []string) (*webhookGuard, error) {
	g := &webhookGuard{origins: map[string]bool{}}
	for i, entry := range allowed {
		entry = strings.TrimSpace(entry)
		if p, err := netip.ParsePrefix(entry); err == nil {
			g.nets = append(g.nets, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(entry); err == nil {
			g.nets = append(g.nets, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		u, err := url.Parse(entry)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("facade: Push.AllowedWebhooks[%d] must be an origin (scheme://host[:port]) or a CIDR", i)
		}
		g.origins[originOf(u)] = true
	}
	return g, nil
}

// originOf is u's scheme://host:port, lowercased, with the scheme's default port written.
func originOf(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(host, port)
}

// checkURL is the check of a webhook's text, at registration and again before each delivery.
// A name is not resolved here (its address is checked when it is dialled).
func (g *webhookGuard) checkURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "":
		return fmt.Errorf("%w: the webhook must be an absolute https URL", ErrWebhookRefused)
	case u.Scheme != "https" && u.Scheme != "http":
		return fmt.Errorf("%w: the webhook must be an https URL", ErrWebhookRefused)
	case u.User != nil:
		return fmt.Errorf("%w: a webhook URL carries no user info: give credentials as its authentication", ErrWebhookRefused)
	case g.origins[originOf(u)]:
		return nil // the operator's own webhook: whatever its address, http too
	}
	addr, literal := hostAddr(u.Hostname())
	if u.Scheme == "http" && !(literal && g.inAllowedNet(addr)) {
		return fmt.Errorf("%w: the webhook must be an https URL (http only to a webhook the operator allowed)", ErrWebhookRefused)
	}
	if literal && !g.dialable(addr) {
		return fmt.Errorf("%w: the webhook's address is not a public one", ErrWebhookRefused)
	}
	return nil
}

// hostAddr is host as an address, when it is one (IPv6 zones refused: they name an interface).
func hostAddr(host string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(host)
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

func (g *webhookGuard) inAllowedNet(a netip.Addr) bool {
	for _, p := range g.nets {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// dialable says whether a connection to a may be made: a public address, or one in an allowed net.
func (g *webhookGuard) dialable(a netip.Addr) bool {
	a = a.Unmap()
	if g.inAllowedNet(a) {
		return true
	}
	if !a.IsValid() || a.Zone() != "" || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// errBlockedAddress is the dial's refusal: a webhook whose name resolved to an address the guard
// refuses.
var errBlockedAddress = errors.New("the webhook resolved to an address that is not a public one")

type webhookOriginKey struct{}

// client is the HTTP client deliveries are made with: the guard at every dial, no proxy, no
// redirect, timeout per attempt.
func (g *webhookGuard) client(timeout time.Duration) *http.Client {
	guarded := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !g.dialable(ap.Addr()) {
			return errBlockedAddress
		}
		return nil
	}}
	open := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			// An allowed origin is the operator's: dialled wherever its name points. The request
			// carries its origin (a pooled connection serves only its own scheme, host and port).
			if origin, _ := ctx.Value(webhookOriginKey{}).(string); g.origins[origin] {
				return open.DialContext(ctx, network, addr)
			}
			return guarded.DialContext(ctx, network, addr)
		},
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{Transport: transport, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// withWebhookOrigin is ctx for a request to u, telling the dialer which origin it dials for.
func withWebhookOrigin(ctx context.Context, u *url.URL) context.Context {
	return context.WithValue(ctx, webhookOriginKey{}, originOf(u))
}
