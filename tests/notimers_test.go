package tests

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/internal/wasmbuild"
)

// TestNoRuntimeTimers keeps time behind the Clock: inside the WebAssembly module a runtime timer
// would make the Go runtime ask the host to sleep, which the module must never do (DESIGN.md §4).
// Only the native clock (clock_real.go, the contract's RealClock) may use one.
func TestNoRuntimeTimers(t *testing.T) {
	forbidden := map[string]map[string]bool{
		"time":    {"Sleep": true, "After": true, "NewTimer": true, "NewTicker": true, "AfterFunc": true, "Tick": true},
		"context": {"WithTimeout": true, "WithDeadline": true, "WithTimeoutCause": true, "WithDeadlineCause": true},
	}
	// The packages the module links (a test of wasmbuild keeps the list true).
	var files []string
	for _, pkg := range wasmbuild.SourcePackages {
		entries, err := os.ReadDir(filepath.Join("..", pkg))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				files = append(files, filepath.Join("..", pkg, name))
			}
		}
	}
	checked := 0
	for _, name := range files {
		if filepath.Base(name) == "clock_real.go" {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if pkg, ok := n.X.(*ast.Ident); ok && forbidden[pkg.Name][n.Sel.Name] {
					t.Errorf("%s uses %s.%s; use the Clock (clock.go) instead", name, pkg.Name, n.Sel.Name)
				}
			case *ast.CompositeLit:
				if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Client" {
					for _, elt := range n.Elts {
						if kv, ok := elt.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Timeout") {
							t.Errorf("%s sets http.Client.Timeout; it would cut streams and arm a runtime timer", name)
						}
					}
				}
			}
			return true
		})
	}
	if checked < 30 {
		t.Fatalf("checked only %d files; the glob is wrong", checked)
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
