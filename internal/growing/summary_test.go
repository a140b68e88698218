package growing

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSummary holds a Summary to the text it stands for, however the text is split into appends:
// its length, equality, and its trimmed key and counts against strings.TrimSpace.
func FuzzSummary(f *testing.F) {
	for _, seed := range []string{"", " ", "answer", "the answer\n", "\n\t answer\u3000 \u0085", "\u00a0é ü\u2029", "a  b \n c", "   \n"} {
		f.Add(seed, uint8(1), uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, cut1, cut2 uint8) {
		if !utf8.ValidString(text) {
			return // decoded JSON strings are valid UTF-8
		}
		var s Summary
		for _, piece := range split(text, int(cut1), int(cut2)) {
			s.Add(piece)
		}
		trimmed := strings.TrimSpace(text)
		start := strings.Index(text, trimmed)
		if trimmed == "" {
			start = len(text)
		}
		wantHead, wantTail := utf8.RuneCountInString(text[:start]), utf8.RuneCountInString(text[start+len(trimmed):])
		key, head, tail := s.Trimmed()
		if key != KeyOf(trimmed) || head != wantHead || tail != wantTail {
			t.Fatalf("Trimmed() of %q = %v, %d, %d; want %v, %d, %d", text, key, head, tail, KeyOf(trimmed), wantHead, wantTail)
		}
		other := strings.Repeat("y", len(text))
		if s.Len() != len(text) || !s.Equal(text) || s.Equal(text+"x") || other != text && s.Equal(other) {
			t.Fatalf("Len() = %d, Equal(%q) = %v: the summary is not of its text", s.Len(), text, s.Equal(text))
		}
	})
}

// split cuts text at rune boundaries near a and b (as chunks of a stream are).
func split(text string, a, b int) []string {
	var pieces []string
	for _, n := range []int{a, b} {
		n = min(n, len(text))
		for n > 0 && !utf8.RuneStart(text[n%len(text)]) && n < len(text) {
			n++
		}
		pieces, text = append(pieces, text[:n]), text[n:]
	}
	return append(pieces, text)
}

func TestSummaryOfNothing(t *testing.T) {
	t.Parallel()
	var s Summary
	if key, head, tail := s.Trimmed(); key != KeyOf("") || head != 0 || tail != 0 || !s.Equal("") || s.Equal(" ") {
		t.Fatalf("the zero Summary is not the empty text: %v %d %d", key, head, tail)
	}
}
