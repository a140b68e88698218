package main

import (
	"strings"

	"github.com/a2aport/a2aport/internal/termmd"
)

// Markdown from an agent is rendered only within bounds: a text that nests deeper than
// maxMarkdownDepth (120 nested blockquotes in 123 bytes cost glamour, which rendered it before
// termmd, 30 s and 2 GB) or is larger than maxMarkdownBytes is shown as plain text. termmd's work
// grows with the text's length times its nesting, so these two bounds bound it.
const (
	maxMarkdownDepth = 12
	maxMarkdownBytes = 1 << 20
)

// renderMarkdown renders text with o within the bounds above; ok is false when it did not.
func renderMarkdown(o termmd.Options, text string) (string, bool) {
	if len(text) > maxMarkdownBytes || markdownDepth(text) > maxMarkdownDepth {
		return "", false
	}
	return termmd.Render(text, o), true
}

// markdownDepth is how deep text nests at most: its blockquote markers and the indentation of its
// list items, line by line.
func markdownDepth(text string) int {
	deepest := 0
	for line := range strings.Lines(text) {
		depth, indent := 0, 0
	scan:
		for i := 0; i < len(line); i++ {
			switch line[i] {
			case '>':
				depth++
				continue
			case ' ':
				indent++
				continue
			case '\t':
				indent += 4
				continue
			case '-', '*', '+':
				depth += indent / 2
			default:
				if line[i] >= '0' && line[i] <= '9' {
					depth += indent / 2
				}
			}
			break scan
		}
		deepest = max(deepest, depth)
	}
	return deepest
}
