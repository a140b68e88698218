package a2aclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"golang.org/x/mod/semver"

	"github.com/a2aport/a2aport/internal/binding"
	"github.com/a2aport/a2aport/internal/netfail"
)

var errInvalidJSON = errors.New("body is not valid JSON")

// readCard GETs the Agent Card, again after a failure that may pass where a server was seen (a
// 5xx, a 429, a connection that broke: a GET changes nothing at the agent), up to RecoveryAttempts
// times with backoff, all within the discovery's request timeout. A failure that shows no server
// (refused, a name that does not resolve, a browser's "Failed to fetch", which says nothing more)
// is reported at once, the same in every runtime: a user who typed a wrong address learns it in
// milliseconds, not after backoffs meant for a Work in flight.
func (a *Adapter) readCard(ctx context.Context) ([]byte, error) {
	for attempt := 1; ; attempt++ {
		body, answered, err := a.getCard(ctx)
		var e *a2aport.Error
		if err == nil || !(answered || netfail.Broken(err)) || !errors.As(err, &e) || attempt > a.s.RecoveryAttempts || !(transient(e) || (e.Status != 0 && e.Retryable)) {
			return body, err
		}
		if sleep(ctx, a.s.Clock, recoveryDelay(a.s.RecoveryBackoff, attempt)) != nil {
			return nil, err
		}
	}
}

// getCard GETs the Agent Card once; answered says the agent's server answered (a status line came).
func (a *Adapter) getCard(ctx context.Context) (body []byte, answered bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.s.cardURL.String(), nil)
	if err != nil {
		return nil, false, a.wrap(a2aport.CodeDiscoveryFailed, "cannot build the Agent Card request", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, false, a.requestError(ctx, a2aport.CodeDiscoveryFailed, "Agent Card request failed", err, nil)
	}
	defer func() { _ = resp.Body.Close() }() // the body is fully read or abandoned; nothing to report
	limit := a.s.MaxCardBytes
	body, err = io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, true, a.requestError(ctx, a2aport.CodeDiscoveryFailed, "reading the Agent Card failed", err, nil)
	}
	if resp.StatusCode != http.StatusOK {
		e := newError(a2aport.CodeDiscoveryFailed, "Agent Card request answered HTTP %s%s", a.redact(statusLine(resp.StatusCode, summarize(body[:min(len(body), bodySummaryLen)]))), a.cardHint(resp.StatusCode))
		e.Status = resp.StatusCode
		e.Retryable = retryableStatus(resp.StatusCode)
		return nil, true, e
	}
	if len(body) > limit {
		return nil, true, newError(a2aport.CodeResponseTooLarge, "the Agent Card is larger than %d bytes", limit)
	}
	return body, true, nil
}

// cardHint adds to a 404 of the card request what the URL most likely lacks: a page that is not
// there was asked for the card, and the agent's base URL may have been taken for it.
func (a *Adapter) cardHint(status int) string {
	u := a.s.cardURL
	if status != http.StatusNotFound || strings.HasSuffix(u.Path, ".json") {
		return ""
	}
	base := *u
	base.Path, base.RawPath, base.RawQuery, base.Fragment = strings.TrimSuffix(u.Path, "/")+a2aport.WellKnownCardPath, "", "", ""
	return " (AgentCardURL names the card itself: an agent publishes it at " + base.Redacted() + ", or at its origin's " + a2aport.WellKnownCardPath + ")"
}

