package cardsig

// The card as @a2a-js/sdk 1.3.0 canonicalizes it before signing or verifying
// (canonicalizeAgentCard): read into its ts-proto AgentCard type and written back
// (AgentCard.fromJSON, AgentCard.toJSON), so that members outside A2A 1.0's proto schema go and
// proto defaults are left out, then emptied members dropped (cleanEmpty) and RFC 8785 applied. The
// facade serves the 0.3/1.0 union card, whose 0.3 members the SDK drops: a signature it verifies is
// over this form, not over the card as served. Only the Signer uses it (sign.go says why nothing
// here is a package-level variable).

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
)

// protoKind is how ts-proto reads and writes one member of a message.
type protoKind int

const (
	protoString   protoKind = iota // string: String(v) when set; written unless ""
	protoFlag                      // bool without presence: Boolean(v); written when true
	protoOptional                  // optional bool: Boolean(v) when set; written when set, false too
	protoStrings                   // repeated string, when an array
	protoMessage                   // a message, when set
	protoMessages                  // repeated message, when an array
	protoMap                       // map<string, message>, when an object
	protoScopes                    // map<string, string>, when an object
	protoStruct                    // google.protobuf.Struct: the object as it is
)

// protoField is one member of a message, by its proto JSON (camelCase) name.
type protoField struct {
	name string
	kind protoKind
	of   *protoMessageType // protoMessage, protoMessages, protoMap
}

// protoMessageType is a message of a2a.proto; oneof: its members are one oneof, and the first set
// is the one read; nullable: its fromJSON reads null as a message of defaults (it reads object?.x),
// where the others throw.
type protoMessageType struct {
	fields   []protoField
	oneof    bool
	nullable bool
}

// agentCardType is a2a.proto's AgentCard as @a2a-js/sdk 1.3.0 has it, signatures left out (they
// are not signed).
func agentCardType() *protoMessageType {
	str := func(name string) protoField { return protoField{name: name, kind: protoString} }
	msg := func(name string, fields ...protoField) protoField {
		return protoField{name: name, kind: protoMessage, of: &protoMessageType{fields: fields}}
	}
	scopes := protoField{name: "scopes", kind: protoScopes}
	requirements := protoField{name: "securityRequirements", kind: protoMessages, of: &protoMessageType{fields: []protoField{
		{name: "schemes", kind: protoMap, of: &protoMessageType{nullable: true, fields: []protoField{{name: "list", kind: protoStrings}}}},
	}}}
	flows := &protoMessageType{oneof: true, fields: []protoField{
		msg("authorizationCode", str("authorizationUrl"), str("tokenUrl"), str("refreshUrl"), scopes, protoField{name: "pkceRequired", kind: protoFlag}),
		msg("clientCredentials", str("tokenUrl"), str("refreshUrl"), scopes),
		msg("implicit", str("authorizationUrl"), str("refreshUrl"), scopes),
		msg("password", str("tokenUrl"), str("refreshUrl"), scopes),
		msg("deviceCode", str("deviceAuthorizationUrl"), str("tokenUrl"), str("refreshUrl"), scopes),
	}}
	scheme := &protoMessageType{oneof: true, fields: []protoField{
		msg("apiKeySecurityScheme", str("description"), str("location"), str("name")),
		msg("httpAuthSecurityScheme", str("description"), str("scheme"), str("bearerFormat")),
		msg("oauth2SecurityScheme", str("description"), protoField{name: "flows", kind: protoMessage, of: flows}, str("oauth2MetadataUrl")),
		msg("openIdConnectSecurityScheme", str("description"), str("openIdConnectUrl")),
		msg("mtlsSecurityScheme", str("description")),
	}}
	return &protoMessageType{fields: []protoField{
		str("name"), str("description"),
		{name: "supportedInterfaces", kind: protoMessages, of: &protoMessageType{fields: []protoField{
			str("url"), str("protocolBinding"), str("tenant"), str("protocolVersion"),
		}}},
		msg("provider", str("url"), str("organization")),
		str("version"), str("documentationUrl"),
		msg("capabilities",
			protoField{name: "streaming", kind: protoOptional},
			protoField{name: "pushNotifications", kind: protoOptional},
			protoField{name: "extensions", kind: protoMessages, of: &protoMessageType{fields: []protoField{
				str("uri"), str("description"), {name: "required", kind: protoFlag}, {name: "params", kind: protoStruct},
			}}},
			protoField{name: "extendedAgentCard", kind: protoOptional},
		),
		{name: "securitySchemes", kind: protoMap, of: scheme},
		requirements,
		{name: "defaultInputModes", kind: protoStrings}, {name: "defaultOutputModes", kind: protoStrings},
		{name: "skills", kind: protoMessages, of: &protoMessageType{fields: []protoField{
			str("id"), str("name"), str("description"),
			{name: "tags", kind: protoStrings}, {name: "examples", kind: protoStrings},
			{name: "inputModes", kind: protoStrings}, {name: "outputModes", kind: protoStrings},
			requirements,
		}}},
		str("iconUrl"),
	}}
}

// protoForm is the RFC 8785 canonical JSON of card (decoded by decodeCard) as @a2a-js/sdk 1.3.0
// canonicalizes it. An error: the SDK would throw on the card (a null where a message goes).
func protoForm(card map[string]any) ([]byte, error) {
	written, err := readProto(card, agentCardType())
	if err != nil {
		return nil, err
	}
	cleaned, ok := cleanEmpty(written)
	if !ok {
		return []byte("{}"), nil
	}
	return canonical(cleaned)
}

