// Package growing holds the two structures that keep a streamed artifact's cost linear: a list
// whose earlier snapshots stay valid while it grows, and a text that grows without copying what
// it returned before. The adapter merges chunks with them; hosts rebuild artifacts from deltas
// with them.
//
//	var parts growing.List[Part]
//	var text growing.Text
//	parts.Push(Part{Text: "Hello"})
//	snapshot := parts.Items() // shared, read-only
//	last := parts.Last()      // a copy of the list: snapshot holds the old last part
//	last.Text = text.Extend(last.Text, ", world")
package growing

import "unsafe"

// List is an append-only list of values whose last value can still change. Items hands out the
// list without copying; a later change to a value that a handed-out list holds copies the list
// first, so what was handed out never changes.
type List[T any] struct {
	items  []T
	shared int // how many leading items a handed-out list holds
}

// Items returns the list; the caller must not modify it.
func (l *List[T]) Items() []T {
	l.shared = len(l.items)
	return l.items[:len(l.items):len(l.items)]
}

// Len is the number of items.
func (l *List[T]) Len() int { return len(l.items) }

// Push appends v.
func (l *List[T]) Push(v T) { l.items = append(l.items, v) }

// Last returns the last item for changing it; nil when the list is empty.
func (l *List[T]) Last() *T {
	n := len(l.items)
	if n == 0 {
		return nil
	}
	if n <= l.shared {
		l.items, l.shared = append([]T(nil), l.items...), 0
	}
	return &l.items[n-1]
}

// Peek returns a copy of the last item without making it changeable (Last would copy a
// handed-out list first); ok is false when the list is empty.
func (l *List[T]) Peek() (v T, ok bool) {
	if len(l.items) == 0 {
		return v, false
	}
	return l.items[len(l.items)-1], true
}

// Reset replaces the list with items. They are held, not copied, and so never written: the
// caller may still hold them.
func (l *List[T]) Reset(items []T) { l.items, l.shared = items, len(items) }

// Text grows one string by appends in time linear in the bytes appended. The strings it returns
// share its buffer and stay valid (the bytes they cover are never written again).
type Text struct {
	buf []byte
}

// Extend returns current+s. When current is the string Extend last returned, only s is copied;
// any other current starts the text over from it.
func (t *Text) Extend(current, s string) string {
	if s == "" {
		return current
	}
	if len(t.buf) != len(current) || len(current) > 0 && unsafe.StringData(current) != &t.buf[0] {
		t.buf = append(make([]byte, 0, len(current)+len(s)), current...)
	}
	if n := len(t.buf) + len(s); n > cap(t.buf) {
		beforeGrow(n)
	}
	t.buf = append(t.buf, s...)
	return unsafe.String(&t.buf[0], len(t.buf))
}
