package a2aclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// cardFieldsNeeded are the Agent Card fields discovery cannot do without: the interfaces (1.0 and
// 0.3 shapes) and the capabilities. A field here that does not parse fails discovery; any other
// field that does not parse is dropped and reported in Description.CardNotes.
var cardFieldsNeeded = map[string]bool{
	"supportedInterfaces":  true,
	"capabilities":         true,
	"url":                  true,
	"preferredTransport":   true,
	"additionalInterfaces": true,
	"protocolVersion":      true,
}

// parseCard reads an Agent Card as SDKs really write it. It first rewrites field shapes that
// differ between SDKs into the one a2a-go reads (normalizeCardShapes), then parses with parse; if
// that fails, it drops each optional field (or skill) that does not parse on its own and parses
// again. notes name what was dropped and why.
func parseCard(body []byte, parse func([]byte) (*a2a.AgentCard, error)) (card *a2a.AgentCard, notes []string, err error) {
	fields, err := cardObject(body)
	if err != nil {
		return nil, nil, err
	}
	normalizeCardShapes(fields)
	notes = normalizeBindingNames(fields)
	if card, err = parse(encodeCard(fields)); err == nil {
		return card, notes, nil
	}
	var coded *a2aport.Error
	if errors.As(err, &coded) {
		return nil, nil, err // not a field that failed: the card as a whole is refused
	}
	for _, name := range sortedKeys(fields) {
		if name == "skills" {
			notes = append(notes, dropBadSkills(fields, parse)...)
			continue
		}
		_, ferr := parse(encodeCard(map[string]json.RawMessage{name: fields[name]}))
		if ferr == nil {
			continue
		}
		if cardFieldsNeeded[name] {
			return nil, nil, fmt.Errorf("field %q: %w", name, readableJSON(ferr))
		}
		delete(fields, name)
		notes = append(notes, fmt.Sprintf("ignored the Agent Card field %q: %v", name, readableJSON(ferr)))
	}
	if card, err = parse(encodeCard(fields)); err != nil {
		return nil, nil, readableJSON(err)
	}
	return card, notes, nil
}

// dropBadSkills keeps the skills that parse and notes the others.
func dropBadSkills(fields map[string]json.RawMessage, parse func([]byte) (*a2a.AgentCard, error)) []string {
	var skills []json.RawMessage
	if err := json.Unmarshal(fields["skills"], &skills); err != nil {
		delete(fields, "skills")
		return []string{fmt.Sprintf("ignored the Agent Card field \"skills\": %v", readableJSON(err))}
	}
	var kept []json.RawMessage
	var notes []string
	for i, s := range skills {
		one, _ := json.Marshal([]json.RawMessage{s}) // RawMessage values re-encode as they are
		if _, err := parse(encodeCard(map[string]json.RawMessage{"skills": one})); err != nil {
			notes = append(notes, fmt.Sprintf("ignored Agent Card skill %d: %v", i, readableJSON(err)))
			continue
		}
		kept = append(kept, s)
	}
	fields["skills"], _ = json.Marshal(kept)
	return notes
}

// normalizeCardShapes rewrites, in place, the card fields whose wire shape differs between SDKs.
//
//   - securityRequirements (card and skills): a2a-go reads each requirement's schemes as
//     {name: [scopes]}; the proto-JSON form that @a2a-js/sdk and the Python SDK write (and the A2A
//     1.0 specification's own samples) is {name: {"list": [scopes]}}, with an empty list written {}.
//   - oneof fields (a security scheme's kind, an OAuth flow): @a2a-js/sdk 1.3.0's card handler
//     serves the card object as given, in its ts-proto form {"scheme": {"$case": K, "value": V}},
//     where proto-JSON (and a2a-go) has {K: V}.
//   - securitySchemes in 0.3 form ({"type": "http", "scheme": ...}): the 0.3/1.0 union cards that
//     a2a-go's own a2av0 producer writes keep them so, and a2a-go's 1.0 parser refuses them.
func normalizeCardShapes(fields map[string]json.RawMessage) {
	for name, raw := range fields {
		if bytes.Contains(raw, []byte(`"$case"`)) {
			fields[name] = unwrapOneofs(raw)
		}
	}
	if raw, ok := fields["securitySchemes"]; ok {
		fields["securitySchemes"] = currentSchemes(raw)
	}
	if raw, ok := fields["securityRequirements"]; ok {
		fields["securityRequirements"] = normalizeRequirements(raw)
	}
	var skills []map[string]json.RawMessage
	if raw, ok := fields["skills"]; !ok || json.Unmarshal(raw, &skills) != nil {
		return
	}
	for _, s := range skills {
		if raw, ok := s["securityRequirements"]; ok {
			s["securityRequirements"] = normalizeRequirements(raw)
		}
	}
	fields["skills"], _ = json.Marshal(skills) // maps of RawMessage always encode
}

