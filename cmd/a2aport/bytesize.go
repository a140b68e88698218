package main

import (
	"fmt"
	"strconv"
	"strings"
)

// byteSize is a flag's number of bytes, given and shown with a binary unit (100MiB) so help's
// default reads as a size, not as nine digits.
type byteSize int64

var sizeUnits = []struct {
	suffix string
	bytes  int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

func (b *byteSize) String() string {
	for _, u := range sizeUnits {
		if *b != 0 && int64(*b)%u.bytes == 0 {
			return strconv.FormatInt(int64(*b)/u.bytes, 10) + u.suffix
		}
	}
	return "0"
}

// Set takes a number of bytes, with or without one of the units (1024, 512KiB, 100MiB, 2GiB).
func (b *byteSize) Set(s string) error {
	n, unit := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(n, u.suffix); ok {
			n, unit = rest, u.bytes
			break
		}
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v < 0 || v > (1<<62)/unit {
		return fmt.Errorf("%q: want a size such as 1048576, 512KiB, 100MiB or 2GiB", s)
	}
	*b = byteSize(v * unit)
	return nil
}
