package termmd

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// isDelimiterRow reports whether line is a table's delimiter row: cells of dashes, with colons
// for alignment ("| --- | :-: |").
func isDelimiterRow(line string) bool {
	_, rest := indentOf(line)
	if !strings.Contains(rest, "-") || (!strings.Contains(rest, "|") && !strings.HasPrefix(rest, "-")) {
		return false
	}
	for _, cell := range cells(rest) {
		c := strings.Trim(strings.TrimSpace(cell), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// cells splits a table row at its unescaped pipes, without the outer ones.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, "\\|") {
		row = row[:len(row)-1]
	}
	var out []string
	var cell strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cell.WriteByte('|')
			i++
		case row[i] == '|':
			out = append(out, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(row[i])
		}
	}
	return append(out, strings.TrimSpace(cell.String()))
}

type alignment int

const (
	alignLeft alignment = iota
	alignCenter
	alignRight
)

// table reads a table (its header, delimiter row and the rows up to a blank line or a line
// without a pipe) and renders it in columns; one too wide for the terminal is shown row by row.
func table(lines []string, o Options) (int, string) {
	header := cells(lines[0])
	var align []alignment
	for _, c := range cells(lines[1]) {
		c = strings.TrimSpace(c)
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			align = append(align, alignCenter)
		case strings.HasSuffix(c, ":"):
			align = append(align, alignRight)
		default:
			align = append(align, alignLeft)
		}
	}
	rows := [][]string{header}
	i := 2
	for ; i < len(lines); i++ {
		if _, rest := indentOf(lines[i]); rest == "" || !strings.Contains(rest, "|") {
			break
		}
		rows = append(rows, cells(lines[i]))
	}
	cols := len(header)
	widths := make([]int, cols)
	styled := make([][]string, len(rows))
	for r, row := range rows {
		styled[r] = make([]string, cols)
		for c := range cols {
			if c < len(row) {
				styled[r][c] = inline(row[c], o)
			}
			if r == 0 {
				styled[r][c] = style(o, "1", styled[r][c], "22")
			}
			widths[c] = max(widths[c], ansi.StringWidth(styled[r][c]))
		}
	}
	total := 3*(cols-1) + sum(widths)
	bar := style(o, "2", " │ ", "22")
	var out []string
	for r, row := range styled {
		if total > o.Width { // no room for columns: each row on its own, wrapped
			out = append(out, ansi.Wrap(strings.Join(row, bar), o.Width, ""))
			continue
		}
		line := make([]string, cols)
		for c, cell := range row {
			line[c] = pad(cell, widths[c], alignOf(align, c))
		}
		out = append(out, strings.TrimRight(strings.Join(line, bar), " "))
		if r == 0 {
			rule := make([]string, cols)
			for c, w := range widths {
				rule[c] = strings.Repeat("─", w)
			}
			out = append(out, style(o, "2", strings.Join(rule, "─┼─"), "22"))
		}
	}
	return i, strings.Join(out, "\n")
}

func alignOf(align []alignment, c int) alignment {
	if c < len(align) {
		return align[c]
	}
	return alignLeft
}

func pad(cell string, width int, a alignment) string {
	gap := width - ansi.StringWidth(cell)
	switch a {
	case alignRight:
		return strings.Repeat(" ", gap) + cell
	case alignCenter:
		return strings.Repeat(" ", gap/2) + cell + strings.Repeat(" ", gap-gap/2)
	}
	return cell + strings.Repeat(" ", gap)
}

func sum(ns []int) int {
	t := 0
	for _, n := range ns {
		t += n
	}
	return t
}
