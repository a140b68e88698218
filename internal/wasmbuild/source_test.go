package wasmbuild

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// SourcePackages are exactly the packages of this repository the module links, so a change to
// any of them changes the source key and no stale module passes for a fresh one.
func TestSourcePackagesAreWhatTheModuleLinks(t *testing.T) {
	const repo = "github.com/a2aport/a2aport/"
	cmd := exec.Command("go", "list", "-deps", "./wasm")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), Env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var linked []string
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == strings.TrimSuffix(repo, "/") { // the contract, at the module's root
			linked = append(linked, ".")
		} else if rel, ok := strings.CutPrefix(pkg, repo); ok {
			linked = append(linked, rel)
		}
	}
	slices.Sort(linked)
	if !slices.Equal(linked, sortedSourcePackages()) {
		t.Errorf("%s links %v, SourcePackages lists %v", File, linked, SourcePackages)
	}
}

func sortedSourcePackages() []string {
	s := slices.Clone(SourcePackages)
	slices.Sort(s)
	return s
}
