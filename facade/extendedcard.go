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
	return &card, nil
}
