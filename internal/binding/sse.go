package binding

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"iter"
)

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
