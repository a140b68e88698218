//go:build !(linux || darwin)

package host

import "context"

// withLinearMemory leaves linear memory to wazero's default (a growing slice) where the host has
// no mapping of its own (linearmemory_mmap.go).
func withLinearMemory(ctx context.Context) context.Context { return ctx }
