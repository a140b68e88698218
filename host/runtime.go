package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/a2aport/a2aport"
)

// engine is the process's one wazero runtime with the module compiled at most once.
type engine struct {
	once     sync.Once
	config   *Config // the process's, fixed at the first use, unless the engine was given one
	err      error
	rt       wazero.Runtime
	compiled struct {
		once sync.Once
		mod  wazero.CompiledModule
		err  error
	}
}

var shared engine

func (e *engine) runtime() (wazero.Runtime, error) {
	e.once.Do(func() {
		ctx := context.Background()
		if e.config == nil {
			c := config()
			e.config = &c
		}
		cfg := wazero.NewRuntimeConfig()
		cache, err := compilationCache(e.config.cacheDir())
		if err != nil {
			e.err = &a2aport.Error{Code: a2aport.CodeModuleUnavailable, Message: err.Error(), Err: err}
			return
		}
		if cache != nil {
			cfg = cfg.WithCompilationCache(cache)
		}
		e.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, e.rt); err != nil {
			e.err = fmt.Errorf("host: WASI: %w", err)
		}
	})
	return e.rt, e.err
}

// compilationCache opens the on-disk cache in dir; nil when dir is "", or when dir is the default
// and cannot be written (a read-only home must not stop a program that never asked for a cache).
func compilationCache(dir string) (wazero.CompilationCache, error) {
	if dir == "" {
		return nil, nil
	}
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(dir, "probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
	var cache wazero.CompilationCache
	if err == nil {
		cache, err = wazero.NewCompilationCacheWithDir(dir)
	}
	switch {
	case err == nil:
		return cache, nil
	case dir == DefaultCompilationCacheDir():
		return nil, nil
	}
	return nil, fmt.Errorf("host: compilation cache: %w", err)
}

// unavailable is MODULE_UNAVAILABLE: what was being done and why it failed.
func unavailable(doing string, err error) error {
	return &a2aport.Error{Code: a2aport.CodeModuleUnavailable, Message: fmt.Sprintf("host: %s the module a2aport.wasm: %v", doing, err), Err: err}
}

// compile returns the module compiled, compiling it on first use.
func (e *engine) compile() (wazero.CompiledModule, error) {
	rt, err := e.runtime()
	if err != nil {
		return nil, err
	}
	c := &e.compiled
	c.once.Do(func() {
		var wasm []byte
		if wasm, c.err = moduleBytes(*e.config); c.err != nil {
			c.err = unavailable("reading", c.err)
			return
		}
		if c.mod, c.err = rt.CompileModule(context.Background(), wasm); c.err != nil {
			c.err = unavailable("compiling", c.err)
		}
	})
	return c.mod, c.err
}

// instance is one running module: one adapter.
type instance struct {
	mod    api.Module
	alloc  api.Function
	call   api.Function
	stderr *lockedBuffer
	sleeps atomic.Int64
}

// instantiate starts a fresh, anonymous instance (any number can coexist) with real clocks and
// crypto/rand: wazero's defaults are fake and deterministic.
func (e *engine) instantiate(ctx context.Context) (*instance, error) {
	compiled, err := e.compile()
	if err != nil {
		return nil, err
	}
	inst := &instance{stderr: &lockedBuffer{}}
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").
		WithSysWalltime().WithSysNanotime().WithRandSource(rand.Reader).WithStderr(inst.stderr).
		WithNanosleep(func(int64) { inst.sleeps.Add(1) }).WithOsyield(func() {})
	mod, err := e.rt.InstantiateModule(withLinearMemory(ctx), compiled, cfg)
	if err != nil {
		return nil, unavailable("starting", fmt.Errorf("%w (%s)", err, inst.stderr.String()))
	}
	inst.mod, inst.alloc, inst.call = mod, mod.ExportedFunction("a2aport_alloc"), mod.ExportedFunction("a2aport_call")
	if inst.alloc == nil || inst.call == nil {
		_ = mod.Close(ctx) // unusable either way; the missing export is the error to report
		return nil, unavailable("starting", errors.New("it lacks the a2aport exports"))
	}
	return inst, nil
}

// exchange sends one input frame and returns a copy of the effect frame.
func (in *instance) exchange(ctx context.Context, frame []byte) ([]byte, error) {
	res, err := in.alloc.Call(ctx, uint64(len(frame)))
	if err != nil {
		return nil, err
	}
	ptr := uint32(res[0])
	if !in.mod.Memory().Write(ptr, frame) {
		return nil, fmt.Errorf("host: input frame of %d bytes outside module memory", len(frame))
	}
	res, err = in.call.Call(ctx, uint64(ptr), uint64(len(frame)))
	if err != nil {
		return nil, err
	}
	outPtr, outLen := uint32(res[0]>>32), uint32(res[0])
	if res[0] == 0 {
		return nil, fmt.Errorf("host: the module rejected the input frame")
	}
	out, ok := in.mod.Memory().Read(outPtr, outLen)
	if !ok {
		return nil, fmt.Errorf("host: effect frame outside module memory")
	}
	return bytes.Clone(out), nil // the module reuses this memory on the next call
}

func (in *instance) memorySize() uint32 { return in.mod.Memory().Size() }

func (in *instance) close(ctx context.Context) error { return in.mod.Close(ctx) }

// lockedBuffer collects the module's stderr (Go's panic messages) for trap reports.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 64<<10 {
		return len(p), nil // enough to explain a trap
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
