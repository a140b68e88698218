package module

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
)

var (
	//go:embed a2aport.wasm.gz
	compressed []byte
	//go:embed a2aport.wasm.source
	source string
)

// Bytes returns the module as built.
func Bytes() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("module: a2aport.wasm: %w", err)
	}
	// gzip's trailer ends with the size: one allocation, no growing copies.
	b := make([]byte, binary.LittleEndian.Uint32(compressed[len(compressed)-4:]))
	if _, err := io.ReadFull(zr, b); err != nil {
		return nil, fmt.Errorf("module: a2aport.wasm: %w", err)
	}
	return b, nil
}

// Source is the source key (wasmbuild.SourceKey) the embedded module was built from.
func Source() string { return source }
