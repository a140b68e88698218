package host

import "sync"

// dispatcher delivers events and Submit results on one goroutine, in the order the module
// produced them, so a Submit returns only after its events were delivered (as natively).
type dispatcher struct {
	mu     sync.Mutex
	queue  []func()
	wake   chan struct{}
	closed bool
	done   chan struct{}
}

func newDispatcher() *dispatcher {
	d := &dispatcher{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go d.loop()
	return d
}

// post queues f; after close, f runs on the caller's goroutine so that nothing is lost.
func (d *dispatcher) post(f func()) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		f()
		return
	}
	d.queue = append(d.queue, f)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *dispatcher) loop() {
	defer close(d.done)
	for {
		d.mu.Lock()
		queue := d.queue
		d.queue = nil
		closed := d.closed
		d.mu.Unlock()
		for _, f := range queue {
			f()
		}
		if closed && len(queue) == 0 {
			return
		}
		if len(queue) == 0 {
			<-d.wake
		}
	}
}

// close drains the queue and stops the goroutine.
func (d *dispatcher) close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	<-d.done
}

// deliver calls a listener, isolating its panic like the native adapter does.
func deliver[T any](listener func(T), v T) {
	defer func() { _ = recover() }() // a listener's panic must not break the adapter or other listeners
	listener(v)
}
