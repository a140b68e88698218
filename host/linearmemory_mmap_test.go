//go:build linux || darwin

package host

import (
	"testing"
	"unsafe"
)

// The mapped memory grows in place, keeps what was written, starts zeroed and refuses to grow
// past its reservation.
func TestMappedMemoryGrowsInPlace(t *testing.T) {
	const page = 64 << 10
	mem := reserveLinearMemory(page, 64*page)
	defer mem.Free()
	if _, ok := mem.(*mappedMemory); !ok {
		t.Fatalf("reserveLinearMemory gave %T, want a mapping", mem)
	}
	small := mem.Reallocate(page)
	small[page-1] = 42
	big := mem.Reallocate(32 * page)
	if unsafe.SliceData(big) != unsafe.SliceData(small) || big[page-1] != 42 || big[32*page-1] != 0 || len(big) != 32*page {
		t.Fatalf("grown memory moved or lost its bytes: len %d, kept %d", len(big), big[page-1])
	}
	if again := mem.Reallocate(16 * page); len(again) != 16*page || again[page-1] != 42 {
		t.Errorf("a smaller size: len %d", len(again))
	}
	if past := mem.Reallocate(65 * page); past != nil {
		t.Errorf("grew past the reservation to %d bytes", len(past))
	}
}
