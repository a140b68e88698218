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
	full []byte
	//go:embed a2aport.wasm.source
	fullSource string
	//go:embed a2aport-1.0.wasm.gz
	noLegacy []byte
	//go:embed a2aport-1.0.wasm.source
	noLegacySource string
)

// Bytes returns the module named file (a2aport.wasm or a2aport-1.0.wasm) as built.
func Bytes(file string) ([]byte, error) {
	compressed, _ := embedded(file)
	if compressed == nil {
		return nil, fmt.Errorf("module: no embedded module %q", file)
	}
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("module: %s: %w", file, err)
	}
	// gzip's trailer ends with the size: one allocation, no growing copies.
	b := make([]byte, binary.LittleEndian.Uint32(compressed[len(compressed)-4:]))
	if _, err := io.ReadFull(zr, b); err != nil {
		return nil, fmt.Errorf("module: %s: %w", file, err)
	}
	return b, nil
}

// Source is the source key (wasmbuild.SourceKey) the embedded module named file was built from.
func Source(file string) string {
	_, source := embedded(file)
	return source
}

func embedded(file string) ([]byte, string) {
	switch file {
	case "a2aport.wasm":
		return full, fullSource
	case "a2aport-1.0.wasm":
		return noLegacy, noLegacySource
	}
	return nil, ""
}
