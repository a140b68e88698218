package facade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport"
)

// newCard is the card of the facade at root: 1.0 JSON-RPC first, then 1.0 HTTP+JSON, 0.3
// JSON-RPC and 0.3 HTTP+JSON. It is served in the 0.3/1.0 union form, so that clients of either version read it.
func newCard(port a2aport.Port, opts Options, root string) *a2a.AgentCard {
	d := port.Describe()
	name := opts.Name
	if name == "" {
		name = d.Label
	}
	modes := d.Capabilities.InputModes
	if len(modes) == 0 {
		modes = []string{"text/plain"}
	}
	out := d.Capabilities.OutputModes
	if len(out) == 0 {
		out = []string{"text/plain"}
	}
	version := opts.Version
	if version == "" {
		version = programVersion()
	}
	return &a2a.AgentCard{
		Name: name, Description: opts.Description, Version: version,
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: root + EndpointPath, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
			{URL: root + RESTPath, ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version},
			{URL: root + EndpointPath, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "0.3"},
			{URL: root + V03RESTPath, ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: "0.3"},
		},
		Capabilities:         a2a.AgentCapabilities{Streaming: true},
		SecuritySchemes:      opts.SecuritySchemes,
		SecurityRequirements: opts.SecurityRequirements,
		DefaultInputModes:    modes,
		DefaultOutputModes:   out,
		Skills:               opts.Skills,
	}
}

// cardJSON is the card as served: its bytes, made once.
type cardJSON struct {
	card *a2a.AgentCard
	json []byte
}

func (c cardJSON) Card(context.Context) (*a2a.AgentCard, error) { return c.card, nil }
func (c cardJSON) CardJSON(context.Context) ([]byte, error)     { return c.json, nil }

// liveCard is a card whose skills are asked for on every request of it (Options.LiveSkills).
type liveCard struct {
	card   *a2a.AgentCard
	skills func() []a2a.AgentSkill
}

func (c liveCard) now() (cardJSON, error) {
	card := *c.card
	card.Skills = c.skills()
	return unionCard(&card)
}

func (c liveCard) Card(context.Context) (*a2a.AgentCard, error) {
	served, err := c.now()
	return served.card, err
}

func (c liveCard) CardJSON(context.Context) ([]byte, error) {
	served, err := c.now()
	return served.json, err
}

// unionCard writes card in a form that readers of A2A 0.3 and of 1.0 both take: a2a-go's 0.3/1.0
// union, with each security scheme in both shapes. The union writes schemes the 0.3 way only
// (a "type" member), which a 1.0 reader refuses; a 1.0 reader takes the one member of the scheme's
// oneof (httpAuthSecurityScheme, apiKeySecurityScheme, ...), and a 0.3 reader ignores it.
func unionCard(card *a2a.AgentCard) (cardJSON, error) {
	producer, ok := a2av0.NewStaticAgentCardProducer(card).(a2asrv.AgentCardJSONProducer)
	if !ok {
		return cardJSON{}, errors.New("facade: a2av0 no longer writes the union card")
	}
	union, err := producer.CardJSON(context.Background())
	if err != nil {
		return cardJSON{}, fmt.Errorf("facade: the card: %w", err)
	}
	if len(card.SecuritySchemes) == 0 {
		return cardJSON{card: card, json: union}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(union, &fields); err != nil {
		return cardJSON{}, fmt.Errorf("facade: the card: %w", err)
	}
	var legacy, current map[string]map[string]json.RawMessage
	if err := json.Unmarshal(fields["securitySchemes"], &legacy); err != nil {
		return cardJSON{}, fmt.Errorf("facade: the card's security schemes: %w", err)
	}
	data, err := json.Marshal(card.SecuritySchemes) // the 1.0 shape
	if err == nil {
		err = json.Unmarshal(data, &current)
	}
	if err != nil {
		return cardJSON{}, fmt.Errorf("facade: the card's security schemes: %w", err)
	}
	for name, members := range current {
		if legacy[name] == nil {
			legacy[name] = map[string]json.RawMessage{}
		}
		for k, v := range members {
			legacy[name][k] = v
		}
	}
	if fields["securitySchemes"], err = json.Marshal(legacy); err != nil {
		return cardJSON{}, err
	}
	out, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		return cardJSON{}, err
	}
	return cardJSON{card: card, json: out}, nil
}
