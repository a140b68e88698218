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
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
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
		skills, err = g.readSkills(ctx, b.spec.CardURL)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.state, b.reason = StateUnavailable, scrubURLs(err.Error())
		return false
	}
	b.state, b.reason, b.skills = StateAvailable, "", skills
	return true
}

// retry discovers b again with growing delays until it is available or the gateway closes.
func (g *Gateway) retry(b *backend) {
	defer g.wg.Done()
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

// probe checks the available backends every ProbeInterval until the gateway closes; one that
// fails is unavailable and retried as one that failed at start.
func (g *Gateway) probe() {
	defer g.wg.Done()
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
				b.mu.Lock()
				b.state, b.reason = StateUnavailable, scrubURLs(err.Error())
				b.mu.Unlock()
				g.wg.Add(1)
				go g.retry(b)
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
		_, err := g.readSkills(ctx, b.spec.CardURL)
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

// readSkills reads the skills of the card at url (A2A 1.0 or 0.3).
func (g *Gateway) readSkills(ctx context.Context, url string) ([]a2a.AgentSkill, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
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
	card, err := a2av0.NewAgentCardParser()(body)
	if err != nil {
		return nil, fmt.Errorf("reading its card for the skills: %w", err)
	}
	return card.Skills, nil
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
