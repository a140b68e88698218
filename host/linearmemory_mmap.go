//go:build linux || darwin

package host

import (
	"context"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// withLinearMemory backs each instance's linear memory by one anonymous mapping reserved at its
// maximum size and made accessible as the module grows it: growing never copies, and the memory
// is not on the Go heap. wazero's default appends to a slice, so every growth copies what the
// module holds and, until the old array is collected, holds it twice (a 64 MiB artifact grew the
// host's heap by 13 bytes per byte, 1.1 GB of copies).
//
// Safe because nothing reads an instance's memory after it is closed: the driver's loop is the only
// reader, and the instance is closed after the loop ends (driver.release) or by the module's own
// exit inside a call, after which the loop reads nothing more.
func withLinearMemory(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(reserveLinearMemory))
}

// mappedMemory is one reserved mapping, accessible up to committed bytes.
type mappedMemory struct {
	mapping   []byte
	committed uint64
}

func reserveLinearMemory(_, maxBytes uint64) experimental.LinearMemory {
	mapping, err := syscall.Mmap(-1, 0, int(maxBytes), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapNoReserve)
	if err != nil {
		return &heapMemory{} // no address space to spare: grow as wazero would
	}
	return &mappedMemory{mapping: mapping}
}

// Reallocate makes the first size bytes accessible; nil (the module's memory.grow fails) when
// they are past the reservation or the system refuses.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.mapping)) {
		return nil
	}
	if size > m.committed {
		if err := syscall.Mprotect(m.mapping[m.committed:size], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil
		}
		m.committed = size
	}
	return m.mapping[:size:size]
}

func (m *mappedMemory) Free() {
	if m.mapping != nil {
		_ = syscall.Munmap(m.mapping) // only fails for a mapping that is not one
		m.mapping = nil
	}
}

// heapMemory is linear memory on the Go heap, copied as it grows (wazero's own way).
type heapMemory struct{ buf []byte }

func (m *heapMemory) Reallocate(size uint64) []byte {
	if grow := int(size) - len(m.buf); grow > 0 {
		m.buf = append(m.buf, make([]byte, grow)...)
	}
	return m.buf[:size]
}

func (m *heapMemory) Free() { m.buf = nil }
