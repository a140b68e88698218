package host

import (
	"context"
	"errors"
	"testing"

	"github.com/a2aport/a2aport"
)

// Not parallel: it swaps the process's Binary for bytes that are not a module, on an engine of
// its own (the shared one has the real modules compiled).
func TestBytesThatAreNotTheModuleAreModuleUnavailable(t *testing.T) {
	saved := Binary
	t.Cleanup(func() { Binary = saved })
	Binary = map[Flavour][]byte{NoLegacy: []byte("\x00asm but not a module")}
	var e engine
	_, err := e.instantiate(context.Background(), NoLegacy)
	if !errors.Is(err, a2aport.ErrModuleUnavailable) || a2aport.CodeOf(err) != a2aport.CodeModuleUnavailable {
		t.Fatalf("instantiate = %v, want MODULE_UNAVAILABLE", err)
	}
	var ae *a2aport.Error
	if errors.As(err, &ae) && ae.Retryable {
		t.Error("bad module bytes reported as retryable")
	}
}
