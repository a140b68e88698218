package apiguard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// TestPublicAPIIsListed fails when an exported Go declaration or the JS types changed without
// api/ saying so: write the listing again (go run ./internal/apiguard/cmd/apiguard -w) and say
// the change in CHANGELOG.md, under Breaking when it breaks a caller or an implementer of Port.
func TestPublicAPIIsListed(t *testing.T) {
	listings, err := Listings(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range listings {
		want, err := os.ReadFile(filepath.Join(root, "api", name))
		if err != nil {
			t.Errorf("api/%s: %v (write it: make api)", name, err)
			continue
		}
		if added, removed := lineDiff(string(want), got); len(added)+len(removed) > 0 {
			t.Errorf("the public API of api/%s changed; if that is meant, say it in CHANGELOG.md and run "+
				"make api\nadded:\n\t%s\nremoved:\n\t%s",
				name, strings.Join(added, "\n\t"), strings.Join(removed, "\n\t"))
		}
	}
	files, _ := filepath.Glob(filepath.Join(root, "api", "*.txt"))
	for _, f := range files {
		if _, ok := listings[filepath.Base(f)]; !ok {
			t.Errorf("%s lists no public package", f)
		}
	}
}

// lineDiff is what got has that want lacks, and the other way round.
func lineDiff(want, got string) (added, removed []string) {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for _, l := range g {
		if !slices.Contains(w, l) {
			added = append(added, l)
		}
	}
	for _, l := range w {
		if !slices.Contains(g, l) {
			removed = append(removed, l)
		}
	}
	return added, removed
}

// The listing itself: exported names only, parameter names and comments left out, one line per
// field and method.
func TestGoAPIListsSignatures(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "context"

// T is documented.
type T struct {
	Name string // a comment
	hidden int
	Inner
}

type Inner struct{}

type I interface {
	Do(ctx context.Context, id string) (int, error)
}

const Max = 3
const min = 1

var V, w int

func (t *T) Method(a, b string) error { return nil }
func (t *hiddenT) Skipped() {}
func New(opts ...T) *T { return nil }

type hiddenT struct{}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := GoAPI(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"const Max = 3",
		"field T embeds Inner",
		"field T.Name string",
		"func New(...T) *T",
		"func T.Method(string, string) error",
		"method I.Do(context.Context, string) (int, error)",
		"type I interface",
		"type Inner struct",
		"type T struct",
		"var V int",
	}, "\n") + "\n"
	if got != want {
		t.Errorf("GoAPI =\n%s\nwant\n%s", got, want)
	}
}

func TestTSAPILeavesCommentsOut(t *testing.T) {
	got := TSAPI("/** doc */\nexport interface A {\n  // a\n  url: 'https://x'; /* b */ n: number;\n}\n\n")
	want := "export interface A {\nurl: 'https://x';  n: number;\n}\n"
	if got != want {
		t.Errorf("TSAPI = %q, want %q", got, want)
	}
}
