// Package logbuf is a buffer a process or a logger writes to while a test reads it.
//
//	var log logbuf.Buffer
//	cmd.Stderr = &log
//	strings.Contains(log.String(), `"msg":"work resumed"`)
package logbuf

import (
	"bytes"
	"sync"
)

// Buffer is safe for one writer and concurrent readers. The zero value is ready to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
