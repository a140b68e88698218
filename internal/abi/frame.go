package abi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"github.com/mailru/easyjson"
	"github.com/mailru/easyjson/jwriter"
)

// Writer assembles one frame: envelopes plus the payload they reference. The payload's pieces
// are held, not copied, until Frame copies each of them once, into the frame.
type Writer struct {
	batch   Batch
	payload [][]byte
	size    int // payload bytes so far
}

// Add appends an envelope.
func (w *Writer) Add(e Envelope) { w.batch.Envelopes = append(w.batch.Envelopes, e) }

// Bytes appends b to the payload and returns its span; b must not change until Frame.
func (w *Writer) Bytes(b []byte) *Span {
	s := &Span{Off: uint32(w.size), Len: uint32(len(b))}
	w.payload = append(w.payload, b)
	w.size += len(b)
	return s
}

// String appends s to the payload and returns its span.
func (w *Writer) String(s string) *Span {
	return w.Bytes(unsafe.Slice(unsafe.StringData(s), len(s))) // read only, by Frame
}

// Len returns the number of envelopes added since the last Reset.
func (w *Writer) Len() int { return len(w.batch.Envelopes) }

// Frame encodes the frame; now is the sender's clock (0 for effects).
func (w *Writer) Frame(now int64) ([]byte, error) {
	w.batch.Now = now
	var jw jwriter.Writer
	w.batch.MarshalEasyJSON(&jw)
	if jw.Error != nil {
		return nil, fmt.Errorf("abi: encoding batch: %w", jw.Error)
	}
	// The header goes from the encoder's chunks straight into the frame: a large result (a long
	// answer's outcome) is copied once, not twice.
	n := jw.Size()
	frame := make([]byte, 4, 4+n+w.size)
	binary.LittleEndian.PutUint32(frame, uint32(n))
	buf := bytes.NewBuffer(frame)
	if _, err := jw.DumpTo(buf); err != nil {
		return nil, fmt.Errorf("abi: encoding batch: %w", err)
	}
	frame = buf.Bytes()
	for _, piece := range w.payload {
		frame = append(frame, piece...)
	}
	return frame, nil
}

// Reset empties the writer, keeping its buffers.
func (w *Writer) Reset() {
	w.batch.Envelopes = w.batch.Envelopes[:0]
	clear(w.payload) // drop the references
	w.payload, w.size = w.payload[:0], 0
}

var errShortFrame = errors.New("abi: frame shorter than its header")

// ReadFrame decodes a frame. The payload aliases frame.
func ReadFrame(frame []byte) (Batch, []byte, error) {
	var b Batch
	if len(frame) < 4 {
		return b, nil, errShortFrame
	}
	n := binary.LittleEndian.Uint32(frame)
	if uint64(n) > uint64(len(frame)-4) {
		return b, nil, errShortFrame
	}
	if err := easyjson.Unmarshal(frame[4:4+n], &b); err != nil {
		return b, nil, fmt.Errorf("abi: decoding batch: %w", err)
	}
	return b, frame[4+n:], nil
}

// Slice returns the bytes s references in payload, or an error if they are out of range.
func Slice(payload []byte, s *Span) ([]byte, error) {
	if s == nil {
		return nil, nil
	}
	end := uint64(s.Off) + uint64(s.Len)
	if end > uint64(len(payload)) {
		return nil, fmt.Errorf("abi: span %d+%d outside a payload of %d bytes", s.Off, s.Len, len(payload))
	}
	return payload[s.Off:end], nil
}
