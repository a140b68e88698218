package gateway

import (
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// reservedHeaders are headers a backend's static headers may not set: the transport's own, the
// trace the gateway passes on, and the A2A version the adapter negotiates.
var reservedHeaders = map[string]bool{"Host": true, "Content-Length": true, "Content-Type": true, "Transfer-Encoding": true,
	"Connection": true, "Traceparent": true, "Tracestate": true, "A2a-Version": true, "Accept": true}

// checkHeader says what is wrong with a static header, or "". It never repeats the value.
func checkHeader(name, value string) string {
	switch {
	case !httpguts.ValidHeaderFieldName(name):
		return "is not a header name"
	case reservedHeaders[http.CanonicalHeaderKey(name)]:
		return "is set by the gateway itself"
	case !httpguts.ValidHeaderFieldValue(value):
		return "the value has a character a header cannot hold (a line break, a control character)"
	}
	return ""
}

// originHeaders are a backend's static headers as the adapter's HeaderFunc: sent with a request
// to the origin of the backend's card or one of the origins the operator allowed its interfaces
// on, and nowhere else: not to a token endpoint, not after a redirect to another host. (The
// adapter refuses interfaces elsewhere already; this holds whatever the request.)
func originHeaders(cardURL string, allowed []string, headers map[string]string) func(*http.Request) (http.Header, error) {
	card, err := url.Parse(cardURL)
	if err != nil || len(headers) == 0 {
		return nil
	}
	origins := []*url.URL{card}
	for _, o := range allowed {
		if u, err := url.Parse(o); err == nil {
			origins = append(origins, u)
		}
	}
	h := http.Header{}
	for name, value := range headers {
		h.Set(name, value)
	}
	return func(req *http.Request) (http.Header, error) {
		for _, o := range origins {
			if sameOrigin(o, req.URL) {
				return h.Clone(), nil
			}
		}
		return nil, nil
	}
}

// sameOrigin compares scheme, host and port (a default port spelt or not).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return u.Hostname() + ":443"
	case "http":
		return u.Hostname() + ":80"
	}
	return u.Host
}