// fetchCard GETs the Agent Card URL through the adapter's transport (credentials included) and
// verifies its signature as VerifyCard asks, before anything of it is read. notes say which parts
// of the card were ignored because they could not be read.
func (a *Adapter) fetchCard(ctx context.Context) (*a2a.AgentCard, []string, *a2aport.CardSignature, error) {
	body, err := a.readCard(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	sig, err := a.checkSignature(ctx, body)
	if err != nil {
		return nil, nil, nil, err
	}
	parse := parseCurrentCard
	if a.s.legacy {
		parse = parseLegacyCard
	}
	card, notes, err := parseCard(body, parse)
	if err != nil {
		return nil, nil, nil, a.wrap(a2aport.CodeDiscoveryFailed, "Agent Card cannot be read", err)
	}
	return card, notes, sig, nil
}

// parseCurrentCard reads a card in 1.0 format.
func parseCurrentCard(body []byte) (*a2a.AgentCard, error) {
	card := new(a2a.AgentCard)
	if err := json.Unmarshal(body, card); err != nil {
		return nil, err
	}
	return card, nil
}

// parseLegacyCard reads a card in 0.3 format, 1.0 format, or the union of both.
func parseLegacyCard(body []byte) (*a2a.AgentCard, error) {
	return binding.ParseCompatCard(body)
}

// selectInterface returns the first interface declared by the card that this build can speak
// and the pins (ProtocolVersion, ProtocolBinding) allow.
func (a *Adapter) selectInterface(card *a2a.AgentCard) (*a2a.AgentInterface, error) {
	var offered, refused []string
	for _, iface := range card.SupportedInterfaces {
		if iface == nil {
			continue
		}
		offered = append(offered, fmt.Sprintf("%s %s", iface.ProtocolBinding, versionOrDefault(iface.ProtocolVersion)))
		if iface.ProtocolBinding != a2a.TransportProtocolJSONRPC && iface.ProtocolBinding != a2a.TransportProtocolHTTPJSON {
			continue
		}
		if pin := a.s.ProtocolBinding; pin != "" && a2aport.Binding(iface.ProtocolBinding) != pin {
			continue
		}
		major := semver.Major("v" + versionOrDefault(iface.ProtocolVersion))
		if pin := a.s.ProtocolVersion; pin != "" && major != semver.Major("v"+pin) {
			continue
		}
		if why := a.refusedInterface(iface.URL); why != "" {
			refused = append(refused, fmt.Sprintf("%s %s at %s: %s", iface.ProtocolBinding, versionOrDefault(iface.ProtocolVersion), a.redact(iface.URL), why))
			continue
		}
		switch major {
		case "v1":
			return iface, nil
		case "v0":
			if a.s.legacy {
				return iface, nil
			}
		}
	}
	if len(offered) == 0 {
		return nil, newError(a2aport.CodeNoCompatibleTransport, "the Agent Card declares no interface")
	}
	if a.s.ProtocolBinding == a2aport.BindingGRPC {
		return nil, newError(a2aport.CodeNoCompatibleTransport, "ProtocolBinding is pinned to GRPC, which a2aport does not speak (it speaks JSONRPC and HTTP+JSON); the Agent Card offers [%s]", strings.Join(offered, ", "))
	}
	e := newError(a2aport.CodeNoCompatibleTransport, "no compatible interface: the Agent Card offers [%s], this client speaks %s", strings.Join(offered, ", "), a.speaks())
	if len(refused) > 0 {
		e.Message += "; refused by the origin policy: " + strings.Join(refused, "; ")
	}
	return nil, e
}

// speaks says which interfaces this adapter accepts, pins included.
func (a *Adapter) speaks() string {
	bindings := "JSONRPC or HTTP+JSON"
	if a.s.ProtocolBinding != "" {
		bindings = string(a.s.ProtocolBinding) + " (pinned)"
	}
	versions := "A2A 1.x"
	switch {
	case a.s.ProtocolVersion != "":
		versions = "A2A " + a.s.ProtocolVersion + " (pinned)"
	case a.s.legacy:
		versions += " or 0.3"
	}
	return bindings + ", " + versions
}

// versionOrDefault is an interface's protocol version as major.minor ("1.0", "0.3": cards write
// "0.3.0" as well as "0.3"), the current one when the card leaves it out.
func versionOrDefault(v a2a.ProtocolVersion) string {
	if v == "" {
		v = a2a.Version
	}
	raw := strings.TrimPrefix(string(v), "v")
	if mm := semver.MajorMinor("v" + raw); mm != "" {
		return strings.TrimPrefix(mm, "v")
	}
	return raw
}

// agentClient is the client of the one selected interface (internal/binding, for A2A 1.0 and
// 0.3 alike).
type agentClient interface {
	SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error)
	SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error]
	SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error]
	GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error)
	CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error)
	GetExtendedAgentCard(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error)
	Destroy() error
}

// newClient builds the client bound to the one selected interface, asking for the active
// extensions on every call.
func (a *Adapter) newClient(ctx context.Context, card *a2a.AgentCard, iface *a2a.AgentInterface, extensions []string) (agentClient, error) {
	client, err := binding.NewAgent(card, iface, a.http, binding.Config{Extensions: extensions, AcceptedOutputModes: a.s.AcceptedOutputModes})
	if err != nil {
		return nil, a.wrap(a2aport.CodeNoCompatibleTransport, "cannot open the selected interface", err)
	}
	return client, nil
}
