//go:build !wasm

package growing

// beforeGrow does nothing natively, where freed memory goes back to the process's allocator.
func beforeGrow(int) {}
