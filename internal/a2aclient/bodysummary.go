package a2aclient

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxSummary is the most of a body an error message quotes, in runes.
const maxSummary = 160

// summarize is a failed answer's body prefix as one short line: an HTML page (a proxy's or a
// framework's error page) as its title or first heading without markup, since a page of markup
// in an error message hides the reason; anything else as its printable text.
func summarize(b []byte) string {
	for !utf8.Valid(b) && len(b) > 0 {
		b = b[:len(b)-1] // a prefix may end inside a character
	}
	s := string(b)
	if looksLikeHTML(s) {
		s = pageSummary(s)
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > maxSummary {
		s = string([]rune(s)[:maxSummary-1]) + "…"
	}
	return s
}

// statusLine is an HTTP status with its name and the summary of its body ("404 Not Found: the
// page's title"), the summary left out when it only repeats the status.
func statusLine(status int, summary string) string {
	line := strconv.Itoa(status)
	if name := http.StatusText(status); name != "" {
		line += " " + name
	}
	if summary == "" || strings.EqualFold(summary, line) || strings.EqualFold(summary, http.StatusText(status)) {
		return line
	}
	return line + ": " + summary
}

func looksLikeHTML(s string) bool {
	head := strings.ToLower(strings.TrimSpace(s[:min(len(s), 512)]))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") ||
		strings.Contains(head, "<head") || strings.Contains(head, "<body") || strings.Contains(head, "<title")
}

// pageSummary is an HTML page's title (else its first heading, else its visible text) as text.
// A few string scans, not regexp and html: those would add half a megabyte to the module.
func pageSummary(page string) string {
	for _, tag := range []string{"title", "h1"} {
		if text := pageText(element(page, tag)); text != "" {
			return text
		}
	}
	for _, tag := range []string{"head", "script", "style"} {
		for {
			open, end := elementSpan(page, tag)
			if open < 0 {
				break
			}
			page = page[:open] + " " + page[end:]
		}
	}
	return pageText(page)
}

// element is the content of the first <tag ...>...</tag> of page ("" if none).
func element(page, tag string) string {
	lower := strings.ToLower(page)
	start := tagStart(lower, tag, 0)
	if start < 0 {
		return ""
	}
	gt := strings.IndexByte(lower[start:], '>')
	if gt < 0 {
		return ""
	}
	content := start + gt + 1
	end := strings.Index(lower[content:], "</"+tag)
	if end < 0 {
		return page[content:]
	}
	return page[content : content+end]
}

// elementSpan is where the first <tag ...>...</tag> of page begins and ends (-1: none); an
// element that is not closed runs to the end.
func elementSpan(page, tag string) (int, int) {
	lower := strings.ToLower(page)
	start := tagStart(lower, tag, 0)
	if start < 0 {
		return -1, -1
	}
	close := strings.Index(lower[start:], "</"+tag)
	if close < 0 {
		return start, len(page)
	}
	end := start + close
	if gt := strings.IndexByte(lower[end:], '>'); gt >= 0 {
		return start, end + gt + 1
	}
	return start, len(page)
}

// tagStart finds "<tag" followed by a space, '>' or '/' in lower, from from (-1: none).
func tagStart(lower, tag string, from int) int {
	for {
		i := strings.Index(lower[from:], "<"+tag)
		if i < 0 {
			return -1
		}
		i += from
		if next := i + 1 + len(tag); next >= len(lower) || strings.ContainsRune(" \t\r\n>/", rune(lower[next])) {
			return i
		}
		from = i + 1
	}
}

// pageText is s without its tags, with the common entities read.
func pageText(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		lt := strings.IndexByte(s, '<')
		if lt < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:lt])
		b.WriteByte(' ')
		gt := strings.IndexByte(s[lt:], '>')
		if gt < 0 {
			break // cut inside a tag
		}
		s = s[lt+gt+1:]
	}
	return strings.TrimSpace(entities.Replace(b.String()))
}

var entities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&#x27;", "'", "&nbsp;", " ", "&middot;", "·", "&#183;", "·")
