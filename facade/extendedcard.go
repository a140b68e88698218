package facade

import (
	"context"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// extendedCard answers GetExtendedAgentCard (Options.ExtendedSkills): the public card with the
// skills the caller of the request may use, which the public card, read by anyone, cannot tell.
type extendedCard struct {
	card   *a2a.AgentCard
	skills func(ctx context.Context) []a2a.AgentSkill
}

func (c extendedCard) ExtendedCard(ctx context.Context, _ *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	card := *c.card
	card.Skills = c.skills(ctx)
	if isLegacyCall(ctx) {
		card.SupportedInterfaces = legacyFirst(card.SupportedInterfaces)
	}
	return &card, nil
}

// legacyFirst is ifaces with the 0.3 ones first. a2a-go writes the extended card of a 0.3 call
// in 0.3's shape (a2av0.FromV1AgentCard), whose url, preferredTransport and protocolVersion are the
// first interface's: a 0.3 caller must find a 0.3 interface there.
func legacyFirst(ifaces []*a2a.AgentInterface) []*a2a.AgentInterface {
	out := make([]*a2a.AgentInterface, 0, len(ifaces))
	for _, legacy := range []bool{true, false} {
		for _, iface := range ifaces {
			if (iface.ProtocolVersion == version03) == legacy {
				out = append(out, iface)
			}
		}
	}
	return out
}
