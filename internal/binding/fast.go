package binding

import (
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mailru/easyjson"
)

// decodeFast decodes a JSON-RPC event holding an artifact update of text parts; ok is false for
// anything else.
func decodeFast(data []byte) (a2a.Event, bool) {
	ascii, ok := plain(data)
	if !ok {
		return nil, false
	}
	var w rpcEvent
	if easyjson.Unmarshal(data, &w) != nil || w.Result == nil {
		return nil, false
	}
	return fastArtifactUpdate(w.Result.ArtifactUpdate, ascii)
}

// decodeFastREST is decodeFast for an HTTP+JSON event: the stream response without an envelope.
func decodeFastREST(data []byte) (a2a.Event, bool) {
	ascii, ok := plain(data)
	if !ok {
		return nil, false
	}
	var r eventResult
	if easyjson.Unmarshal(data, &r) != nil {
		return nil, false
	}
	return fastArtifactUpdate(r.ArtifactUpdate, ascii)
}

// plain reports whether data has no control characters (JSON refuses them in strings, easyjson
// does not) and whether it is all ASCII.
func plain(data []byte) (ascii, ok bool) {
	ascii = true
	for _, c := range data {
		if c < 0x20 {
			return false, false
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	return ascii, true
}

// fastArtifactUpdate is up as the a2a event encoding/json would have built, when all of it is
// text parts.
func fastArtifactUpdate(up *artifactUpdate, ascii bool) (a2a.Event, bool) {
	if up == nil {
		return nil, false
	}
	art := up.Artifact
	// encoding/json replaces invalid UTF-8, easyjson keeps it: leave such events to a2a-go. ASCII
	// input (with \u escapes decoded to valid runes) has none to check.
	valid := func(s string) bool { return ascii || utf8.ValidString(s) }
	if art == nil || !valid(art.ID) || !valid(art.Name) || !valid(art.Description) || !valid(up.TaskID) || !valid(up.ContextID) {
		return nil, false
	}
	var parts a2a.ContentParts
	if art.Parts != nil {
		parts = make(a2a.ContentParts, len(art.Parts))
	}
	for i, p := range art.Parts {
		if p.Text == nil || !valid(*p.Text) || !valid(p.MediaType) || !valid(p.Filename) {
			return nil, false
		}
		parts[i] = &a2a.Part{Content: a2a.Text(*p.Text), MediaType: p.MediaType, Filename: p.Filename}
	}
	return &a2a.TaskArtifactUpdateEvent{
		TaskID: a2a.TaskID(up.TaskID), ContextID: up.ContextID, Append: up.Append, LastChunk: up.LastChunk,
		Artifact: &a2a.Artifact{ID: a2a.ArtifactID(art.ID), Name: art.Name, Description: art.Description, Parts: parts},
	}, true
}
