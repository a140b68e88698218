package termmd

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func plain(src string) string { return Render(src, Options{Width: 40}) }

func TestBlocks(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"heading and paragraph", "# Title\n\nSome text\non two lines.", "# Title\n\nSome text on two lines."},
		{"closing hashes", "## Criteria ##", "## Criteria"},
		{"setext", "Title\n=====\nSub\n---", "# Title\n\n## Sub"},
		{"wrapped", "one two three four five six seven eight nine ten eleven twelve", "one two three four five six seven eight\nnine ten eleven twelve"},
		{"hard break", "first  \nsecond\\\nthird", "first\nsecond\nthird"},
		{"bullets", "- a\n- b\n  continued\n* other list", "• a\n• b continued\n\n• other list"},
		{"nested", "1. one\n   - inner\n   - more\n2. two", "1. one\n   • inner\n   • more\n2. two"},
		{"ordered start", "3) three\n4) four", "3. three\n4. four"},
		{"loose", "- a\n\n- b", "• a\n\n• b"},
		{"tight before a paragraph", "1. a\n2. b\n\nafter", "1. a\n2. b\n\nafter"},
		{"tasks", "- [ ] todo\n- [x] done", "• ☐ todo\n• ☑ done"},
		{"quote", "> quoted **text**\nlazy line\n\nafter", "│ quoted text lazy line\n\nafter"},
		{"nested quote", "> > deep", "│ │ deep"},
		{"fence", "```go\nfunc main() {\n\tx := `*not*`\n}\n```\nafter", "  func main() {\n      x := `*not*`\n  }\n\nafter"},
		{"unclosed fence", "~~~\ncode", "  code"},
		{"indented code", "text\n\n    code line\n\nmore", "text\n\n  code line\n\nmore"},
		{"rule", "a\n\n---\n\nb", "a\n\n" + strings.Repeat("─", 40) + "\n\nb"},
		{"table", "| Criterion | Tea | Coffee |\n|---|:-:|--:|\n| Taste | 3 | 4 |\n| Price | **2** | 1 |",
			"Criterion │ Tea │ Coffee\n──────────┼─────┼───────\nTaste     │  3  │      4\nPrice     │  2  │      1"},
		{"table too wide", "| a | b |\n|---|---|\n| " + strings.Repeat("x", 30) + " | " + strings.Repeat("y", 30) + " |",
			"a │ b\n" + strings.Repeat("x", 30) + " │\n" + strings.Repeat("y", 30)},
	} {
		if got := plain(c.src); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestInline(t *testing.T) {
	for _, c := range []struct{ src, plain, color string }{
		{"**bold** and *em* and _em_", "bold and em and em", "\x1b[1mbold\x1b[22m and \x1b[3mem\x1b[23m and \x1b[3mem\x1b[23m"},
		{"`co*de*` ~~gone~~", "`co*de*` gone", "\x1b[36mco*de*\x1b[39m \x1b[9mgone\x1b[29m"},
		{"[site](https://x.example \"title\")", "site (https://x.example)", "\x1b[4msite\x1b[24m \x1b[2m(https://x.example)\x1b[22m"},
		{"![a chart](c.png) <https://x.example>", "[image: a chart] (c.png) https://x.example", ""},
		{"snake_case_name and 2 * 3 = 6 \\*literal\\*", "snake_case_name and 2 * 3 = 6 *literal*", ""},
		{"**unclosed and *also", "**unclosed and *also", ""},
		{"*a **b** c*", "a b c", "\x1b[3ma \x1b[1mb\x1b[22m c\x1b[23m"},
		{"``a ` b``", "``a ` b``", "\x1b[36ma ` b\x1b[39m"},
		{"[not a link] [x](", "[not a link] [x](", ""},
	} {
		if got := inline(c.src, Options{}); got != c.plain {
			t.Errorf("inline(%q) = %q, want %q", c.src, got, c.plain)
		}
		if c.color != "" {
			if got := inline(c.src, Options{Color: true}); got != c.color {
				t.Errorf("inline(%q) in colour = %q, want %q", c.src, got, c.color)
			}
		}
	}
}

// TestColorCodesAreOnlyWithColor: the layout is the same with colours; without them there is
// no escape code at all.
func TestColorCodesAreOnlyWithColor(t *testing.T) {
	src := "# Report\n\n## Criteria\n\n### Detail\n\nSome **bold** `code` [l](u).\n\n> q\n\n```\nx\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---"
	colored, bare := Render(src, Options{Width: 60, Color: true}), Render(src, Options{Width: 60})
	if strings.Contains(bare, "\x1b") {
		t.Errorf("escape codes without colour:\n%q", bare)
	}
	if !strings.Contains(colored, "\x1b[1;4mReport") {
		t.Errorf("no heading style in colour:\n%q", colored)
	}
	if got, want := strings.Count(ansi.Strip(colored), "\n"), strings.Count(bare, "\n"); got != want {
		t.Errorf("%d lines in colour, %d without", got, want)
	}
}

// TestWidthIsKept: no line is wider than the width, whatever the colours.
func TestWidthIsKept(t *testing.T) {
	src := strings.Repeat("word **bold words** and `code span` here ", 40) + "\n\n- " + strings.Repeat("item text ", 30) + "\n\n> " + strings.Repeat("quoted ", 40)
	for _, w := range []int{30, 60, 120} {
		for _, color := range []bool{false, true} {
			for _, line := range strings.Split(Render(src, Options{Width: w, Color: color}), "\n") {
				if ansi.StringWidth(line) > w {
					t.Errorf("width %d, colour %v: a line of %d: %q", w, color, ansi.StringWidth(line), line)
				}
			}
		}
	}
}

// TestCostGrowsWithTheText: inputs built to make a naive renderer quadratic (openers that never
// close, brackets that never make a link) cost about their length; printed for each size, and
// the largest must end at all (a quadratic renderer takes minutes there).
func TestCostGrowsWithTheText(t *testing.T) {
	for _, unit := range []string{"*a ", "_a ", "[a ", "[a](", "`a ", "<a ", "**a ", "~~a "} {
		for _, n := range []int{10_000, 100_000} {
			src := strings.Repeat(unit, n)
			start := time.Now()
			out := Render(src, Options{Width: 80})
			t.Logf("%q × %d: %v", unit, n, time.Since(start))
			if len(out) < len(src)/2 {
				t.Errorf("%q × %d: text lost (%d of %d bytes)", unit, n, len(out), len(src))
			}
		}
	}
}
