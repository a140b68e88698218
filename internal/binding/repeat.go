package binding

import (
	"bytes"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mailru/easyjson/jlexer"
)

// chunkRepeat decodes the chunks of a streamed answer without parsing each one: past its first,
// an answer's chunks are usually the same bytes but for their text (the same task, context,
// artifact and flags). It learns the bytes around the text of an artifact update the fast
// decoder read, and decodes a later event with those same bytes around a JSON string as that
// update with the string as its text: what the fast decoder would have made of it, with one
// string read instead of five nested objects. Anything else goes to the decoders as before.
// The zero value is ready; one serves one stream.
type chunkRepeat struct {
	before, after []byte // the learned event's bytes before and after its text (with its quotes)
	unused        int    // events learned since one was repeated: a stream that never repeats stops paying for learning

	update   a2a.TaskArtifactUpdateEvent // the learned update, without its artifact
	artifact a2a.Artifact                // its artifact, without its part
	part     a2a.Part                    // its one part, without its text
}

// decode returns the event data is when it is the learned event's bytes around another JSON
// string; ok is false otherwise.
func (r *chunkRepeat) decode(data []byte) (ev a2a.Event, ok bool) {
	before, after := r.before, r.after
	if before == nil || len(data) < len(before)+len(after) || !bytes.HasPrefix(data, before) || !bytes.HasSuffix(data, after) {
		return nil, false
	}
	start, end := len(before), len(data)-len(after)
	ascii, plain := plain(data[start:end]) // as the fast decoder checks the whole event
	if !plain {
		return nil, false
	}
	text, ok := jsonString(data[start-1 : end+1]) // with the quotes that before and after hold
	if !ok || !validator(ascii).ok(text) {
		return nil, false
	}
	r.unused = 0
	return r.event(text), true
}

// learn remembers data, which the fast decoder read as ev, when ev is an artifact update of one
// text part whose text data holds once, as the value of a "text" key.
func (r *chunkRepeat) learn(data []byte, ev a2a.Event) {
	if r.unused >= maxUnusedLearns {
		return
	}
	up, ok := ev.(*a2a.TaskArtifactUpdateEvent)
	if !ok || up.Metadata != nil || up.Artifact == nil || len(up.Artifact.Parts) != 1 || up.Artifact.Parts[0] == nil {
		return
	}
	art, part := up.Artifact, up.Artifact.Parts[0]
	text, isText := part.Content.(a2a.Text)
	if !isText || art.Metadata != nil || art.Extensions != nil || part.Metadata != nil {
		return
	}
	start, end, found := textValue(data)
	if !found {
		return
	}
	if got, ok := jsonString(data[start-1 : end+1]); !ok || got != string(text) {
		return
	}
	// Copies: a long first chunk's text is not kept for the rest of the stream.
	r.before, r.after = bytes.Clone(data[:start]), bytes.Clone(data[end:])
	r.unused++
	r.update, r.artifact, r.part = *up, *art, *part
	r.update.Artifact, r.artifact.Parts, r.part.Content = nil, nil, nil
}

// maxUnusedLearns bounds what a stream whose chunks never repeat (two artifacts streamed in
// turn, a field that changes with every chunk) pays: learning costs about a third of a fast
// decode, and it stops after this many events learned in a row without a repeat.
const maxUnusedLearns = 8

// event is the learned update with text as its part's text: new values throughout, as a decoder
// gives each event.
func (r *chunkRepeat) event(text string) *a2a.TaskArtifactUpdateEvent {
	part, art, up := r.part, r.artifact, r.update
	part.Content = a2a.Text(text)
	art.Parts = a2a.ContentParts{&part}
	up.Artifact = &art
	return &up
}

// textValue finds the JSON string that is the value of the one "text" key in data: the bytes
// between its quotes. A string value cannot hold "text" followed by a colon (its quotes would be
// escaped), so what is found is a key; found is false unless there is exactly one.
func textValue(data []byte) (start, end int, found bool) {
	const key = `"text"`
	for at := 0; ; {
		i := bytes.Index(data[at:], []byte(key))
		if i < 0 {
			return start, end, found
		}
		at += i + len(key)
		j := skipSpace(data, at)
		if j == len(data) || data[j] != ':' {
			continue // "text" as a value, as 0.3's "kind":"text"
		}
		j = skipSpace(data, j+1)
		if found || j == len(data) || data[j] != '"' {
			return 0, 0, false // a second "text" key, or one whose value is not a string
		}
		start, found = j+1, true
		if end = stringEnd(data, start); end < 0 {
			return 0, 0, false
		}
	}
}

// stringEnd returns the index of the quote that ends the JSON string whose contents start at i,
// or -1.
func stringEnd(data []byte, i int) int {
	for ; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// jsonString reads quoted, which must be exactly one JSON string, as the fast decoder's easyjson
// code reads a string value.
func jsonString(quoted []byte) (string, bool) {
	in := jlexer.Lexer{Data: quoted}
	s := in.String()
	in.Consumed()
	return s, in.Error() == nil
}
