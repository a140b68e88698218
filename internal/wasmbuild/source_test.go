package wasmbuild

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// SourcePackages are exactly the packages of this repository that each flavour links, so a
// change to any of them changes the source key and no stale module passes for a fresh one.
func TestSourcePackagesAreWhatTheModuleLinks(t *testing.T) {
	const repo = "github.com/a2aport/a2aport/"
	for _, f := range Flavours {
		args := []string{"list", "-deps"}
		if len(f.Tags) > 0 {
			args = append(args, "-tags", strings.Join(f.Tags, ","))
		}
		cmd := exec.Command("go", append(args, "./wasm")...)
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
		// The 1.0-only build may link fewer: the key may cover more than it needs, never less.
		for _, pkg := range linked {
			if !slices.Contains(SourcePackages, pkg) {
				t.Errorf("%s links %s, which SourcePackages lacks", f.File, pkg)
			}
		}
		if f.File == Full.File && !slices.Equal(linked, sortedSourcePackages()) {
			t.Errorf("%s links %v, SourcePackages lists %v", f.File, linked, SourcePackages)
		}
	}
}

func sortedSourcePackages() []string {
	s := slices.Clone(SourcePackages)
	slices.Sort(s)
	return s
}
