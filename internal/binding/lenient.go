package binding

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Agents that moved from A2A 0.3 to 1.0 still write some parts the 0.3 way: a file as
// {"kind":"file","file":{"uri"|"bytes","mimeType","name"}} (or without its kind, or as
// {"fileUrl":{...}}, as the draft conformance suite writes them). a2a-go's 1.0 reader refuses such a
// part, and with it the whole task or event ("unknown part content type"), so one file part lost
// the answer. What such a part says is not in doubt: it is read as 1.0's {"url"|"raw",
// "mediaType","filename"}. Only a document a2a-go refused for a part is rewritten, so the answers
// of agents that write 1.0 cost nothing more.

// unmarshal10 decodes A2A 1.0 JSON into v, reading parts written in 0.3's shape.
func unmarshal10(data []byte, v any) error {
	return retryParts(json.Unmarshal(data, v), data, v)
}

// decodeFirst10 is unmarshal10 of data's first JSON value (what follows it is not read), as a
// json.Decoder reads an answer's body.
func decodeFirst10(data []byte, v any) error {
	return retryParts(json.NewDecoder(bytes.NewReader(data)).Decode(v), data, v)
}

// retryParts decodes data into v again with its parts in 1.0's shape, when err is a2a-go's
// refusal of a part; else it is err.
func retryParts(err error, data []byte, v any) error {
	if err == nil || !strings.Contains(err.Error(), "unknown part content type") {
		return err
	}
	fixed, ok := rewriteParts(data)
	if !ok {
		return err
	}
	return json.Unmarshal(fixed, v)
}

// rewriteParts is data with every 0.3 file part in 1.0's shape; ok is false when there was none.
func rewriteParts(data []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers stay as written
	var doc any
	if dec.Decode(&doc) != nil {
		return nil, false
	}
	if !rewriteIn(doc) {
		return nil, false
	}
	out, err := json.Marshal(doc)
	return out, err == nil
}

// rewriteIn rewrites the file parts of every "parts" list below v.
func rewriteIn(v any) (changed bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if parts, ok := child.([]any); ok && k == "parts" {
				for _, p := range parts {
					if part, ok := p.(map[string]any); ok && rewriteFilePart(part) {
						changed = true
					}
				}
			}
			if rewriteIn(child) {
				changed = true
			}
		}
	case []any:
		for _, child := range v {
			if rewriteIn(child) {
				changed = true
			}
		}
	}
	return changed
}

// rewriteFilePart turns a file part written another way into 1.0's shape, in place: 0.3's
// {"kind":"file","file":{...}}, the same without its kind, and {"fileUrl":{"url",...}} (as the
// draft conformance suite's answers write them), with the file's media type as mimeType or
// mediaType and its name as name or filename.
func rewriteFilePart(part map[string]any) bool {
	file, ok := part["file"].(map[string]any)
	key := "file"
	if !ok {
		file, ok = part["fileUrl"].(map[string]any)
		key = "fileUrl"
	}
	if kind, hasKind := part["kind"]; !ok || (hasKind && kind != "file") {
		return false
	}
	uri, hasURI := firstString(file, "uri", "url")
	raw, hasBytes := firstString(file, "bytes")
	if hasURI == hasBytes { // neither, or both: not one thing to read
		return false
	}
	delete(part, "kind")
	delete(part, key)
	if hasURI {
		part["url"] = uri
	} else {
		part["raw"] = raw
	}
	if mt, ok := firstString(file, "mimeType", "mediaType"); ok && mt != "" {
		part["mediaType"] = mt
	}
	if name, ok := firstString(file, "name", "filename"); ok && name != "" {
		part["filename"] = name
	}
	return true
}

// firstString is the first of keys that m holds as a string.
func firstString(m map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s, true
		}
	}
	return "", false
}
