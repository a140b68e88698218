package optiontable

import (
	"os"
	"path/filepath"
	"testing"
)

const root = "../.."

// The files written from the table are what the table writes now: an option edited by hand in
// one of them, or a table entry not generated, fails here (go generate ./... writes them).
func TestFilesAreCurrent(t *testing.T) {
	dts, err := os.ReadFile(filepath.Join(root, "js", "index.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := os.ReadFile(filepath.Join(root, "docs", "options.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(string(dts), string(docs))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is not what internal/optiontable writes: run go generate ./...", path)
		}
	}
}

// Each entry is one option that can be written: a name on a side, unique names, a number with
// what 0 means, values for an enum, and a TypeScript type for a JS option.
func TestEntriesAreWhole(t *testing.T) {
	goNames, jsNames := map[string]bool{}, map[string]bool{}
	for i, o := range Options {
		switch {
		case o.Go == "" && o.JS == "":
			t.Errorf("entry %d has neither a Go nor a JS name", i)
		case o.Go != "" && (o.GoType == "" || o.Doc == "" && !o.sharesDoc(i)):
			t.Errorf("%s: a Go option needs its type and doc", o.Go)
		case o.JS != "" && (o.TSType == "" || o.JSMeaning == ""):
			t.Errorf("%s: a JS option needs its TypeScript type and its docs row", o.JS)
		case o.Kind == Enum && len(o.Values) == 0:
			t.Errorf("%s%s: an enum without values", o.Go, o.JS)
		case o.Wire && (o.JS == "" || o.Go == ""):
			t.Errorf("%s%s: an option that crosses to the module needs both names", o.Go, o.JS)
		case o.Numeric() && !o.Wire:
			t.Errorf("%s: numbers cross to the module, which applies their defaults", o.Go)
		}
		if o.Go != "" && goNames[o.Go] || o.JS != "" && jsNames[o.JS] {
			t.Errorf("%s%s is listed twice", o.Go, o.JS)
		}
		goNames[o.Go], jsNames[o.JS] = true, true
		if o.Numeric() {
			_ = jsMin(o) // panics on a Min it cannot read
		}
	}
}

// sharesDoc: a field without a doc of its own follows one whose doc covers both (MaxCardBytes…).
func (o Option) sharesDoc(i int) bool {
	return i > 0 && Options[i-1].Go != "" && Options[i-1].Kind == o.Kind
}
