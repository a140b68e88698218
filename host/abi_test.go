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
// exports and imports, true for the module as built.
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
	if err := Prepare(testContext(t)); err != nil {
		t.Fatal(err)
	}
	m, err := shared.compile()
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
	// Go's linker may declare an import twice, and wasm-opt merges the twins: the set is what counts.
	slices.Sort(imports)
	imports = slices.Compact(imports)
	slices.Sort(wantImports)
	if !slices.Equal(exports, wantExports) {
		t.Errorf("exports:\n%s\nwant (exports.txt):\n%s", strings.Join(exports, "\n"), strings.Join(wantExports, "\n"))
	}
	if !slices.Equal(imports, wantImports) {
		t.Errorf("imports:\n%s\nwant (exports.txt):\n%s", strings.Join(imports, "\n"), strings.Join(wantImports, "\n"))
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
