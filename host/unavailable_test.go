package host

import (
	"context"
	"errors"
	"testing"

	"github.com/a2aport/a2aport"
)

// Bytes that are not a module, given as Config.Module, on an engine of its own (the shared one
// has the real modules compiled).
func TestBytesThatAreNotTheModuleAreModuleUnavailable(t *testing.T) {
	t.Parallel()
	e := engine{config: &Config{Module: []byte("\x00asm but not a module"), NoCompilationCache: true}}
	_, err := e.instantiate(context.Background())
	if !errors.Is(err, a2aport.ErrModuleUnavailable) || a2aport.CodeOf(err) != a2aport.CodeModuleUnavailable {
		t.Fatalf("instantiate = %v, want MODULE_UNAVAILABLE", err)
	}
	var ae *a2aport.Error
	if errors.As(err, &ae) && ae.Retryable {
		t.Error("bad module bytes reported as retryable")
	}
}
