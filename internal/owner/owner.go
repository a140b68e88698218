// Package owner writes and reads the owner ids the facade gives its Works: a caller and a
// conversation. The caller's name goes first with its length, so that no caller and context can
// spell another pair ("acme" + "alice/c1" is not "acme/alice" + "c1").
//
//	id := owner.Of("alice", "ctx-1") // "5:alice/ctx-1"
//	caller, ok := owner.Caller(id)   // "alice", true
package owner

import (
	"strconv"
	"strings"
)

// Of is the owner id of caller's conversation contextID.
func Of(caller, contextID string) string {
	return strconv.Itoa(len(caller)) + ":" + caller + "/" + contextID
}

// Caller is the caller of an owner id Of wrote; ok is false for any other string.
func Caller(id string) (caller string, ok bool) {
	n, rest, found := strings.Cut(id, ":")
	size, err := strconv.Atoi(n)
	if !found || err != nil || size < 0 || size >= len(rest) || rest[size] != '/' || strconv.Itoa(size) != n {
		return "", false
	}
	return rest[:size], true
}
