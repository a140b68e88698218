//go:build wasm

package growing

import "runtime"

// bigText is the size from which a growing text makes room before it takes a larger buffer.
const bigText = 4 << 20

// beforeGrow collects before a large text takes a larger buffer. WebAssembly memory never
// shrinks and a large buffer needs contiguous pages: collected first, the text's earlier, dead
// buffers lie free side by side and take the new one, instead of the module reserving fresh
// memory at each growth. Text holds no pointers, so such a collection marks little.
func beforeGrow(size int) {
	if size >= bigText {
		runtime.GC()
	}
}
