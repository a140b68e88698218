//lint:file-ignore U1000 the host calls these through //go:wasmexport, which staticcheck does not see

package main

import (
	"unsafe"

	"github.com/a2aport/a2aport/wasm/internal/bridge"
)

// The module's exports, all of them (exports.txt lists them for the test that checks the build).
// Memory rules: a2aport_alloc returns a buffer owned by the module that the host fills and passes
// to a2aport_call, which takes it back; the frame a2aport_call returns stays valid only until the
// next a2aport_call, so the host copies it out at once.

var (
	b       = bridge.New()
	inputs  = map[uint32][]byte{} // allocated, not yet passed to a2aport_call
	lastOut []byte                // keeps the last result frame alive until the next call
)

// a2aport_alloc returns the address of a fresh module buffer of size bytes for an input frame.
//
//go:wasmexport a2aport_alloc
func alloc(size uint32) uint32 {
	buf := make([]byte, max(size, 1))
	ptr := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))
	inputs[ptr] = buf
	return ptr
}

// a2aport_call consumes the input frame at ptr (from a2aport_alloc, size bytes written), runs
// the module until it is quiescent and returns the effect frame as ptr<<32 | len. An unknown
// ptr or a size beyond the allocation returns 0.
//
//go:wasmexport a2aport_call
func call(ptr, size uint32) uint64 {
	buf, ok := inputs[ptr]
	delete(inputs, ptr)
	if !ok || int(size) > len(buf) {
		return 0
	}
	lastOut = b.Call(buf[:size])
	out := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(lastOut))))
	return uint64(out)<<32 | uint64(len(lastOut))
}
