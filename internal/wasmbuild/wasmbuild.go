// Package wasmbuild is the one definition of how a2aport.wasm is built: the target, the flags,
// the experiments, the wasm-opt pass, and the key of the source a build comes from. `make build.wasm` runs its command; the tests' hosttest and the embedded modules'
// stamps use its key, so a module is never taken for the build of another tree.
//
//	cmd := wasmbuild.Command("go", repoRoot, "bin/a2aport.wasm")
//	out, err := cmd.CombinedOutput()
package wasmbuild

import (
	"os"
	"os/exec"
)

// File is the module's file name, in bin/, js/ and (gzip-compressed) internal/module.
const File = "a2aport.wasm"

// Env is what the build adds to the environment. GOEXPERIMENT=jsonv2 backs encoding/json with
// its v2 implementation, which decodes a2a-go's events about twice as fast in the module
// (docs/benchmarks.md); the module's own easyjson envelopes are unaffected.
var Env = []string{"GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOEXPERIMENT=jsonv2"}

// BuildFlags are go build's flags. -trimpath and -buildvcs=false leave out where and at which
// commit the module was built, so the same source always gives the same bytes (make
// check.module compares a fresh build with the committed one).
var BuildFlags = []string{"-buildmode=c-shared", "-trimpath", "-buildvcs=false"}

// Command returns the go build of the module from the source tree at root into out; what it
// writes is then optimized by wasm-opt (OptimizeCommand).
func Command(goTool, root, out string) *exec.Cmd {
	args := append([]string{"build"}, BuildFlags...)
	cmd := exec.Command(goTool, append(args, "-o", out, "./wasm")...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), Env...)
	return cmd
}
