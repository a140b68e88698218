package bridge

import "sync"

// scheduler counts busy goroutines. A goroutine is busy from the moment it is started (Go) or
// made ready (wakeReady) until it finishes or parks (Wait); the batch is done when none is busy.
type scheduler struct {
	mu       sync.Mutex
	busy     int
	idle     chan struct{} // receives a token whenever busy drops to zero
	sleepers []*sleeper
}

type sleeper struct {
	ready func() bool
	wake  chan struct{}
}

func newScheduler() *scheduler {
	return &scheduler{idle: make(chan struct{}, 1)}
}

// Go runs f in a counted goroutine. recovered receives a panic of f; nil lets it crash the module.
func (s *scheduler) Go(f func(), recovered func(any)) {
	s.mu.Lock()
	s.busy++
	s.mu.Unlock()
	go func() {
		defer s.exit()
		if recovered != nil {
			defer func() {
				if v := recover(); v != nil {
					recovered(v)
				}
			}()
		}
		f()
	}()
}

func (s *scheduler) exit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.busy--
	s.wakeReady()
}

// Wait parks the calling (counted) goroutine until ready reports true. ready is re-checked
// whenever a busy goroutine parks or exits and after each input batch: those are the only moments
// at which what it observes can have changed.
func (s *scheduler) Wait(ready func() bool) {
	s.mu.Lock()
	if ready() {
		s.mu.Unlock()
		return
	}
	sl := &sleeper{ready: ready, wake: make(chan struct{})}
	s.sleepers = append(s.sleepers, sl)
	s.busy--
	s.wakeReady() // this goroutine may have readied others before parking
	s.mu.Unlock()
	<-sl.wake
}

// recheck wakes the sleepers whose condition holds; the bridge calls it after applying inputs.
func (s *scheduler) recheck() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wakeReady()
}

// wakeReady moves ready sleepers back to busy (the waker counts them, so the count never drops to
// zero while one is on its way) and signals idleness. Callers hold mu.
func (s *scheduler) wakeReady() {
	kept := s.sleepers[:0]
	for _, sl := range s.sleepers {
		if sl.ready() {
			s.busy++
			close(sl.wake)
			continue
		}
		kept = append(kept, sl)
	}
	clear(s.sleepers[len(kept):])
	s.sleepers = kept
	if s.busy == 0 {
		select {
		case s.idle <- struct{}{}:
		default:
		}
	}
}

// waitIdle blocks the export's goroutine (which is not counted) until no goroutine is busy.
func (s *scheduler) waitIdle() {
	for {
		s.mu.Lock()
		busy := s.busy
		s.mu.Unlock()
		if busy == 0 {
			return
		}
		<-s.idle
	}
}

func (s *scheduler) counts() (busy, sleeping int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy, len(s.sleepers)
}
