package a2aclient

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// Events are counted between blank lines, with LF or CRLF line ends, whatever the reads' sizes.
func TestCappedEvents(t *testing.T) {
	event := func(n int, eol string) string { return "data: " + strings.Repeat("x", n) + eol + eol }
	for _, c := range []struct {
		name   string
		stream string
		limit  int
		fail   bool
	}{
		{"many small events", strings.Repeat(event(20, "\n"), 100), 40, false},
		{"many small events, CRLF", strings.Repeat(event(20, "\r\n"), 100), 40, false},
		{"one event of exactly the limit", event(34, "\n"), 41, false}, // "data: " + 34 + "\n"
		{"one event past the limit", event(35, "\n"), 41, true},
		{"a big event after small ones", strings.Repeat(event(5, "\n"), 10) + event(100, "\n"), 64, true},
		{"a big event of many lines", "data: " + strings.Repeat("xxxxxxxxx\ndata: ", 20) + "\n\n", 64, true},
		{"a big event, CRLF", strings.Repeat(event(5, "\r\n"), 3) + event(100, "\r\n"), 64, true},
		{"an unterminated big line", "data: " + strings.Repeat("x", 100), 64, true},
	} {
		for _, reader := range []func(io.Reader) io.Reader{func(r io.Reader) io.Reader { return r }, iotest.OneByteReader, iotest.HalfReader} {
			_, err := io.ReadAll(capEvents(io.NopCloser(reader(strings.NewReader(c.stream))), c.limit, nil))
			var tl *tooLargeError
			if got := errors.As(err, &tl); got != c.fail || (!c.fail && err != nil) {
				t.Errorf("%s: ReadAll error = %v, want too large: %v", c.name, err, c.fail)
			}
		}
	}
}

func TestCappedBody(t *testing.T) {
	for _, c := range []struct {
		size, limit int
		fail        bool
	}{{10, 10, false}, {11, 10, true}, {0, 10, false}, {100000, 4096, true}} {
		got, err := io.ReadAll(capBody(io.NopCloser(iotest.HalfReader(strings.NewReader(strings.Repeat("y", c.size)))), c.limit, nil))
		var tl *tooLargeError
		if errors.As(err, &tl) != c.fail || (!c.fail && (err != nil || len(got) != c.size)) || len(got) > c.limit {
			t.Errorf("size %d, limit %d: read %d bytes, error %v; want too large: %v", c.size, c.limit, len(got), err, c.fail)
		}
	}
}
