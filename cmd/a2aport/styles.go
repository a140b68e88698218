package main

import (
	"io"

	"github.com/charmbracelet/lipgloss"
)

// styles colour what a terminal shows; written to anything else (a pipe, a file) they are plain
// text, as lipgloss decides from the writer (and NO_COLOR).
type styles struct {
	title, heading, bold, dim, ok, bad lipgloss.Style
}

func newStyles(w io.Writer) styles {
	r := lipgloss.NewRenderer(w)
	return styles{
		title:   r.NewStyle().Bold(true).Foreground(lipgloss.Color("12")),
		heading: r.NewStyle().Bold(true).Underline(true),
		bold:    r.NewStyle().Bold(true),
		dim:     r.NewStyle().Faint(true),
		ok:      r.NewStyle().Foreground(lipgloss.Color("10")),
		bad:     r.NewStyle().Foreground(lipgloss.Color("9")),
	}
}
