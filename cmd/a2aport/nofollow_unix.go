//go:build unix

package main

import (
	"errors"
	"syscall"
)

// noFollow makes an open fail on a symbolic link instead of following it.
const noFollow = syscall.O_NOFOLLOW

// isLoop reports whether err is O_NOFOLLOW's refusal of a link.
func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
