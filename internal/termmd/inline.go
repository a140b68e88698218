package termmd

import "strings"

// inline renders the inline markup of s: code spans, strong, emphasis and strikethrough, links,
// images, autolinks and backslash escapes. Markup that opens and never closes stays as written.
// Every search for a closer is remembered when it fails, so that no input makes the work grow
// faster than its length times its nesting.
func inline(s string, o Options) string {
	p := inliner{o: o, noCloser: map[string]bool{}}
	return p.render(s)
}

type inliner struct {
	o Options
	// noCloser holds the delimiters with no closer left in the text being rendered: their later
	// openers are text without a search.
	noCloser map[string]bool
}

const specials = "\\`*_~![<"

func (p *inliner) render(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		next := strings.IndexAny(s[i:], specials)
		if next < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+next])
		i += next
		n, out := p.markup(s, i)
		if n == 0 { // not markup here: the character is text
			n, out = 1, s[i:i+1]
		}
		b.WriteString(out)
		i += n
	}
	return b.String()
}

// markup reads the markup that starts at s[i]: how many bytes it takes and what it renders to
// (0: none starts there).
func (p *inliner) markup(s string, i int) (int, string) {
	switch c := s[i]; c {
	case '\\':
		if i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			return 2, s[i+1 : i+2]
		}
	case '`':
		return p.codeSpan(s, i)
	case '*', '_', '~':
		return p.emphasis(s, i)
	case '!':
		if n, text, url := p.link(s, i+1); n > 0 {
			return n + 1, style(p.o, "2", "[image: "+text+"]", "22") + p.target(url)
		}
	case '[':
		if n, text, url := p.link(s, i); n > 0 {
			if text == url {
				return n, style(p.o, "4", url, "24")
			}
			return n, style(p.o, "4", p.sub(text), "24") + p.target(url)
		}
	case '<':
		end := strings.IndexAny(s[i+1:], "<> ")
		if end > 0 && s[i+1+end] == '>' {
			if url := s[i+1 : i+1+end]; strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://") || strings.HasPrefix(url, "mailto:") {
				return end + 2, style(p.o, "4", url, "24")
			}
		}
	}
	return 0, ""
}

// sub renders a part of the text on its own (what a delimiter encloses).
func (p *inliner) sub(s string) string {
	q := inliner{o: p.o, noCloser: map[string]bool{}}
	return q.render(s)
}

func (p *inliner) target(url string) string {
	return " " + style(p.o, "2", "("+url+")", "22")
}

// codeSpan reads a run of n backticks, the text and a closing run of exactly n.
func (p *inliner) codeSpan(s string, i int) (int, string) {
	n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
	ticks := s[i : i+n]
	if p.noCloser[ticks] {
		return n, ticks
	}
	for from := i + n; ; {
		j := strings.Index(s[from:], ticks)
		if j < 0 {
			p.noCloser[ticks] = true
			return n, ticks
		}
		j += from
		end := j + n
		if end < len(s) && s[end] == '`' { // a longer run: not this span's end
			from = end + len(s[end:]) - len(strings.TrimLeft(s[end:], "`"))
			continue
		}
		code := s[i+n : j]
		if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
			code = code[1 : len(code)-1]
		}
		if !p.o.Color {
			return end - i, ticks + code + ticks
		}
		return end - i, style(p.o, "36", code, "39")
	}
}

// emphasis reads **strong**, __strong__, *emphasis*, _emphasis_ or ~~strikethrough~~.
func (p *inliner) emphasis(s string, i int) (int, string) {
	c := s[i]
	d := s[i : i+1]
	if i+1 < len(s) && s[i+1] == c {
		d = s[i : i+2]
	}
	if c == '~' && len(d) == 1 {
		return 0, ""
	}
	after := i + len(d)
	if p.noCloser[d] || after >= len(s) || s[after] == ' ' || (c == '_' && i > 0 && isWordByte(s[i-1])) {
		return len(d), d
	}
	j := p.closer(s, after, d)
	if j < 0 {
		p.noCloser[d] = true
		return len(d), d
	}
	inner := p.sub(s[after:j])
	on, off := "1", "22"
	switch {
	case c == '~':
		on, off = "9", "29"
	case len(d) == 1:
		on, off = "3", "23"
	}
	return j + len(d) - i, style(p.o, on, inner, off)
}

// closer is where the first delimiter d that can close, from from on, starts (-1: none): not
// after a space, not part of a longer run of its character, and for _ not inside a word.
func (p *inliner) closer(s string, from int, d string) int {
	c := d[0]
	for from < len(s) {
		j := strings.Index(s[from:], d)
		if j < 0 {
			return -1
		}
		j += from
		end := j + len(d)
		run := end + len(s[end:]) - len(strings.TrimLeft(s[end:], d[:1]))
		switch {
		case s[j-1] == ' ' || (len(d) == 1 && (run > end || s[j-1] == c)):
			from = run
		case c == '_' && run < len(s) && isWordByte(s[run]):
			from = run
		default:
			return j
		}
	}
	return -1
}

// link reads [text](url) at s[i]: the bytes it takes (0: not a link), its text and its URL.
func (p *inliner) link(s string, i int) (int, string, string) {
	if i >= len(s) || s[i] != '[' || p.noCloser["]"] {
		return 0, "", ""
	}
	j := strings.IndexAny(s[i+1:], "[]")
	if j < 0 {
		p.noCloser["]"] = true
		return 0, "", ""
	}
	j += i + 1
	if s[j] == '[' || j+1 >= len(s) || s[j+1] != '(' || p.noCloser[")"] {
		return 0, "", ""
	}
	k := strings.IndexByte(s[j+2:], ')')
	if k < 0 {
		p.noCloser[")"] = true
		return 0, "", ""
	}
	target := strings.Fields(s[j+2 : j+2+k]) // a title after the URL is left out
	if len(target) == 0 {
		return 0, "", ""
	}
	url := strings.Trim(target[0], "<>")
	return j + 3 + k - i, s[i+1 : j], url
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
