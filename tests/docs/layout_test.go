package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layout is DESIGN.md §9's map: each entry's path (the first word of a line that starts at the
// left margin) with the text that follows it, continuation lines included.
func layout(t *testing.T) map[string]string {
	t.Helper()
	text := section(t, read(t, "docs/DESIGN.md"), "## 9. Layout")
	start := strings.Index(text, "```\n")
	end := strings.LastIndex(text, "\n```")
	if start < 0 || end <= start {
		t.Fatal("DESIGN.md §9 has no code block with the map")
	}
	entries := map[string]string{}
	var last string
	for _, line := range strings.Split(text[start+4:end], "\n") {
		if line == "" {
			continue
		}
		if line[0] != ' ' {
			path, rest, _ := strings.Cut(line, " ")
			last = path
			entries[path] = rest
			continue
		}
		entries[last] += " " + strings.TrimSpace(line)
	}
	return entries
}

// dirs are the folders directly in dir that hold files tracked here (not bin/, not node_modules).
func dirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "bin" && e.Name() != "node_modules" {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestDesignLayoutMatchesTree keeps DESIGN.md §9 the map of the tree: every top-level folder is
// in it and every folder it names exists; its internal/ entry names exactly the packages under
// internal/; a sub-folder it names (facade/pgcluster, wasm/internal/bridge) exists.
func TestDesignLayoutMatchesTree(t *testing.T) {
	entries := layout(t)
	var listed []string
	for path := range entries {
		if strings.HasSuffix(path, "/") {
			listed = append(listed, strings.TrimSuffix(path, "/"))
		}
	}
	for _, d := range dirs(t, ".") {
		if !slices.Contains(listed, d) && !slices.ContainsFunc(listed, func(l string) bool { return strings.HasPrefix(l, d+"/") }) {
			t.Errorf("DESIGN.md §9 does not map %s/", d)
		}
	}
	for _, l := range listed {
		if _, err := os.Stat(filepath.Join(root, l)); err != nil {
			t.Errorf("DESIGN.md §9 maps %s/, which is not in the tree", l)
		}
	}

	// The internal/ entry: "a2aclient (the A2A client), abi (…), binding, …": names between commas,
	// with what a parenthesis says of them left out.
	text := regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(entries["internal/"], "")
	var named []string
	for _, part := range strings.Split(text, ",") {
		if name := strings.TrimSpace(part); name != "" {
			named = append(named, name)
		}
	}
	have := dirs(t, "internal")
	slices.Sort(named)
	slices.Sort(have)
	if !slices.Equal(named, have) {
		t.Errorf("DESIGN.md §9 names internal packages %v\nthe tree has %v", named, have)
	}

	// Sub-folders named anywhere in the map, as top/sub or "top/sub" inside an entry's text.
	sub := regexp.MustCompile(`\b([a-z]+/[a-z0-9_./-]*[a-z0-9_])`)
	for path, text := range entries {
		for _, m := range sub.FindAllStringSubmatch(path+" "+text, -1) {
			top, _, _ := strings.Cut(m[1], "/")
			if !slices.Contains(listed, top) {
				continue // not a path of the tree (JSON-RPC/REST, 1.0/0.3)
			}
			if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
				t.Errorf("DESIGN.md §9 names %s, which is not in the tree", m[1])
			}
		}
	}
}

// TestCitedGoFilesExist keeps the documents from citing Go files that were renamed or removed:
// every `name.go` a Markdown file of the repository quotes is a file of the tree.
func TestCitedGoFilesExist(t *testing.T) {
	var goFiles []string
	var docs []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "bin" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		switch {
		case strings.HasSuffix(path, ".go"):
			goFiles = append(goFiles, filepath.ToSlash(path))
		case strings.HasSuffix(path, ".md"):
			docs = append(docs, path)
		}
		return nil
	})
	cited := regexp.MustCompile("`([A-Za-z0-9_/.-]+\\.go)`")
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cited.FindAllStringSubmatch(string(b), -1) {
			name := m[1]
			if !slices.ContainsFunc(goFiles, func(f string) bool { return strings.HasSuffix(f, "/"+name) }) {
				t.Errorf("%s cites %s, which is not a file of the tree", strings.TrimPrefix(doc, root+"/"), name)
			}
		}
	}
}
