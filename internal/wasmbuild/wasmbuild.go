// Package wasmbuild is the one definition of how a2aport.wasm is built: the target, the flags,
// the experiments, each flavour's build tags and wasm-opt pass, and the key of the source a build
// comes from. `make build.wasm` runs its command; the tests' hosttest and the embedded modules'
// stamps use its key, so a module is never taken for the build of another tree.
//
//	cmd := wasmbuild.Command("go", repoRoot, "bin/a2aport.wasm", wasmbuild.Full)
//	out, err := cmd.CombinedOutput()
package wasmbuild

import (
	"os"
	"os/exec"
	"strings"
)

// Flavour is one build of the module from the same source.
type Flavour struct {
	File     string   // the module's file name
	Tags     []string // Go build tags
	Optimize bool     // run wasm-opt (WasmOpt) on what go build wrote
}

var (
	// Full speaks A2A 1.0 and, through a2a-go's compat layer, 0.3.
	Full = Flavour{File: "a2aport.wasm"}
	// NoLegacy speaks A2A 1.0 only: the compat layer links gRPC and more than doubles the module.
	// It is the one a page loads first, so it is optimized by wasm-opt (2 minutes of build).
	NoLegacy = Flavour{File: "a2aport-1.0.wasm", Tags: []string{"a2aport_nolegacy"}, Optimize: true}
)

// Env is what the build adds to the environment. GOEXPERIMENT=jsonv2 backs encoding/json with
// its v2 implementation, which decodes a2a-go's events about twice as fast in the module
// (docs/benchmarks.md); the module's own easyjson envelopes are unaffected.
var Env = []string{"GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOEXPERIMENT=jsonv2"}

// BuildFlags are go build's flags. -trimpath and -buildvcs=false leave out where and at which
// commit the module was built, so the same source always gives the same bytes (make
// check.module compares a fresh build with the committed one).
var BuildFlags = []string{"-buildmode=c-shared", "-trimpath", "-buildvcs=false"}

// Command returns the go build of flavour f from the source tree at root into out.
func Command(goTool, root, out string, f Flavour) *exec.Cmd {
	args := append([]string{"build"}, BuildFlags...)
	args = append(args, "-o", out)
	if len(f.Tags) > 0 {
		args = append(args, "-tags", strings.Join(f.Tags, ","))
	}
	cmd := exec.Command(goTool, append(args, "./wasm")...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), Env...)
	return cmd
}