// readProto is ts-proto's fromJSON then toJSON of one message.
func readProto(v map[string]any, t *protoMessageType) (map[string]any, error) {
	out := map[string]any{}
	for _, f := range t.fields {
		raw, ok := protoMember(v, f)
		if !ok {
			continue
		}
		value, written, err := readProtoField(raw, f)
		if err != nil {
			return nil, err
		}
		if written {
			out[f.name] = value
		}
		if t.oneof {
			break
		}
	}
	return out, nil
}

// protoMember is the member f reads: by its camelCase name, else its snake_case one, as ts-proto
// tries them; present as f's kind asks (an array for repeated members, an object for maps).
func protoMember(v map[string]any, f protoField) (any, bool) {
	present := func(x any) bool { return x != nil }
	switch f.kind {
	case protoStrings, protoMessages:
		present = func(x any) bool { _, ok := x.([]any); return ok }
	case protoMap, protoScopes, protoStruct:
		present = jsObject
	}
	if x, ok := v[f.name]; ok && present(x) {
		return x, true
	}
	if snake := snakeCase(f.name); snake != f.name {
		if x, ok := v[snake]; ok && present(x) {
			return x, true
		}
	}
	return nil, false
}

// readProtoField reads one present member; written says whether toJSON writes it.
func readProtoField(raw any, f protoField) (any, bool, error) {
	switch f.kind {
	case protoString:
		s := jsString(raw)
		return s, s != "", nil
	case protoFlag:
		b := jsBoolean(raw)
		return b, b, nil
	case protoOptional:
		return jsBoolean(raw), true, nil
	case protoStrings:
		items := raw.([]any)
		out := make([]any, len(items))
		for i, item := range items {
			out[i] = jsString(item)
		}
		return out, len(out) > 0, nil
	case protoMessage:
		m, err := protoObject(raw, f.of)
		return m, err == nil, err
	case protoMessages:
		items := raw.([]any)
		out := make([]any, len(items))
		for i, item := range items {
			m, err := protoObject(item, f.of)
			if err != nil {
				return nil, false, err
			}
			out[i] = m
		}
		return out, len(out) > 0, nil
	case protoMap:
		out := map[string]any{}
		for k, item := range jsEntries(raw) {
			m, err := protoObject(item, f.of)
			if err != nil {
				return nil, false, err
			}
			out[k] = m
		}
		return out, len(out) > 0, nil
	case protoScopes:
		out := map[string]any{}
		for k, item := range jsEntries(raw) {
			out[k] = jsString(item)
		}
		return out, len(out) > 0, nil
	}
	return raw, true, nil // protoStruct
}

// protoObject reads a message from any JSON value, as fromJSON does: a value that is no object
// has none of the members (all defaults); null makes the SDK throw.
func protoObject(raw any, t *protoMessageType) (map[string]any, error) {
	if raw == nil && !t.nullable {
		return nil, errors.New("a null where A2A 1.0 has a message")
	}
	m, _ := raw.(map[string]any)
	return readProto(m, t)
}

// jsObject is JavaScript's typeof x === "object" && x !== null: arrays too.
func jsObject(x any) bool {
	switch x.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// jsEntries is Object.entries: an array's are its indexes.
func jsEntries(x any) map[string]any {
	if list, ok := x.([]any); ok {
		out := make(map[string]any, len(list))
		for i, item := range list {
			out[strconv.Itoa(i)] = item
		}
		return out
	}
	m, _ := x.(map[string]any)
	return m
}

// jsString is JavaScript's String(x) of a JSON value.
func jsString(x any) string {
	switch x := x.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		f, _ := x.Float64() // out of range: ±Inf, as JSON.parse reads it
		switch {
		case math.IsInf(f, 1):
			return "Infinity"
		case math.IsInf(f, -1):
			return "-Infinity"
		}
		return formatNumber(f)
	case []any: // Array.prototype.toString: the items joined by commas, null and undefined as ""
		parts := make([]string, len(x))
		for i, item := range x {
			if item != nil {
				parts[i] = jsString(item)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// jsBoolean is JavaScript's Boolean(x) of a JSON value.
func jsBoolean(x any) bool {
	switch x := x.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0 // out of range is ±Infinity: true
	}
	return true
}

// cleanEmpty is @a2a-js/sdk's cleanEmpty: "", null, and arrays and objects that are (or become)
// empty are dropped; ok is false when v itself goes. false stays.
func cleanEmpty(v any) (any, bool) {
	switch v := v.(type) {
	case nil:
		return nil, false
	case string:
		return v, v != ""
	case []any:
		var out []any
		for _, item := range v {
			if c, ok := cleanEmpty(item); ok {
				out = append(out, c)
			}
		}
		return out, len(out) > 0
	case map[string]any:
		out := map[string]any{}
		for k, item := range v {
			if c, ok := cleanEmpty(item); ok {
				out[k] = c
			}
		}
		return out, len(out) > 0
	}
	return v, true
}

// snakeCase is a camelCase proto JSON name's proto field name: protocolBinding → protocol_binding.
func snakeCase(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
