package agent

import (
	"context"
	"sync"
)

// starts remembers which first-turn instructions have started executing,
// so WaitStarted also succeeds for executions that started earlier.
type starts struct {
	mu      sync.Mutex
	started map[string]chan struct{}
}

// channel returns the channel closed when instruction starts; s.mu must be held.
func (s *starts) channel(instruction string) chan struct{} {
	if s.started == nil {
		s.started = make(map[string]chan struct{})
	}
	ch, ok := s.started[instruction]
	if !ok {
		ch = make(chan struct{})
		s.started[instruction] = ch
	}
	return ch
}

func (s *starts) mark(instruction string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channel(instruction)
	select {
	case <-ch: // an earlier task had the same instruction
	default:
		close(ch)
	}
}

func (s *starts) wait(ctx context.Context, closing <-chan struct{}, instruction string) error {
	s.mu.Lock()
	ch := s.channel(instruction)
	s.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-closing:
		return errServerClosed
	}
}
