package conformance

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
)

// The event checks: every event carries the Work id and owner; per-Work and subscribed listeners see
// the same events; unsubscribe stops delivery; a panicking listener breaks nothing.
// subscribe registers listener, unsubscribes it when the check ends and returns the unsubscribe function.
func subscribe(t *testing.T, p a2aport.Port, listener func(a2aport.Event)) (unsubscribe func()) {
	t.Helper()
	unsubscribe = p.Subscribe(listener)
	if unsubscribe == nil {
		t.Fatalf("Subscribe() = nil, want an unsubscribe function")
	}
	t.Cleanup(unsubscribe)
	return unsubscribe
}

// summary renders events compactly for failure messages.
func summary(events []a2aport.Event) string {
	parts := make([]string, len(events))
	for i, e := range events {
		parts[i] = e.Type
		if e.State != "" {
			parts[i] += "(" + string(e.State) + ")"
		}
	}
	return fmt.Sprintf("%d events [%s]", len(events), strings.Join(parts, " "))
}

// wantSomeEvents waits until rec has received an event of w, and fails the check otherwise.
func wantSomeEvents(t *testing.T, ctx context.Context, who string, rec *recorder, w a2aport.Work) {
	t.Helper()
	if !eventually(ctx, func() bool { return len(rec.of(w.ID)) > 0 }) {
		t.Errorf("%s received %s for Work %q, want at least one", who, summary(rec.of(w.ID)), w.ID)
	}
}

// wantSameEvents waits until the subscribed listener sub has received for w exactly the events
// the Work's own listener on received, and fails the check otherwise. Delivery may complete
// after Submit returns, hence the wait.
func wantSameEvents(t *testing.T, ctx context.Context, sub, on *recorder, w a2aport.Work) {
	t.Helper()
	same := func() bool {
		got, want := sub.of(w.ID), on.of(w.ID)
		return len(want) > 0 && reflect.DeepEqual(got, want)
	}
	if !eventually(ctx, same) {
		t.Errorf("subscribed listener received %s for Work %q, want the %s its OnEvent listener received",
			summary(sub.of(w.ID)), w.ID, summary(on.of(w.ID)))
	}
}

func checkEventsOnEvent(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	on := &recorder{}
	submit(t, ctx, f.Backend, f.Work, a2aport.OnEvent(on.listen))
	wantSomeEvents(t, ctx, "OnEvent listener", on, f.Work)
	wantEvents(t, "OnEvent listener", on.all(), f.Work)
}

func checkEventsSubscribe(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	sub := &recorder{}
	subscribe(t, f.Backend, sub.listen)
	works := []a2aport.Work{f.Work, next(t, f)}
	for _, w := range works {
		on := &recorder{}
		submit(t, ctx, f.Backend, w, a2aport.OnEvent(on.listen))
		wantSameEvents(t, ctx, sub, on, w)
	}
	wantEvents(t, "subscribed listener", sub.all(), works...)
}

func checkEventsUnsubscribe(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	gone, kept := &recorder{}, &recorder{}
	unsubscribe := subscribe(t, f.Backend, gone.listen)
	subscribe(t, f.Backend, kept.listen)

	first := f.Work
	on := &recorder{}
	submit(t, ctx, f.Backend, first, a2aport.OnEvent(on.listen))
	wantSameEvents(t, ctx, gone, on, first)
	wantSameEvents(t, ctx, kept, on, first)

	unsubscribe()
	unsubscribe() // a second call is harmless

	second := next(t, f)
	on = &recorder{}
	submit(t, ctx, f.Backend, second, a2aport.OnEvent(on.listen))
	// Once the listener still subscribed has everything, nothing more is on its way.
	wantSameEvents(t, ctx, kept, on, second)
	if got := gone.of(second.ID); len(got) != 0 {
		t.Errorf("unsubscribed listener received %s for Work %q submitted after unsubscribe, want none", summary(got), second.ID)
	}
}

func checkEventsPanickingListener(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	panics := func(e a2aport.Event) { panic("conformance: listener panics on " + e.Type) }
	// One panicking listener before and one after the well-behaved one, whatever the call order.
	subscribe(t, f.Backend, panics)
	kept := &recorder{}
	subscribe(t, f.Backend, kept.listen)
	subscribe(t, f.Backend, panics)

	for _, w := range []a2aport.Work{f.Work, next(t, f)} {
		on := &recorder{}
		submit(t, ctx, f.Backend, w, a2aport.OnEvent(on.listen))
		wantSameEvents(t, ctx, kept, on, w)
	}
	h, err := f.Backend.Health(ctx)
	wantHealthy(t, "Health() after panicking listeners", h, err)
}

func checkEventsPanickingOnEvent(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	sub := &recorder{}
	subscribe(t, f.Backend, sub.listen)
	panics := func(e a2aport.Event) { panic("conformance: OnEvent panics on " + e.Type) }
	submit(t, ctx, f.Backend, f.Work, a2aport.OnEvent(panics))
	wantSomeEvents(t, ctx, "subscribed listener", sub, f.Work)
	// The backend still runs Works afterwards.
	w := next(t, f)
	on := &recorder{}
	submit(t, ctx, f.Backend, w, a2aport.OnEvent(on.listen))
	wantSameEvents(t, ctx, sub, on, w)
}
