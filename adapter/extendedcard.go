package adapter

import (
	"context"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// adoptExtendedCard reads the extended card an agent offers to authenticated callers and, when it
// is usable, makes it the connection's card (its interfaces, skills and capabilities). A failure is
// noted, not fatal: the public card still works.
func (a *Adapter) adoptExtendedCard(ctx context.Context, conn *connection) {
	card, err := conn.client.GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
	if err == nil && card == nil {
		err = errNoExtendedCard
	}
	if err != nil {
		conn.notes = append(conn.notes, a.redact("extended card: not read: "+err.Error()))
		return
	}
	var sig *CardSignature
	if conn.signature != nil {
		if sig, err = a.checkCardSignature(ctx, card); err != nil {
			conn.notes = append(conn.notes, a.redact("extended card: not used: "+err.Error()))
			return
		}
	}
	iface, err := a.selectInterface(card)
	if err != nil {
		conn.notes = append(conn.notes, a.redact("extended card: not used: "+err.Error()))
		return
	}
	extensions, err := a.activeExtensions(card)
	if err != nil {
		conn.notes = append(conn.notes, a.redact("extended card: not used: "+err.Error()))
		return
	}
	client, err := a.newClient(ctx, card, iface, extensions)
	if err != nil {
		conn.notes = append(conn.notes, a.redact("extended card: not used: "+err.Error()))
		return
	}
	_ = conn.client.Destroy() // replaced; nothing of it is in use yet
	conn.card, conn.iface, conn.client, conn.extended = card, iface, client, true
	conn.auth = planAuth(card, a.s.held())
	conn.signature = sig
}

var errNoExtendedCard = &Error{Code: CodeInvalidResponse, Message: "the agent answered with no card"}
