package main

import (
	"errors"
	"io"
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// colorMode is --color: auto (colours where the writer is a terminal and NO_COLOR is not set),
// always, or never.
type colorMode string

func (c *colorMode) String() string { return string(*c) }

func (c *colorMode) Set(v string) error {
	switch v {
	case "auto", "always", "never":
		*c = colorMode(v)
		return nil
	}
	return errors.New("must be auto, always or never")
}

// plain reports whether nothing may be coloured: --color=never, or auto with NO_COLOR set.
func (c colorMode) plain() bool {
	return c == "never" || (c != "always" && os.Getenv("NO_COLOR") != "")
}

// styles colour what a terminal shows; written to anything else (a pipe, a file) they are plain
// text, as lipgloss decides from the writer (and NO_COLOR).
type styles struct {
	title, heading, bold, dim, ok, bad lipgloss.Style
}

func newStyles(w io.Writer, mode colorMode) styles {
	r := lipgloss.NewRenderer(w)
	switch {
	case mode.plain():
		r.SetColorProfile(termenv.Ascii)
	case mode == "always":
		r.SetColorProfile(termenv.ANSI256)
	}
	return styles{
		title:   r.NewStyle().Bold(true).Foreground(lipgloss.Color("12")),
		heading: r.NewStyle().Bold(true).Underline(true),
		bold:    r.NewStyle().Bold(true),
		dim:     r.NewStyle().Faint(true),
		ok:      r.NewStyle().Foreground(lipgloss.Color("10")),
		bad:     r.NewStyle().Foreground(lipgloss.Color("9")),
	}
}
