package a2aclient

import "github.com/a2aport/a2aport"

// emit delivers ev to the Work's OnEvent listener and to every subscriber, in that order, on the
// run's goroutine so that each Work's events arrive in order. A panicking listener is isolated.
func (r *run) emit(ev a2aport.Event) {
	ev.WorkID, ev.OwnerID = r.work.ID, r.work.OwnerID
	if r.onEvent != nil {
		deliver(r.onEvent, ev)
	}
	r.a.mu.Lock()
	listeners := make([]func(a2aport.Event), 0, len(r.a.listeners))
	for _, l := range r.a.listeners {
		listeners = append(listeners, l)
	}
	r.a.mu.Unlock()
	for _, l := range listeners {
		deliver(l, ev)
	}
}

func deliver(listener func(a2aport.Event), ev a2aport.Event) {
	defer func() { _ = recover() }() // a listener's panic must not break the adapter or other listeners
	listener(ev)
}

// activity emits a state change or new status text; repeats are dropped.
func (r *run) activity(state a2aport.WorkState, text string) {
	r.mu.Lock()
	if r.stopped == nil {
		r.state = state
	}
	r.mu.Unlock()
	ev := a2aport.Event{Type: a2aport.EventActivity, State: state, Text: text}
	if ev == r.lastActivity {
		return
	}
	r.lastActivity = ev
	r.record()
	r.emit(ev)
}

// emitArtifact sends an artifact once per change of its content.
func (r *run) emitArtifact(t *trackedArtifact) {
	if t.emitted == t.version {
		return
	}
	t.emitted = t.version
	art, delta := t.event()
	r.emit(a2aport.Event{Type: a2aport.EventArtifact, Artifact: art, Delta: delta})
}
