package growing

import (
	"fmt"
	"strings"
	"testing"
)

func TestTextExtend(t *testing.T) {
	t.Parallel()
	var text Text
	got := []string{text.Extend("", ""), text.Extend("", "a")}
	got = append(got, text.Extend(got[1], ""), text.Extend(got[1], "b"))
	got = append(got, text.Extend("other", "c")) // not the last result: starts over from it
	got = append(got, text.Extend(got[4], "d"))
	want := []string{"", "a", "a", "ab", "otherc", "othercd"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Extend results = %q, want %q", got, want)
	}
	long := ""
	for i := range 10_000 {
		long = text.Extend(long, "x")
		if i == 10 && got[3] != "ab" {
			t.Fatalf("an earlier result changed: %q", got[3])
		}
	}
	if len(long) != 10_000 || strings.Trim(long, "x") != "" {
		t.Fatalf("10,000 extensions gave %d bytes", len(long))
	}
}

func TestListSnapshotsNeverChange(t *testing.T) {
	t.Parallel()
	var l List[string]
	l.Push("a")
	first := l.Items()
	*l.Last() = "A" // held by first: the list is copied before the change
	l.Push("b")
	second := l.Items()
	l.Push("c") // appends beyond what second holds
	*l.Last() = "C"
	if fmt.Sprint(first, second, l.Items()) != "[a] [A b] [A b C]" {
		t.Errorf("snapshots = %v %v, list = %v", first, second, l.Items())
	}
	held := []string{"x"}
	l.Reset(held)
	*l.Last() = "y"
	if held[0] != "x" {
		t.Errorf("Reset wrote into the caller's items: %v", held)
	}
}

func ExampleText() {
	var text Text
	hello := text.Extend("", "Hello")
	greeting := text.Extend(hello, ", world")
	fmt.Println(hello, "/", greeting)
	// Output: Hello / Hello, world
}
