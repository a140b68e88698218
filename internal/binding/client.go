package binding

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Client sends requests through Transport and follows redirects the way http.Client does,
// without being one: an http.Client falls back to http.DefaultTransport, and that one reference
// links net/http's connection code and all of crypto/tls into the WebAssembly module (5 MB of
// its 14). Everything a2aport sends goes through a Client.
type Client struct {
	// Transport performs each request; it must be set.
	Transport http.RoundTripper
	// CheckRedirect, if set, is asked before a redirect is followed, with the request about to
	// be sent (its Response is the redirect) and the requests so far, oldest first. Its error
	// ends Do. Without it at most 10 redirects are followed.
	CheckRedirect func(req *http.Request, via []*http.Request) error
}

// Do sends req and follows its redirects. Errors of the transport or of CheckRedirect come as a
// *url.Error, as http.Client's do; a redirect that cannot be followed (no Location, a body that
// cannot be sent again) is returned as the response.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	var via []*http.Request
	for {
		resp, err := c.Transport.RoundTrip(req)
		if err != nil {
			return nil, urlError(req, err)
		}
		next := redirectOf(req, resp)
		if next == nil {
			return resp, nil
		}
		via = append(via, req)
		check := c.CheckRedirect
		if check == nil {
			check = tenRedirects
		}
		if err := check(next, via); err != nil {
			closeBody(resp)
			return nil, urlError(next, err)
		}
		closeBody(resp)
		req = next
	}
}

// redirectOf is the request that follows resp to req, or nil when resp is not a redirect that can
// be followed: 301, 302 and 303 turn a request other than GET or HEAD into a GET without a body;
// 307 and 308 repeat it, body included, which needs req.GetBody.
func redirectOf(req *http.Request, resp *http.Response) *http.Request {
	var method string
	keepBody := false
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther:
		method = req.Method
		if method != http.MethodGet && method != http.MethodHead {
			method = http.MethodGet
		}
	case http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		method, keepBody = req.Method, true
		if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
			return nil
		}
	default:
		return nil
	}
	location := resp.Header.Get("Location")
	if location == "" {
		return nil
	}
	target, err := req.URL.Parse(location)
	if err != nil {
		return nil
	}
	next, err := http.NewRequestWithContext(req.Context(), method, target.String(), nil)
	if err != nil {
		return nil
	}
	next.Header = req.Header.Clone()
	if keepBody && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil
		}
		next.Body, next.GetBody, next.ContentLength = body, req.GetBody, req.ContentLength
	} else {
		next.Header.Del("Content-Type")
		next.Header.Del("Content-Length")
	}
	next.Response = resp
	return next
}

func tenRedirects(_ *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// urlError is err as http.Client reports it: `Post "https://…": err`.
func urlError(req *http.Request, err error) error {
	var already *url.Error
	if errors.As(err, &already) {
		return err
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	return &url.Error{Op: method[:1] + strings.ToLower(method[1:]), URL: req.URL.Redacted(), Err: err}
}

// closeBody drains a little of a body it closes, so a connection may be reused.
func closeBody(resp *http.Response) {
	_, _ = io.CopyN(io.Discard, resp.Body, 2<<10)
	_ = resp.Body.Close() // the response is not used
}
