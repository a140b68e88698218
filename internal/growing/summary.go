package growing

import (
	"hash/maphash"
	"strings"
	"unicode"
	"unicode/utf8"
)

// seed is shared by every Summary and Key of the process, so that any two compare; random, so
// that no agent can choose texts whose hashes collide.
var seed = maphash.MakeSeed()

// Summary stands for a text that grows by appends without holding it: its length, the white
// space at its ends, and a hash of what is between (the text as strings.TrimSpace gives it).
// Where someone else keeps the text (the module's host rebuilds it from the same appends) a
// Summary is all that comparing and trimming it needs. The zero value is the empty text.
type Summary struct {
	n       int
	started bool         // a character other than white space was seen
	lead    []byte       // the white space before the first other character (all of the text until one)
	core    maphash.Hash // from the first other character through the last
	coreLen int
	pending []byte // the white space after the last other character, not yet in core
}

// Key identifies a text by its length and hash: equal texts have equal keys, and unequal texts
// equal keys with a chance of about 2⁻⁶⁴.
type Key struct {
	Len int
	Sum uint64
}

// KeyOf returns s's key.
func KeyOf(s string) Key { return Key{len(s), maphash.String(seed, s)} }

// Add appends text (valid UTF-8, as a decoded JSON string is).
func (s *Summary) Add(text string) {
	s.n += len(text)
	if !s.started {
		i := strings.IndexFunc(text, notSpace)
		if i < 0 {
			s.lead = append(s.lead, text...)
			return
		}
		s.lead = append(s.lead, text[:i]...)
		s.core.SetSeed(seed)
		s.started, text = true, text[i:]
	}
	last := strings.LastIndexFunc(text, notSpace)
	if last < 0 { // white space alone: it ends the text until something else follows
		s.pending = append(s.pending, text...)
		return
	}
	_, size := utf8.DecodeRuneInString(text[last:])
	end := last + size
	_, _ = s.core.Write(s.pending)
	_, _ = s.core.WriteString(text[:end])
	s.coreLen += len(s.pending) + end
	s.pending = append(s.pending[:0], text[end:]...)
}

// Len is the text's length in bytes.
func (s *Summary) Len() int { return s.n }

// Equal reports whether text is the summarized text.
func (s *Summary) Equal(text string) bool {
	if len(text) != s.n || !strings.HasPrefix(text, string(s.lead)) || !strings.HasSuffix(text, string(s.pending)) {
		return false
	}
	if !s.started {
		return true // white space alone, all of it in lead
	}
	key, _, _ := s.Trimmed()
	return KeyOf(text[len(s.lead):len(text)-len(s.pending)]) == key
}

// Trimmed returns the key of the text as strings.TrimSpace gives it and how many white space
// characters (each in the BMP: one UTF-16 unit) that drops at the start and at the end.
func (s *Summary) Trimmed() (key Key, head, tail int) {
	head = utf8.RuneCount(s.lead)
	if !s.started {
		return KeyOf(""), head, 0
	}
	return Key{s.coreLen, s.core.Sum64()}, head, utf8.RuneCount(s.pending)
}

func notSpace(r rune) bool { return !unicode.IsSpace(r) }
