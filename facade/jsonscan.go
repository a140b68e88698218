package facade

import (
	"errors"
	"fmt"
)

// A request is scanned once, byte by byte, before a2asrv decodes it: a2a-go's decoding and its
// in-memory task store (which deep-copies every task with encoding/gob on every event) cost more
// than linear time in how deep a JSON value nests and in how many parts a message has, so a small
// request could cost gigabytes. The scan keeps no more than a frame per level and stops at the
// first limit passed.

var (
	errTooDeep     = errors.New("nests too deep")
	errTooManyPart = errors.New("has too many parts")
	errNotJSON     = errors.New("is not JSON")
)

// frame is one open object or array.
type frame struct {
	array bool
	key   string // the key the container sits under in its parent object
	last  string // an object's most recent key
	count int    // an array's values so far
}

// scanJSON checks body against the depth and parts limits (a negative limit is none). Arrays under the keys "parts" (A2A 1.0 and 0.3 JSON) and "content"
// (0.3 HTTP+JSON's proto form) are a message's parts.
func scanJSON(body []byte, maxDepth, maxParts int) error {
	var stack []frame
	expectKey := false // the next string in an object is a key
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case '{', '[':
			f := frame{array: c == '['}
			if n := len(stack); n > 0 {
				f.key = stack[n-1].last
				if err := countValue(&stack[n-1], maxParts); err != nil {
					return err
				}
			}
			if maxDepth >= 0 && len(stack) >= maxDepth {
				return fmt.Errorf("%w (more than %d levels)", errTooDeep, maxDepth)
			}
			stack = append(stack, f)
			expectKey = !f.array
		case '}', ']':
			if len(stack) == 0 {
				return errNotJSON
			}
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && !stack[len(stack)-1].array
		case '"':
			end, err := stringEnd(body, i)
			if err != nil {
				return err
			}
			s := body[i+1 : end]
			i = end
			if n := len(stack); n > 0 && expectKey {
				stack[n-1].last = string(s)
				expectKey = false
				continue
			}
			if n := len(stack); n > 0 {
				if err := countValue(&stack[n-1], maxParts); err != nil {
					return err
				}
			}
		default: // a number, true, false or null
			for i+1 < len(body) && !isDelimiter(body[i+1]) {
				i++
			}
			if n := len(stack); n > 0 {
				if err := countValue(&stack[n-1], maxParts); err != nil {
					return err
				}
			}
		}
	}
	if len(stack) != 0 {
		return errNotJSON
	}
	return nil
}

// countValue counts one more value in f, when f is an array of parts.
func countValue(f *frame, maxParts int) error {
	if !f.array {
		return nil
	}
	f.count++
	if maxParts >= 0 && f.count > maxParts && (f.key == "parts" || f.key == "content") {
		return fmt.Errorf("%w (more than %d)", errTooManyPart, maxParts)
	}
	return nil
}

// stringEnd is the index of the quote that closes the string opening at start.
func stringEnd(body []byte, start int) (int, error) {
	for j := start + 1; j < len(body); j++ {
		switch body[j] {
		case '\\':
			j++
		case '"':
			return j, nil
		}
	}
	return 0, errNotJSON
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':':
		return true
	}
	return false
}
