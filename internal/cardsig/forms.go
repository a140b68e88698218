package cardsig

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
)

// form is one candidate for the bytes a signer signed.
type form struct {
	name      string
	payload   []byte
	uncovered []string // members of the card the form leaves out, by path
}

// decodeCard decodes a card as JSON values, numbers kept as written.
func decodeCard(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var card map[string]any
	if err := dec.Decode(&card); err != nil {
		return nil, err
	}
	if card == nil {
		return nil, errors.New("the card is not a JSON object")
	}
	return card, nil
}

// forms returns the canonical forms of card (without its signatures) that known signers sign.
func forms(card map[string]any) ([]form, error) {
	unsigned := make(map[string]any, len(card))
	for k, v := range card {
		if k != "signatures" {
			unsigned[k] = v
		}
	}
	received, err := canonical(unsigned)
	if err != nil {
		return nil, err
	}
	var uncovered []string
	cleaned, _ := clean(unsigned, "", &uncovered)
	if cleaned == nil {
		cleaned = map[string]any{}
	}
	cleanedPayload, err := canonical(cleaned)
	if err != nil {
		return nil, err
	}
	sort.Strings(uncovered)
	out := []form{{name: "as received", payload: received}}
	if !bytes.Equal(received, cleanedPayload) {
		out = append(out, form{name: "cleaned", payload: cleanedPayload, uncovered: uncovered})
	}
	return out, nil
}

func canonical(v any) ([]byte, error) {
	var b strings.Builder
	if err := canonicalJSON(&b, v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// noPresence reports whether path is one of the card's boolean fields that proto3 gives no presence (neither optional nor
// required): proto JSON leaves them out when false, so a signer working on the proto form never
// signed them.
func noPresence(path string) bool {
	if strings.HasSuffix(path, ".flows.authorizationCode.pkceRequired") {
		return true
	}
	rest, ok := strings.CutPrefix(path, ".capabilities.extensions[")
	index, field, closed := strings.Cut(rest, "]")
	_, err := strconv.Atoi(index)
	return ok && closed && err == nil && field == ".required"
}

// clean drops empty strings, nulls, false where proto JSON omits it, and lists and objects that are
// (or become) empty, as
// @a2a-js/sdk's and the Python SDK's canonicalization does; ok is false when v itself goes. A
// ts-proto oneof object ({"$case": ...}) goes too, named in uncovered: @a2a-js/sdk reads the card
// with its proto-JSON reader before signing, which does not know that form.
func clean(v any, path string, uncovered *[]string) (any, bool) {
	switch v := v.(type) {
	case nil:
		return nil, false
	case string:
		return v, v != ""
	case []any:
		var out []any
		for i, item := range v {
			if c, ok := clean(item, path+"["+strconv.Itoa(i)+"]", uncovered); ok {
				out = append(out, c)
			}
		}
		return out, len(out) > 0
	case map[string]any:
		if _, oneof := v["$case"]; oneof && path != "" {
			*uncovered = append(*uncovered, strings.TrimPrefix(path, "."))
			return nil, false
		}
		out := map[string]any{}
		for k, item := range v {
			if item == false && noPresence(path+"."+k) {
				continue
			}
			if c, ok := clean(item, path+"."+k, uncovered); ok {
				out[k] = c
			}
		}
		return out, len(out) > 0
	}
	return v, true
}
