package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codeBlocks returns the fenced code blocks of a markdown file in the given language.
func codeBlocks(text, lang string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// The markdown a newcomer reads: the README and docs/.
func userDocs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"README.md"}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		paths = append(paths, rel)
	}
	return paths
}

// TestGoProgramsInDocsCompile: every Go block of the README and docs/ that is a whole program
// (it starts with a package clause) builds as it stands; a block that starts with an import but no
// package claims to be a program it is not, and fails. The JS blocks are js/test/docs.test.js's.
func TestGoProgramsInDocsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	programs := 0
	for _, path := range userDocs(t) {
		for i, block := range codeBlocks(read(t, path), "go") {
			switch {
			case strings.HasPrefix(block, "import"):
				t.Errorf("%s, Go block %d: starts with an import but is no program: give it a package clause and a main, or leave the import out", path, i+1)
			case strings.HasPrefix(block, "package "):
				programs++
				t.Run(strings.ReplaceAll(path, "/", "_")+"_"+string(rune('0'+i+1)), func(t *testing.T) { buildProgram(t, block) })
			}
		}
	}
	if programs < 2 {
		t.Errorf("found %d Go programs in the docs, want the README's and docs/go.md's at least", programs)
	}
}

// buildProgram builds src as a main package inside this module, so it imports a2aport as a user's
// program would import the version it is documented with.
func buildProgram(t *testing.T, src string) {
	dir, err := os.MkdirTemp(".", "program-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", os.DevNull, "./"+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go build:\n%s\n%s", out, src)
	}
}
