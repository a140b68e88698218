package a2aclient

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Binding names as agents really write them. A2A names the bindings JSONRPC, HTTP+JSON and GRPC;
// the draft conformance suite and some servers write HTTP+JSON as "REST", others change the case
// or the punctuation. Where the meaning is not in doubt the card is read with A2A's name, and a
// note says so (Description.CardNotes); a name that could mean two things is left for the
// interface selection to refuse.
var bindingAliases = map[string]string{
	"REST": "HTTP+JSON", "HTTP+JSON": "HTTP+JSON", "HTTP_JSON": "HTTP+JSON", "HTTP-JSON": "HTTP+JSON", "HTTPJSON": "HTTP+JSON",
	"JSONRPC": "JSONRPC", "JSON-RPC": "JSONRPC", "JSON_RPC": "JSONRPC", "JSONRPC2": "JSONRPC", "JSON-RPC-2.0": "JSONRPC",
	"GRPC": "GRPC",
}

// canonicalBinding is name as A2A writes it, and whether it was written otherwise.
func canonicalBinding(name string) (string, bool) {
	canonical, ok := bindingAliases[strings.ToUpper(strings.TrimSpace(name))]
	if !ok || canonical == name {
		return name, false
	}
	return canonical, true
}

// normalizeBindingNames rewrites the binding names of the card's interfaces (1.0's
// supportedInterfaces, 0.3's preferredTransport and additionalInterfaces) to A2A's, and notes each
// name it read as another.
func normalizeBindingNames(fields map[string]json.RawMessage) (notes []string) {
	seen := map[string]bool{}
	rename := func(name string) string {
		canonical, renamed := canonicalBinding(name)
		if renamed && !seen[name] {
			seen[name] = true
			notes = append(notes, fmt.Sprintf("read the Agent Card's binding %q as %s", name, canonical))
		}
		return canonical
	}
	for _, list := range []struct{ field, member string }{{"supportedInterfaces", "protocolBinding"}, {"additionalInterfaces", "transport"}} {
		var ifaces []map[string]json.RawMessage
		if raw, ok := fields[list.field]; !ok || json.Unmarshal(raw, &ifaces) != nil {
			continue
		}
		changed := false
		for _, iface := range ifaces {
			var name string
			if iface == nil || json.Unmarshal(iface[list.member], &name) != nil {
				continue
			}
			if canonical := rename(name); canonical != name {
				iface[list.member], _ = json.Marshal(canonical) // a string always encodes
				changed = true
			}
		}
		if changed {
			fields[list.field], _ = json.Marshal(ifaces)
		}
	}
	var preferred string
	if raw, ok := fields["preferredTransport"]; ok && json.Unmarshal(raw, &preferred) == nil {
		if canonical := rename(preferred); canonical != preferred {
			fields["preferredTransport"], _ = json.Marshal(canonical)
		}
	}
	return notes
}
