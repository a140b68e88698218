package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	a2av1 "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A2A 1.0's schema is its protocol buffers definition (a2a.proto; the JSON schema is generated
// from it): an Agent Card is its AgentCard message in proto JSON, each field of the type it
// declares, and the fields it marks REQUIRED (google.api.field_behavior) present, at every level
// (an interface's url, a skill's tags, a security scheme's flows). a2a-go ships that definition
// compiled (a2apb/v1), its field behaviours included, so `card get --validate` checks a card
// against the definition itself rather than a list of fields typed here.

// schemaProblems reads raw as A2A 1.0's AgentCard and names what the schema refuses: a member of
// the wrong type or shape, and every REQUIRED field that is missing, by its JSON path. notes name
// members the schema does not know (a card that also speaks 0.3 carries its url and
// preferredTransport), which a reader ignores.
func schemaProblems(raw []byte) (problems, notes []string) {
	raw, problems = bareSchemeLists(raw)
	var card a2av1.AgentCard
	strict := protojson.UnmarshalOptions{}
	if err := strict.Unmarshal(raw, &card); err != nil {
		if !strings.Contains(err.Error(), "unknown field") {
			return []string{"not an A2A 1.0 AgentCard: " + protoError(err)}, nil
		}
		notes = append(notes, protoError(err)+" (not in A2A 1.0's AgentCard: ignored)")
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(raw, &card); err != nil {
			return []string{"not an A2A 1.0 AgentCard: " + protoError(err)}, notes
		}
	}
	return append(problems, missingRequired(card.ProtoReflect(), "")...), notes
}

// bareSchemeLists finds the security requirements whose scopes are written as a bare list
// ({"schemes":{"bearer":[]}}, as a2a-go v2.4.0 writes them) where A2A 1.0's StringList is
// {"list":[...]}: each is a problem, named by its path, and is rewritten so that the rest of the
// card is still checked. The card is returned as it was when there is none.
func bareSchemeLists(raw []byte) ([]byte, []string) {
	var card map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&card) != nil {
		return raw, nil
	}
	var problems []string
	fix := func(reqs any, path string) {
		list, _ := reqs.([]any)
		for i, r := range list {
			req, _ := r.(map[string]any)
			schemes, _ := req["schemes"].(map[string]any)
			names := make([]string, 0, len(schemes))
			for name := range schemes {
				names = append(names, name)
			}
			slices.Sort(names)
			for _, name := range names {
				if scopes, bare := schemes[name].([]any); bare {
					problems = append(problems, fmt.Sprintf("%s[%d].schemes[%q]: a bare list, where A2A 1.0 writes {\"list\": [...]}", path, i, name))
					schemes[name] = map[string]any{"list": scopes}
				}
			}
		}
	}
	fix(card["securityRequirements"], "securityRequirements")
	skills, _ := card["skills"].([]any)
	for i, sk := range skills {
		if skill, ok := sk.(map[string]any); ok {
			fix(skill["securityRequirements"], fmt.Sprintf("skills[%d].securityRequirements", i))
		}
	}
	if len(problems) == 0 {
		return raw, nil
	}
	fixed, err := json.Marshal(card)
	if err != nil {
		return raw, problems
	}
	return fixed, problems
}

// protoError is err's text without protojson's package prefix.
func protoError(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "proto:"); ok {
		msg = strings.TrimSpace(rest)
	}
	return strings.ReplaceAll(msg, "\u00a0", " ") // protojson makes its messages unstable with NBSPs
}

// missingRequired names the REQUIRED fields of m, and of every message below it, that are not
// set, by their JSON path below path.
func missingRequired(m protoreflect.Message, path string) []string {
	var missing []string
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		at := fd.JSONName()
		if path != "" {
			at = path + "." + at
		}
		if required(fd) && !m.Has(fd) && !inSetOneof(m, fd) {
			missing = append(missing, at)
			continue
		}
		if !m.Has(fd) || fd.Message() == nil {
			continue
		}
		switch {
		case fd.IsList():
			list := m.Get(fd).List()
			for j := range list.Len() {
				missing = append(missing, missingRequired(list.Get(j).Message(), fmt.Sprintf("%s[%d]", at, j))...)
			}
		case fd.IsMap():
			if fd.MapValue().Message() == nil {
				continue
			}
			var keys []string
			m.Get(fd).Map().Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
				keys = append(keys, k.String())
				return true
			})
			slices.Sort(keys)
			for _, k := range keys {
				v := m.Get(fd).Map().Get(protoreflect.ValueOfString(k).MapKey())
				missing = append(missing, missingRequired(v.Message(), fmt.Sprintf("%s[%q]", at, k))...)
			}
		default:
			missing = append(missing, missingRequired(m.Get(fd).Message(), at)...)
		}
	}
	return missing
}

// required reports whether the schema marks fd REQUIRED.
func required(fd protoreflect.FieldDescriptor) bool {
	behaviors, _ := proto.GetExtension(fd.Options(), annotations.E_FieldBehavior).([]annotations.FieldBehavior)
	return slices.Contains(behaviors, annotations.FieldBehavior_REQUIRED)
}

// inSetOneof reports whether fd belongs to a oneof another of whose fields is set: of a oneof's
// REQUIRED members, the one given is enough.
func inSetOneof(m protoreflect.Message, fd protoreflect.FieldDescriptor) bool {
	oneof := fd.ContainingOneof()
	return oneof != nil && !oneof.IsSynthetic() && m.WhichOneof(oneof) != nil
}
