package apiguard

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Packages are the public Go packages, by folder below the module root ("." is the contract).
var Packages = []string{".", "adapter", "conformance", "facade", "facade/pgcluster", "funcport", "gateway", "host"}

// GoAPI is the exported API of the package in dir: one sorted line per declaration.
func GoAPI(dir string) (string, error) {
	// The package's files as this platform builds them (no tests), as go/build selects them.
	pkg, err := build.ImportDir(dir, 0)
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	var lines []string
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return "", err
		}
		for _, d := range f.Decls {
			lines = append(lines, declLines(fset, d)...)
		}
	}
	slices.Sort(lines)
	return strings.Join(slices.Compact(lines), "\n") + "\n", nil
}

func declLines(fset *token.FileSet, d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		name := d.Name.Name
		if d.Recv != nil {
			recv := receiverType(d.Recv.List[0].Type)
			if !ast.IsExported(recv) {
				return nil
			}
			name = recv + "." + name
		}
		return []string{"func " + name + signature(fset, d.Type)}
	case *ast.GenDecl:
		var out []string
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					out = append(out, typeLines(fset, s)...)
				}
			case *ast.ValueSpec:
				for i, n := range s.Names {
					if !n.IsExported() {
						continue
					}
					line := d.Tok.String() + " " + n.Name
					if s.Type != nil {
						line += " " + render(fset, s.Type)
					}
					if d.Tok == token.CONST && i < len(s.Values) {
						line += " = " + render(fset, s.Values[i])
					}
					out = append(out, line)
				}
			}
		}
		return out
	}
	return nil
}

// typeLines is a type's declaration, and for a struct or an interface one line per exported
// field or method, so that adding one shows as one line.
func typeLines(fset *token.FileSet, s *ast.TypeSpec) []string {
	name := s.Name.Name
	if s.TypeParams != nil {
		name += render(fset, &ast.IndexListExpr{X: ast.NewIdent(""), Indices: fieldTypes(s.TypeParams)})
	}
	assign := " "
	if s.Assign.IsValid() {
		assign = " = "
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		out := []string{"type " + name + " struct"}
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 { // embedded
				out = append(out, "field "+s.Name.Name+" embeds "+render(fset, f.Type))
			}
			for _, n := range f.Names {
				if n.IsExported() {
					out = append(out, "field "+s.Name.Name+"."+n.Name+" "+render(fset, f.Type))
				}
			}
		}
		return out
	case *ast.InterfaceType:
		out := []string{"type " + name + " interface"}
		for _, m := range t.Methods.List {
			if len(m.Names) == 0 {
				out = append(out, "method "+s.Name.Name+" embeds "+render(fset, m.Type))
			}
			for _, n := range m.Names {
				if ft, ok := m.Type.(*ast.FuncType); ok {
					out = append(out, "method "+s.Name.Name+"."+n.Name+signature(fset, ft))
				}
			}
		}
		return out
	}
	return []string{"type " + name + assign + render(fset, s.Type)}
}

// signature is a function type's parameters and results, without their names.
func signature(fset *token.FileSet, ft *ast.FuncType) string {
	s := "(" + strings.Join(exprs(fset, fieldTypes(ft.Params)), ", ") + ")"
	if res := exprs(fset, fieldTypes(ft.Results)); len(res) == 1 {
		s += " " + res[0]
	} else if len(res) > 1 {
		s += " (" + strings.Join(res, ", ") + ")"
	}
	return s
}

// fieldTypes is each parameter's type, once per name.
func fieldTypes(fl *ast.FieldList) []ast.Expr {
	if fl == nil {
		return nil
	}
	var out []ast.Expr
	for _, f := range fl.List {
		for range max(1, len(f.Names)) {
			out = append(out, f.Type)
		}
	}
	return out
}

func exprs(fset *token.FileSet, es []ast.Expr) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = render(fset, e)
	}
	return out
}

func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return fmt.Sprint(t)
		}
	}
}

// render prints an expression on one line. A func type's parameter names are left out.
func render(fset *token.FileSet, e ast.Expr) string {
	if ft, ok := e.(*ast.FuncType); ok {
		return "func" + signature(fset, ft)
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, e); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// ListingFile is where the listing of the package in dir is kept, below api/.
func ListingFile(dir string) string {
	if dir == "." {
		return "a2aport.txt"
	}
	return strings.ReplaceAll(dir, "/", "_") + ".txt"
}

// Write writes the listings of the tree at root into root/api.
func Write(root string) error {
	listings, err := Listings(root)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root, "api"), 0o755); err != nil {
		return err
	}
	for name, text := range listings {
		if err := os.WriteFile(filepath.Join(root, "api", name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Listings are the API listings of the tree at root, by file name in api/.
func Listings(root string) (map[string]string, error) {
	out := map[string]string{}
	for _, dir := range Packages {
		text, err := GoAPI(filepath.Join(root, dir))
		if err != nil {
			return nil, err
		}
		out[ListingFile(dir)] = text
	}
	ts, err := os.ReadFile(filepath.Join(root, "js", "index.d.ts"))
	if err != nil {
		return nil, err
	}
	out["js_index.d.ts.txt"] = TSAPI(string(ts))
	return out, nil
}
