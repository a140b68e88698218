package main

import (
	"strings"
	"time"

	"github.com/charmbracelet/glamour"
)

// Markdown from an agent is rendered only within bounds: glamour's cost grows faster than its
// input with nesting (120 nested blockquotes, 123 bytes, ran past 30 s and 2 GB), so a text that
// nests deeper than maxMarkdownDepth or is larger than maxMarkdownBytes is shown as plain text,
// and a rendering that takes longer than markdownTimeout is given up for the plain text too.
const (
	maxMarkdownDepth = 12
	maxMarkdownBytes = 1 << 20
	markdownTimeout  = 2 * time.Second
)

// renderMarkdown renders text with md within the bounds above; ok is false when it did not.
func renderMarkdown(md *glamour.TermRenderer, text string) (string, bool) {
	if len(text) > maxMarkdownBytes || markdownDepth(text) > maxMarkdownDepth {
		return "", false
	}
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() { // abandoned on a timeout: the bounds above keep what it can still cost small
		out, err := md.Render(text)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err == nil
	case <-time.After(markdownTimeout):
		return "", false
	}
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
