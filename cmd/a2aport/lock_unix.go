//go:build unix

package main

import (
	"os"
	"syscall"
)

// lockFile takes the exclusive lock of the file at path, creating it, and returns its release
// (which removes the file); false when another process holds it. The lock goes with the process,
// so a killed one leaves a Work free to resume.
func lockFile(path string) (release func(), ok bool) {
	for range 3 { // the file may be removed by its releasing holder between open and lock
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
		if err != nil {
			return nil, false
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			_ = f.Close()
			return nil, false
		}
		if sameFile(f, path) {
			return func() { _ = os.Remove(path); _ = f.Close() }, true
		}
		_ = f.Close() // locked a file that was removed meanwhile: take the one in its place
	}
	return nil, false
}

// locked reports whether a process holds the lock of the file at path.
func locked(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return err == syscall.EWOULDBLOCK
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
