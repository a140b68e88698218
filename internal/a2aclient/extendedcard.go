package a2aclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// adoptExtendedCard reads the extended card an agent offers to authenticated callers and, when it
// is usable, makes it the connection's card (its interfaces, skills and capabilities). A failure is
// noted, not fatal: the public card still works.
//
// a2a-go makes the request (its method, path and tenant for each binding and version), but the
// card is read from the bytes of the answer with the public card's reader: a2a-go's own decoding
// trips on shapes the SDKs really write (proto-JSON scopes, ts-proto oneofs), and the signature is
// checked over the card as sent.
func (a *Adapter) adoptExtendedCard(ctx context.Context, conn *connection) {
	ctx, answer := withBodyCapture(ctx, a.s.MaxCardBytes)
	_, callErr := conn.client.GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
	raw := answer.card(conn.iface.ProtocolBinding)
	if raw == nil {
		err := callErr
		if err == nil {
			err = errNoExtendedCard
		}
		conn.notes = append(conn.notes, a.redact("extended card: not read: "+err.Error()))
		return
	}
	var sig *a2aport.CardSignature
	if conn.signature != nil {
		var err error
		if sig, err = a.checkSignature(ctx, raw); err != nil {
			conn.notes = append(conn.notes, a.redact("extended card: not used: "+err.Error()))
			return
		}
	}
	parse := parseCurrentCard
	if a.s.legacy {
		parse = parseLegacyCard
	}
	card, notes, err := parseCard(raw, parse)
	if err != nil {
		conn.notes = append(conn.notes, a.redact("extended card: not read: "+err.Error()))
		return
	}
	for _, n := range notes {
		conn.notes = append(conn.notes, "extended card: "+n)
	}
	if err := a.useExtendedCard(ctx, conn, card); err != nil {
		conn.notes = append(conn.notes, a.redact("extended card: not used: "+err.Error()))
		return
	}
	conn.signature = sig
}

// useExtendedCard makes card the connection's, if its interfaces and extensions can be used.
func (a *Adapter) useExtendedCard(ctx context.Context, conn *connection, card *a2a.AgentCard) error {
	if err := checkCredentialForms(card, a.s.held()); err != nil {
		return err
	}
	iface, err := a.selectInterface(card)
	if err != nil {
		return err
	}
	extensions, err := a.activeExtensions(card)
	if err != nil {
		return err
	}
	client, err := a.newClient(ctx, card, iface, extensions)
	if err != nil {
		return err
	}
	_ = conn.client.Destroy() // replaced; nothing of it is in use yet
	conn.card, conn.iface, conn.client, conn.extended = card, iface, client, true
	conn.auth = planAuth(card, a.s.held())
	return nil
}

var errNoExtendedCard = &a2aport.Error{Code: a2aport.CodeInvalidResponse, Message: "the agent answered with no card"}

// bodyCapture keeps a copy of the successful answer to one request (withBodyCapture), up to a
// limit: the statusRecorder tees the body into it as a2a-go reads.
type bodyCapture struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	over  bool
}

type captureKey struct{}

func withBodyCapture(ctx context.Context, limit int) (context.Context, *bodyCapture) {
	c := &bodyCapture{limit: limit}
	return context.WithValue(ctx, captureKey{}, c), c
}

// captureOf is the capture the request's context asks for, or nil.
func captureOf(ctx context.Context) *bodyCapture {
	c, _ := ctx.Value(captureKey{}).(*bodyCapture)
	return c
}

// tee returns body, copying what is read of it.
func (c *bodyCapture) tee(body io.ReadCloser) io.ReadCloser {
	c.mu.Lock()
	c.buf.Reset()
	c.over = false
	c.mu.Unlock()
	return struct {
		io.Reader
		io.Closer
	}{io.TeeReader(body, c), body}
}

func (c *bodyCapture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.buf.Len()+len(p) > c.limit {
		c.over = true
		return len(p), nil // the copy stops; the reader reads on
	}
	return c.buf.Write(p)
}

// card returns the card the captured answer carries: the body itself (HTTP+JSON), or the result
// of a JSON-RPC answer; nil when there is none (an error answer, nothing captured, too large).
func (c *bodyCapture) card(binding a2a.TransportProtocol) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	body := bytes.TrimSpace(c.buf.Bytes())
	if c.over || len(body) == 0 {
		return nil
	}
	if binding != a2a.TransportProtocolJSONRPC {
		return bytes.Clone(body)
	}
	var answer struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || len(answer.Result) == 0 || bytes.Equal(answer.Result, []byte("null")) {
		return nil
	}
	return answer.Result
}
