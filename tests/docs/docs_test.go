package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/internal/abi"
)

const root = "../.."

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// constants returns the string constants of a Go file whose names start with prefix, by name.
func constants(t *testing.T, path, prefix string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, path), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, prefix) || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					out[name.Name], _ = strconv.Unquote(lit.Value)
				}
			}
		}
	}
	return out
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// section is the text of md under the heading that starts with heading, up to the next heading
// of the same or a higher level.
func section(t *testing.T, md, heading string) string {
	t.Helper()
	i := strings.Index(md, "\n"+heading)
	if i < 0 {
		t.Fatalf("no heading %q", heading)
	}
	rest := md[i+1+len(heading):]
	level := strings.Index(heading, " ")
	for j := 0; j < len(rest); j++ {
		if rest[j] == '\n' && strings.HasPrefix(rest[j+1:], strings.Repeat("#", level)+" ") {
			return rest[:j]
		}
	}
	return rest
}

var backticked = regexp.MustCompile("`([^`]+)`")

// tables returns, for each table of text in order, the backticked names of its first column
// (the header row left out), sorted.
func tables(text string) [][]string {
	var out [][]string
	inTable := false
	for line := range strings.Lines(text) {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "|") || len(cells) < 3 {
			inTable = false
			continue
		}
		if !inTable { // the header row
			inTable = true
			out = append(out, nil)
			continue
		}
		if strings.HasPrefix(cells[1], "---") {
			continue
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[1], -1) {
			out[len(out)-1] = append(out[len(out)-1], m[1])
		}
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

// TestDesignCitationsExist: every "DESIGN.md §n" (or "DESIGN.md §n") in the code and documents names
// a numbered section of docs/DESIGN.md, and nothing cites a design outside the repository.
func TestDesignCitationsExist(t *testing.T) {
	design := read(t, "docs/DESIGN.md")
	cite := regexp.MustCompile(`DESIGN(?:\.md)? §(\d+)`)
	outside := regexp.MustCompile(`shared/DESIGN|DESIGN\.md \(the team's shared|shared outside this repo`)
	cited := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "bin" || d.Name() == "docs" && filepath.Base(filepath.Dir(path)) == "tests") {
			return filepath.SkipDir
		}
		if d.IsDir() || !slices.Contains([]string{".go", ".js", ".mjs", ".ts", ".md"}, filepath.Ext(path)) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cite.FindAllStringSubmatch(string(b), -1) {
			cited++
			if !strings.Contains(design, "\n## "+m[1]+". ") {
				t.Errorf("%s cites %s, which docs/DESIGN.md does not have", path, m[0])
			}
		}
		if loc := outside.FindIndex(b); loc != nil {
			t.Errorf("%s points at a design outside the repository: %q", path, b[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Error("no citation found: the pattern no longer matches how the code cites the design")
	}
}

// TestABIDocumentMatchesTheCode: wasm/ABI.md's tables are exactly the kinds, calls, store methods,
// fetch codes and init fields of internal/abi, and the JS driver sends exactly the inputs and
// handles exactly the effects it lists.
func TestABIDocumentMatchesTheCode(t *testing.T) {
	md := read(t, "wasm/ABI.md")
	const envelope = "internal/abi/envelope.go"
	inputsText, effectsText := section(t, md, "## Inputs"), section(t, md, "## Effects")
	in, out := tables(inputsText), tables(effectsText)
	if len(in) != 2 || len(out) != 1 {
		t.Fatalf("ABI.md has %d tables under Inputs (want the kinds and the calls) and %d under Effects", len(in), len(out))
	}
	inputs, calls, effects := in[0], in[1], out[0]
	if got, want := append(slices.Clone(inputs), effects...), values(constants(t, envelope, "Kind")); !sameSet(got, want) {
		t.Errorf("ABI.md lists the kinds\n  inputs %v\n  effects %v\ninternal/abi has %v", inputs, effects, want)
	}
	if want := values(constants(t, envelope, "Method")); !slices.Equal(calls, want) {
		t.Errorf("ABI.md lists the calls %v, internal/abi has %v", calls, want)
	}
	for _, m := range values(constants(t, envelope, "Store")) {
		if !strings.Contains(effectsText, "`"+m+"`") {
			t.Errorf("ABI.md does not name the store method %q", m)
		}
	}
	for _, code := range append(values(constants(t, envelope, "Fetch")), abi.FetchAuthFailed, "A2A_NETWORK_ERROR", "A2A_HEADERS_FAILED") {
		if !strings.Contains(inputsText, "`"+code+"`") {
			t.Errorf("ABI.md does not name the fetch code %q", code)
		}
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[abi.Init]()) {
		if f.Anonymous {
			continue // WireOptions: its fields are visible on their own
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !strings.Contains(inputsText, "`"+name+"`") {
			t.Errorf("ABI.md does not name the init field %q", name)
		}
	}

	driver := read(t, "js/src/driver.js")
	if sent := matches(driver, `k: '([a-zA-Z]+)'`); !slices.Equal(sent, inputs) {
		t.Errorf("the JS driver sends the inputs %v, ABI.md lists %v", sent, inputs)
	}
	// The driver's switch over effects; its other cases (store methods) are not kinds.
	handled := slices.DeleteFunc(matches(driver, `case '([a-zA-Z]+)':`), func(k string) bool {
		return slices.Contains(values(constants(t, envelope, "Store")), k) && !slices.Contains(effects, k)
	})
	if !slices.Equal(handled, effects) {
		t.Errorf("the JS driver handles the effects %v, ABI.md lists %v", handled, effects)
	}

	exports := tables(section(t, md, "## Exports"))
	var want []string
	for line := range strings.Lines(read(t, "wasm/exports.txt")) {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "export" {
			want = append(want, f[1])
		}
	}
	slices.Sort(want)
	if len(exports) != 1 || !slices.Equal(exports[0], want) {
		t.Errorf("ABI.md lists the exports %v, exports.txt %v", exports, want)
	}
}

// TestErrorCodesDocumented: docs/errors.md lists exactly the codes of errors.go.
func TestErrorCodesDocumented(t *testing.T) {
	codes := tables(read(t, "docs/errors.md"))
	if len(codes) != 1 {
		t.Fatalf("docs/errors.md has %d tables, want one", len(codes))
	}
	if got, want := codes[0], values(constants(t, "errors.go", "Code")); !slices.Equal(got, want) {
		t.Errorf("docs/errors.md lists %v\nerrors.go has %v", got, want)
	}
}

// TestErrorCodesTyped: the JS package's A2APortErrorCode union (index.d.ts) is exactly the codes
// of errors.go, so a TypeScript user's comparison with a code that does not exist fails.
func TestErrorCodesTyped(t *testing.T) {
	dts := read(t, "js/index.d.ts")
	start := strings.Index(dts, "export type A2APortErrorCode =")
	if start < 0 {
		t.Fatal("js/index.d.ts declares no A2APortErrorCode")
	}
	union := dts[start : start+strings.Index(dts[start:], ";")]
	if got, want := matches(union, `'([A-Z0-9_]+)'`), values(constants(t, "errors.go", "Code")); !sameSet(got, want) {
		t.Errorf("A2APortErrorCode in js/index.d.ts is %v\nerrors.go has %v", got, want)
	}
}

func matches(text, pattern string) []string {
	var out []string
	for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// TestRelativeLinksResolve: every relative link of the repository's markdown names a file that
// exists, so moving a document cannot leave a link behind.
func TestRelativeLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(path) != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), m[1])); err != nil {
				t.Errorf("%s links to %s, which does not exist", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
