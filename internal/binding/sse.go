package binding

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"iter"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// eventStream opens a stream when it is iterated and yields its events, each decoded as the
// chunk before it with another text when it is one (chunkRepeat), by fast when it can and by
// full otherwise; it ends at the first error.
func eventStream(open func() (io.ReadCloser, error), fast func([]byte) (a2a.Event, bool), full func([]byte) (a2a.Event, error)) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		body, err := open()
		if err != nil {
			yield(nil, err)
			return
		}
		defer func() { _ = body.Close() }() // the stream is over either way
		var repeat chunkRepeat
		for data, err := range dataEvents(body) {
			if err != nil {
				yield(nil, err)
				return
			}
			ev, ok := repeat.decode(data)
			if !ok {
				if ev, ok = fast(data); ok {
					repeat.learn(data, ev)
				}
			}
			if !ok {
				ev, err = full(data)
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// dataEvents yields the data of each server-sent event, by the rules a2a-go applies: "data:"
// lines (one optional space after the colon) joined by newlines, other lines ignored, a blank
// line ends an event, lines up to 10 MiB.
func dataEvents(body io.Reader) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		scanner := bufio.NewScanner(body)
		scanner.Buffer(make([]byte, 0, bufio.MaxScanTokenSize), maxSSETokenSize)
		var event []byte
		for scanner.Scan() {
			line := scanner.Bytes()
			if len(line) == 0 {
				if len(event) > 0 && !yield(event, nil) {
					return
				}
				event = nil // the consumer may keep what it was given
				continue
			}
			data, ok := bytes.CutPrefix(line, []byte("data:"))
			if !ok {
				continue
			}
			data, _ = bytes.CutPrefix(data, []byte(" "))
			if len(event) > 0 {
				event = append(event, '\n')
			}
			event = append(event, data...)
		}
		if err := scanner.Err(); err != nil {
			yield(nil, fmt.Errorf("SSE stream error: %w", err))
			return
		}
		if len(event) > 0 {
			yield(event, nil)
		}
	}
}
