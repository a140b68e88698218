package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/adapter"
)

// Backend states, as /backends shows them.
const (
	StateAvailable   = "available"
	StateUnavailable = "unavailable"
	StateDisabled    = "disabled"
	StateStarting    = "starting"
)

// backend is a catalogue entry and what the gateway knows of it now.
type backend struct {
	spec Backend

	mu     sync.Mutex
	state  string
	reason string           // why it is unavailable
	skills []a2a.AgentSkill // its own, as its card lists them
}

func newBackend(spec Backend) *backend {
	state := StateStarting
	if spec.Disabled {
		state = StateDisabled
	}
	return &backend{spec: spec, state: state}
}

func (b *backend) available() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state == StateAvailable
}

// discover starts the backend's Port and reads its skills; it reports whether it is available.
func (g *Gateway) discover(ctx context.Context, b *backend) bool {
	ctx, cancel := context.WithTimeout(ctx, g.opts.StartTimeout)
	defer cancel()
	_, err := b.spec.Port.Start(ctx)
	var skills []a2a.AgentSkill
	if err == nil && b.spec.CardURL != "" {
		skills, err = g.readSkills(ctx, b.spec.CardURL, b.spec.CardHeaders)
	}
	if err != nil {
		g.become(b, StateUnavailable, err)
		return false
	}
	b.mu.Lock()
	b.skills = skills
	b.mu.Unlock()
	g.become(b, StateAvailable, nil)
	return true
}

// become moves b to state (unavailable: because of why) and logs and counts the change. It
// reports whether b was in another state.
func (g *Gateway) become(b *backend, state string, why error) bool {
	reason := ""
	if why != nil {
		reason = printable(scrubURLs(why.Error()), maxLoggedReason)
	}
	b.mu.Lock()
	was := b.state
	b.state, b.reason = state, reason
	b.mu.Unlock()
	if was == state {
		return false
	}
	g.metrics.transitions.WithLabelValues(b.spec.Name, state).Inc()
	if state == StateAvailable {
		g.opts.Logger.Info("backend available", "backend", b.spec.Name, "was", was)
	} else {
		g.opts.Logger.Warn("backend "+state, "backend", b.spec.Name, "was", was, "reason", reason)
	}
	return true
}

// retry discovers b again with growing delays until it is available or the gateway closes.
func (g *Gateway) retry(b *backend) {
	delay := g.opts.RetryMin
	for {
		select {
		case <-g.closing.Done():
			return
		case <-time.After(delay):
		}
		if g.discover(g.closing, b) {
			return
		}
		delay = min(2*delay, g.opts.RetryMax)
	}
}

// lost marks an available backend unavailable, because of why, and retries it from RetryMin.
// A Work whose connection to the backend could not be made calls it (a passive health check,
// as Envoy's and Kong's): the messages after it are refused at once, naming the backends that
// are available, instead of failing one by one until the next probe.
func (g *Gateway) lost(b *backend, why error) {
	b.mu.Lock()
	available := b.state == StateAvailable
	b.mu.Unlock()
	if available && g.become(b, StateUnavailable, why) {
		g.background(func() { g.retry(b) })
	}
}

// probe checks the available backends every ProbeInterval until the gateway closes; one that
// fails is unavailable and retried as one that failed at start.
func (g *Gateway) probe() {
	for {
		select {
		case <-g.closing.Done():
			return
		case <-time.After(g.opts.ProbeInterval):
		}
		for _, name := range g.order {
			b := g.backends[name]
			if !b.available() {
				continue
			}
			if err := g.check(b); err != nil {
				g.lost(b, err)
			}
		}
	}
}

// check asks whether an available backend still is: its card can be read (its Port's Health
// for one without a card).
func (g *Gateway) check(b *backend) error {
	ctx, cancel := context.WithTimeout(g.closing, g.opts.StartTimeout)
	defer cancel()
	if b.spec.CardURL != "" {
		_, err := g.readSkills(ctx, b.spec.CardURL, b.spec.CardHeaders)
		return err
	}
	h, err := b.spec.Port.Health(ctx)
	if err == nil && !h.OK {
		err = errors.New(h.Error)
	}
	return err
}

// maxCardBytes bounds a backend's card as the gateway reads it for its skills.
const maxCardBytes = 1 << 20

// readSkills reads the skills of the card at url (A2A 1.0 or 0.3), sending headers (the card's
// origin is the backend's: its static headers are the backend's to see).
func (g *Gateway) readSkills(ctx context.Context, url string, headers http.Header) ([]a2a.AgentSkill, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	for name, values := range headers {
		req.Header[name] = values
	}
	req.Header.Set("Accept", "application/json")
	resp, err := g.opts.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading its card for the skills: %w", err)
	}
	defer func() { _ = resp.Body.Close() }() // read to its limit
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCardBytes))
	if err != nil {
		return nil, fmt.Errorf("reading its card for the skills: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("reading its card for the skills: HTTP %d", resp.StatusCode)
	}
	card, _, err := adapter.ReadCard(body) // as the backend's adapter reads it, every shape it takes
	if err != nil {
		return nil, fmt.Errorf("reading its card for the skills: %w", err)
	}
	return card.Skills, nil
}

// cardClient is client following a redirect only to the origin it was sent to, without a Referer:
// a card that redirects elsewhere would have the gateway fetch another origin's JSON (and skills)
// and tell it the card's URL, query and all (the adapter's own rule, SECURITY.md).
func cardClient(client *http.Client) *http.Client {
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		switch {
		case len(via) >= 10:
			return errors.New("the card redirects more than 10 times")
		case req.URL.Scheme != via[0].URL.Scheme || req.URL.Host != via[0].URL.Host:
			return fmt.Errorf("the card redirects to another origin (%s), which the gateway does not follow", withoutSecrets(req.URL.String()))
		}
		req.Header.Del("Referer")
		return nil
	}
	return &c
}

// skills are the card's skills now: each available backend's own, their ids prefixed by the
// backend's name ("weather/forecast"), or one skill for a backend that lists none.
func (g *Gateway) skills() []a2a.AgentSkill {
	var out []a2a.AgentSkill
	for _, name := range g.order {
		b := g.backends[name]
		b.mu.Lock()
		if b.state == StateAvailable {
			if len(b.skills) == 0 {
				d := b.spec.Port.Describe()
				desc := b.spec.Description
				if desc == "" {
					desc = "the " + name + " backend (" + d.AgentName + ")"
				}
				out = append(out, a2a.AgentSkill{ID: name, Name: name, Description: desc, Tags: []string{name}})
			}
			for _, s := range b.skills {
				s.ID = name + "/" + s.ID
				s.Tags = append(append([]string(nil), s.Tags...), name)
				out = append(out, s)
			}
		}
		b.mu.Unlock()
	}
	return out
}