// normalizeRequirements returns raw with every {"list": [...]} or {} scope value turned into a
// plain list. Anything it does not recognise is returned untouched, for the parser to judge.
func normalizeRequirements(raw json.RawMessage) json.RawMessage {
	var reqs []map[string]map[string]json.RawMessage
	if json.Unmarshal(raw, &reqs) != nil {
		return raw
	}
	for _, req := range reqs {
		schemes, ok := req["schemes"]
		if !ok {
			continue
		}
		for name, scopes := range schemes {
			schemes[name] = scopeList(scopes)
		}
	}
	out, err := json.Marshal(reqs)
	if err != nil {
		return raw
	}
	return out
}

// unwrapOneofs replaces, at any depth, a member {"$case": K, "value": V} of an object by the member
// K: V. raw is returned untouched if it does not decode.
func unwrapOneofs(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers pass through exactly
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	out, err := json.Marshal(unwrapOneofsIn(v))
	if err != nil {
		return raw
	}
	return out
}

func unwrapOneofsIn(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for key, member := range v {
			if kind, value, ok := oneofWrapper(member); ok {
				key, member = kind, value
			}
			out[key] = unwrapOneofsIn(member)
		}
		return out
	case []any:
		for i, member := range v {
			v[i] = unwrapOneofsIn(member)
		}
	}
	return v
}

// oneofWrapper recognises {"$case": kind, "value": value}.
func oneofWrapper(v any) (kind string, value any, ok bool) {
	wrapper, isObject := v.(map[string]any)
	if !isObject || len(wrapper) != 2 {
		return "", nil, false
	}
	kind, _ = wrapper["$case"].(string)
	value, hasValue := wrapper["value"]
	return kind, value, kind != "" && hasValue
}

// legacySchemeKinds maps a 0.3 security scheme "type" to its 1.0 oneof member.
var legacySchemeKinds = map[string]string{
	"http":          "httpAuthSecurityScheme",
	"apiKey":        "apiKeySecurityScheme",
	"oauth2":        "oauth2SecurityScheme",
	"openIdConnect": "openIdConnectSecurityScheme",
	"mutualTLS":     "mtlsSecurityScheme",
}

// currentSchemes rewrites each 0.3-form scheme {"type": T, ...} as {member(T): {...}} (the API
// key's "in" becomes "location"); schemes already in 1.0 form, or not recognised, are kept.
func currentSchemes(raw json.RawMessage) json.RawMessage {
	var schemes map[string]map[string]json.RawMessage
	if json.Unmarshal(raw, &schemes) != nil {
		return raw
	}
	changed := false
	for name, scheme := range schemes {
		var kind string
		if json.Unmarshal(scheme["type"], &kind) != nil || legacySchemeKinds[kind] == "" {
			continue
		}
		delete(scheme, "type")
		if in, ok := scheme["in"]; ok && kind == "apiKey" {
			delete(scheme, "in")
			scheme["location"] = in
		}
		body, err := json.Marshal(scheme)
		if err != nil {
			continue
		}
		schemes[name] = map[string]json.RawMessage{legacySchemeKinds[kind]: body}
		changed = true
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(schemes)
	if err != nil {
		return raw
	}
	return out
}

// scopeList turns {"list": [...]}, {} or null into a JSON list; a list stays as it is.
func scopeList(v json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(v)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		if bytes.Equal(trimmed, []byte("null")) {
			return json.RawMessage("[]")
		}
		return v
	}
	var wrapped struct {
		List json.RawMessage `json:"list"`
	}
	if json.Unmarshal(trimmed, &wrapped) != nil {
		return v
	}
	if len(wrapped.List) == 0 || bytes.Equal(wrapped.List, []byte("null")) {
		return json.RawMessage("[]")
	}
	return wrapped.List
}

// cardObject splits a card into its top-level fields; a body that is not a JSON object is refused.
func cardObject(body []byte) (map[string]json.RawMessage, error) {
	if !json.Valid(body) {
		return nil, errInvalidJSON
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("the Agent Card is not a JSON object")
	}
	return fields, nil
}

func encodeCard(fields map[string]json.RawMessage) []byte {
	out, _ := json.Marshal(fields) // valid RawMessage values always encode
	return out
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ReadCard reads an Agent Card as discovery does: in the shapes the SDKs really write (1.0 and
// 0.3), optional parts that cannot be read dropped and named in notes.
// Tools that show a card (the a2aport command) use it; an adapter needs only AgentCardURL.
func ReadCard(body []byte) (card *a2a.AgentCard, notes []string, err error) {
	card, notes, err = parseCard(body, parseLegacyCard)
	if err != nil {
		var coded *a2aport.Error
		if errors.As(err, &coded) {
			return nil, nil, coded
		}
		return nil, nil, &a2aport.Error{Code: a2aport.CodeDiscoveryFailed, Message: "Agent Card cannot be read: " + err.Error(), Err: err}
	}
	return card, notes, nil
}
