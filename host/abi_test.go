package host

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
)

// TestModuleBoundaryMatchesExportsTxt keeps wasm/exports.txt, the one list of the module's
// exports and imports, true for both flavours as built.
func TestModuleBoundaryMatchesExportsTxt(t *testing.T) {
	src, err := os.ReadFile("../wasm/exports.txt")
	if err != nil {
		t.Fatal(err)
	}
	var wantExports, wantImports []string
	for _, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(line, "export "):
			wantExports = append(wantExports, line)
		case strings.HasPrefix(line, "import "):
			wantImports = append(wantImports, line)
		}
	}
	slices.Sort(wantExports)
	for _, f := range []Flavour{Full, NoLegacy} {
		if err := Prepare(testContext(t), f); err != nil {
			t.Fatal(err)
		}
		m, err := shared.compile(f)
		if err != nil {
			t.Fatal(err)
		}
		var exports, imports []string
		for name, fn := range m.ExportedFunctions() {
			exports = append(exports, "export "+name+" "+signature(fn))
		}
		for _, fn := range m.ImportedFunctions() {
			mod, name, _ := fn.Import()
			imports = append(imports, "import "+mod+"."+name+" "+signature(fn))
		}
		slices.Sort(exports)
		if !slices.Equal(exports, wantExports) {
			t.Errorf("%s exports:\n%s\nwant (exports.txt):\n%s", f, strings.Join(exports, "\n"), strings.Join(wantExports, "\n"))
		}
		for _, imp := range imports {
			if !slices.Contains(wantImports, imp) {
				t.Errorf("%s imports %q, which exports.txt does not list", f, imp)
			}
		}
		if f == Full && len(imports) != len(wantImports) {
			t.Errorf("the full module imports %d functions, exports.txt lists %d", len(imports), len(wantImports))
		}
	}
}

func signature(fn api.FunctionDefinition) string {
	names := func(types []api.ValueType) string {
		out := make([]string, len(types))
		for i, t := range types {
			out[i] = api.ValueTypeName(t)
		}
		return strings.Join(out, " ")
	}
	return fmt.Sprintf("(%s) -> (%s)", names(fn.ParamTypes()), names(fn.ResultTypes()))
}
