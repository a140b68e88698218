package a2aclient

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"strings"
)

// asEventStream presents a plain JSON answer to a request for a stream (a server that refuses a
// streaming call with a JSON-RPC error response instead of an SSE stream) as a stream of that one
// event, so that a2a-go's stream readers, 1.0 and 0.3 alike, decode it and return the agent's own
// error instead of finding no event and losing it. Other responses are returned as they are.
func asEventStream(req *http.Request, resp *http.Response, limit int) *http.Response {
	if resp.StatusCode != http.StatusOK || !strings.Contains(req.Header.Get("Accept"), "text/event-stream") {
		return resp
	}
	if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media != "application/json" {
		return resp
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	_ = resp.Body.Close() // read whole, or failed: either way done with
	if err == nil && len(body) > limit {
		err = &tooLargeError{what: "answer", limit: limit}
	}
	if err != nil {
		resp.Body = io.NopCloser(errReader{err})
		return resp
	}
	var stream bytes.Buffer
	for line := range bytes.SplitSeq(bytes.TrimSpace(body), []byte("\n")) {
		stream.WriteString("data: ")
		stream.Write(bytes.TrimRight(line, "\r"))
		stream.WriteByte('\n')
	}
	stream.WriteByte('\n')
	resp.Header = resp.Header.Clone()
	resp.Header.Set("Content-Type", "text/event-stream")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Body = io.NopCloser(&stream)
	return resp
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
