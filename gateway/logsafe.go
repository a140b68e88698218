package gateway

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Bounds on what the log writes of a request, and of a backend's answer.
const (
	maxLoggedMethod = 16
	maxLoggedPath   = 512
	// maxLoggedReason bounds a backend's error text in the log and /backends.
	maxLoggedReason = 2048
)

// printable is s as a log line may carry it: runes that would steer a terminal or reorder the
// text shown (C0 and C1 controls, U+009B among them, and the bidirectional overrides and isolates,
// U+202E among them) and bytes that are not UTF-8 written as escapes, and at most max bytes of it
// (0: no bound), marked where cut. slog's JSON escapes C0 controls itself; the rest it writes raw.
func printable(s string, max int) string {
	var b strings.Builder
	for i, r := range s {
		if max > 0 && b.Len() >= max {
			b.WriteString("…")
			break
		}
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
