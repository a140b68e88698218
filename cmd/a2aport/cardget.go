package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var cardGetCommand = &subcommand{
	name: "card get", args: "[REF]", summary: "print an agent's card: its interfaces, the one chosen, capabilities, security, skills",
	about: `Reads the Agent Card (REF or --agent-card: a host, whose /.well-known/agent-card.json is read, a
card URL, or a card file) and prints it as Label: value lines, with the interface a2aport would
use given --transport and --a2a-version; -o json prints the protocol's AgentCard (a 0.3 card as
A2A 1.0 has it). --validate checks the fields A2A requires of a card and exits 1 when one is
missing. a2aport card REF is a2aport's own, richer view of it.`,
	examples: `$ a2aport card get http://127.0.0.1:8080
$ a2aport card get -a https://agent.example -o json | jq .skills
$ a2aport card get ./agent-card.json --validate`,
	groups:   []flagGroup{{"Card", []string{"validate"}}, agentFlagGroup},
	operands: operandURL,
	flags:    func(fs *flag.FlagSet) { new(cardGetFlags).register(fs) },
	run:      interruptible(runCardGet),
}

type cardGetFlags struct {
	agent    agentFlags
	validate bool
}

func (f *cardGetFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	fs.BoolVar(&f.validate, "validate", false, "check the fields A2A requires of a card (exit 1 when one is missing)")
}

// runCardGet prints the card and the interface the flags choose.
func runCardGet(ctx context.Context, args []string, s streams) int {
	var f cardGetFlags
	ref, code, ok := agentRef("card get", args, s, &f.agent, f.register)
	if !ok {
		return code
	}
	asJSON := f.agent.output == "json"
	card, u, raw, err := loadCard(ctx, ref, &f.agent, s.stderr)
	if err != nil {
		return report(s, asJSON, classify(err, nil, false))
	}
	var problems []string
	if f.validate {
		var notes []string
		if problems, notes = validateAgainstSchema(card, raw); len(notes) > 0 {
			for _, n := range notes {
				fmt.Fprintln(s.stderr, "Note:", cleanLine(n))
			}
		}
	}
	if asJSON {
		_ = writeJSON(s.stdout, card)
	} else {
		writeCardText(s, card, u, &f.agent, problems, f.validate)
	}
	if len(problems) > 0 {
		return report(s, false, &cliError{code: errCardInvalid, exit: exitError, message: u + ": " + strings.Join(problems, "; ")})
	}
	return exitOK
}

// writeCardText prints the card's fields.
func writeCardText(s streams, card *a2a.AgentCard, u string, f *agentFlags, problems []string, validated bool) {
	w := s.stdout
	field(w, "Card", u)
	field(w, "Name", card.Name)
	field(w, "Version", card.Version)
	if card.Provider != nil {
		field(w, "Provider", strings.TrimSpace(card.Provider.Org+" "+card.Provider.URL))
	}
	var prefs []a2a.TransportProtocol
	for _, p := range f.transports {
		prefs = append(prefs, a2a.TransportProtocol(p))
	}
	allowed := *card
	allowed.SupportedInterfaces = nil
	for _, iface := range card.SupportedInterfaces {
		if iface == nil {
			continue
		}
		line := fmt.Sprintf("%s %s %s", iface.ProtocolBinding, iface.ProtocolVersion, iface.URL)
		if iface.Tenant != "" {
			line += " tenant " + iface.Tenant
		}
		field(w, "Interface", line)
		if versionAllowed(string(iface.ProtocolVersion), f.a2aVersion) {
			allowed.SupportedInterfaces = append(allowed.SupportedInterfaces, iface)
		}
	}
	chosen := "none: no interface of A2A " + orDefault(f.a2aVersion, "1.x") + " (--a2a-version names another)"
	if len(allowed.SupportedInterfaces) > 0 {
		i := chosenInterface(&allowed, prefs)
		chosen = fmt.Sprintf("%s %s %s", i.ProtocolBinding, i.ProtocolVersion, i.URL)
	}
	field(w, "Selected interface", chosen)
	field(w, "Streaming", yesNo(card.Capabilities.Streaming))
	field(w, "Push notifications", yesNo(card.Capabilities.PushNotifications))
	field(w, "Extended card", yesNo(card.Capabilities.ExtendedAgentCard))
	names := make([]string, 0, len(card.SecuritySchemes))
	for name := range card.SecuritySchemes {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, name := range names {
		field(w, "Security scheme", name+" "+schemeSummary(card.SecuritySchemes[a2a.SecuritySchemeName(name)]))
	}
	for _, skill := range card.Skills {
		field(w, "Skill", fmt.Sprintf("%s (%s) [%s]", skill.Name, skill.ID, strings.Join(skill.Tags, ", ")))
	}
	if validated {
		field(w, "Valid", yesNo(len(problems) == 0))
	}
	if card.Description != "" {
		block(w, "Description", card.Description)
	}
}

// schemeSummary is a security scheme in a few words: its kind and what it wants.
func schemeSummary(s a2a.SecurityScheme) string {
	switch v := s.(type) {
	case a2a.APIKeySecurityScheme:
		return fmt.Sprintf("apiKey in %s %q (--api-key)", v.Location, v.Name)
	case *a2a.APIKeySecurityScheme:
		return schemeSummary(*v)
	case a2a.HTTPAuthSecurityScheme:
		return "http " + v.Scheme + " (--bearer)"
	case *a2a.HTTPAuthSecurityScheme:
		return schemeSummary(*v)
	case a2a.OAuth2SecurityScheme, *a2a.OAuth2SecurityScheme:
		return "oauth2 (a2aport auth login, or --bearer)"
	case a2a.OpenIDConnectSecurityScheme, *a2a.OpenIDConnectSecurityScheme:
		return "openIdConnect (--bearer)"
	case a2a.MutualTLSSecurityScheme, *a2a.MutualTLSSecurityScheme:
		return "mutualTLS (not supported by these commands)"
	}
	return fmt.Sprintf("%T", s)
}

// validateAgainstSchema checks a card as written (raw) against A2A 1.0's schema (cardschema.go); a
// card of A2A 0.3 alone, which has no supportedInterfaces, is held to the fields 0.3 requires.
func validateAgainstSchema(card *a2a.AgentCard, raw []byte) (problems, notes []string) {
	if bytes.Contains(raw, []byte(`"supportedInterfaces"`)) {
		return schemaProblems(raw)
	}
	return validateCard(card), []string{"an A2A 0.3 card: checked for the fields 0.3 requires"}
}

// validateCard names the fields A2A requires of a card that are missing.
func validateCard(c *a2a.AgentCard) []string {
	var missing []string
	need := func(ok bool, what string) {
		if !ok {
			missing = append(missing, what)
		}
	}
	need(c.Name != "", "name")
	need(c.Description != "", "description")
	need(c.Version != "", "version")
	need(len(c.SupportedInterfaces) > 0, "supportedInterfaces")
	for i, iface := range c.SupportedInterfaces {
		need(iface != nil && iface.URL != "" && iface.ProtocolBinding != "" && iface.ProtocolVersion != "", fmt.Sprintf("supportedInterfaces[%d]: url, protocolBinding, protocolVersion", i))
	}
	need(len(c.DefaultInputModes) > 0, "defaultInputModes")
	need(len(c.DefaultOutputModes) > 0, "defaultOutputModes")
	for i, sk := range c.Skills {
		need(sk.ID != "" && sk.Name != "" && sk.Description != "" && len(sk.Tags) > 0, fmt.Sprintf("skills[%d]: id, name, description, tags", i))
	}
	return missing
}
