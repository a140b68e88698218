package agent

import "strings"

// Values of [Variant.Version] and [Variant.Binding].
const (
	version10 = "1.0"
	version03 = "0.3"

	bindingJSONRPC  = "JSONRPC"
	bindingHTTPJSON = "HTTP+JSON"
)

// Variant is one protocol flavour the test agent serves: an A2A version,
// a transport binding and whether streaming is offered.
type Variant struct {
	Version   string // "1.0" or "0.3"
	Binding   string // "JSONRPC" or "HTTP+JSON"
	Streaming bool
	// Push: the agent also sends push notifications (a2a-go's sender, to any address, loopback
	// included), and its card says so. Only [PushVariants] have it.
	Push bool
}

// Variants returns all eight variants served by [Start]:
// {1.0, 0.3} x {JSONRPC, HTTP+JSON} x {streaming, polling}.
func Variants() []Variant {
	var out []Variant
	for _, version := range []string{version10, version03} {
		for _, binding := range []string{bindingJSONRPC, bindingHTTPJSON} {
			for _, streaming := range []bool{true, false} {
				out = append(out, Variant{Version: version, Binding: binding, Streaming: streaming})
			}
		}
	}
	return out
}

// PushVariants returns the four variants that stream and push, served by [Start] too:
// {1.0, 0.3} x {JSONRPC, HTTP+JSON}.
func PushVariants() []Variant {
	var out []Variant
	for _, v := range Variants() {
		if v.Streaming {
			v.Push = true
			out = append(out, v)
		}
	}
	return out
}

// Name identifies the variant in test names, URLs and [Request.Variant],
// for example "v1-jsonrpc-stream" or "v03-rest-poll".
func (v Variant) Name() string {
	version := "v?"
	switch v.Version {
	case version10:
		version = "v1"
	case version03:
		version = "v03"
	}
	binding := "?"
	switch v.Binding {
	case bindingJSONRPC:
		binding = "jsonrpc"
	case bindingHTTPJSON:
		binding = "rest"
	}
	mode := "poll"
	switch {
	case v.Push:
		mode = "push"
	case v.Streaming:
		mode = "stream"
	}
	return version + "-" + binding + "-" + mode
}

// prefix is the URL path the variant is mounted under, e.g. "/v1/jsonrpc/stream".
func (v Variant) prefix() string {
	return "/" + strings.ReplaceAll(v.Name(), "-", "/")
}
