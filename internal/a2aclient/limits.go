package a2aclient

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/a2aport/a2aport"
)

// tooLargeError is what a capped body returns once the agent sent more than its limit.
type tooLargeError struct {
	what  string
	limit int
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.what, e.limit)
}

// tooLarge returns the typed error for a size limit passed: a capped body's, or a2a-go's own limit
// for one line of a stream.
func tooLarge(err error) *a2aport.Error {
	var capped *tooLargeError
	if errors.As(err, &capped) {
		return &a2aport.Error{Code: a2aport.CodeResponseTooLarge, Message: "the agent's " + capped.Error(), Err: err}
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return &a2aport.Error{Code: a2aport.CodeResponseTooLarge, Message: fmt.Sprintf("one event of the agent's stream is larger than %d bytes", maxSSEEvent), Err: err}
	}
	return nil
}

// cappedBody fails a read once more than limit bytes came: an answer that is not a stream is read
// whole by a2a-go, which must not buffer without bound.
type cappedBody struct {
	io.ReadCloser
	left int
	err  error
	rec  *httpFailure // told when the limit is passed: decoders do not always wrap read errors
}

func capBody(body io.ReadCloser, limit int, rec *httpFailure) io.ReadCloser {
	return &cappedBody{ReadCloser: body, left: limit, err: &tooLargeError{what: "answer", limit: limit}, rec: rec}
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, c.err
	}
	n, err := c.ReadCloser.Read(p[:min(len(p), c.left+1)])
	if c.left -= n; c.left < 0 {
		c.rec.tooLarge(c.err)
		return n + c.left, c.err // what fitted, then the error
	}
	return n, err
}

// cappedEvents fails a read once one server-sent event (the bytes between two blank lines) passed
// limit: a stream may be long, but no single event may be huge. It only counts; the stream's
// reader decodes.
type cappedEvents struct {
	io.ReadCloser
	limit   int
	event   int  // bytes of the current event's complete lines
	line    int  // bytes of the current line so far
	lastCR  bool // the current line so far is exactly "\r"
	tooLong error
	rec     *httpFailure
}

func capEvents(body io.ReadCloser, limit int, rec *httpFailure) io.ReadCloser {
	return &cappedEvents{ReadCloser: body, limit: limit, tooLong: &tooLargeError{what: "stream has an event that", limit: limit}, rec: rec}
}

func (c *cappedEvents) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	for rest := p[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			c.lastCR = c.line == 0 && len(rest) == 1 && rest[0] == '\r'
			c.line += len(rest)
			break
		}
		blank := c.line+i == 0 || (c.line+i == 1 && (c.lastCR || (c.line == 0 && rest[0] == '\r')))
		if blank {
			c.event = 0 // the event ended
		} else if c.event += c.line + i + 1; c.event > c.limit {
			c.rec.tooLarge(c.tooLong)
			return 0, c.tooLong
		}
		c.line, c.lastCR = 0, false
		rest = rest[i+1:]
	}
	if c.event+c.line > c.limit {
		c.rec.tooLarge(c.tooLong)
		return 0, c.tooLong
	}
	return n, err
}

// checkSize fails the Work once an artifact's merged content passes MaxArtifactBytes, or all of
// the Work's artifacts together pass MaxWorkBytes: the adapter keeps what it merged, and an agent
// must not make that grow without bound, in one artifact or in many.
func (r *run) checkSize(t *trackedArtifact) error {
	switch {
	case t.size > r.a.s.MaxArtifactBytes:
		return newError(a2aport.CodeResponseTooLarge, "the agent's artifact %q is larger than %d bytes (MaxArtifactBytes)", t.Name, r.a.s.MaxArtifactBytes)
	case r.out.total > r.a.s.MaxWorkBytes:
		return newError(a2aport.CodeResponseTooLarge, "the agent's artifacts of this Work are larger than %d bytes together (MaxWorkBytes)", r.a.s.MaxWorkBytes)
	}
	return nil
}
