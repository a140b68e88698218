package gateway

import (
	"fmt"
	"time"

	"github.com/a2aport/a2aport/facade"
)

// The gateway's push notifications (push:): callers register webhooks for their tasks and the
// gateway POSTs each task's events there (facade.PushOptions). Off by default: a webhook is a
// request the gateway makes where a caller says, so it is offered only when the operator says so,
// and only to public https webhooks unless allowedWebhooks names internal ones.

// PushConfig turns push notifications on and bounds them. Zero numbers and empty durations take
// the facade's defaults.
type PushConfig struct {
	// Enabled offers push notifications (the card says pushNotifications: true).
	Enabled bool `yaml:"enabled"`
	// AllowedWebhooks are origins (https://hooks.internal:8443, http://10.1.2.3:9000) and CIDRs
	// (10.20.0.0/16) a webhook may be on although not public: the guard against webhooks on the
	// gateway's own network is lifted for them (SECURITY.md).
	AllowedWebhooks []string `yaml:"allowedWebhooks"`
	// MaxAttempts bounds the attempts per event and webhook (default 5).
	MaxAttempts int `yaml:"maxAttempts"`
	// RetryBackoff is the first wait between attempts, doubled each time up to a minute (default 1s).
	RetryBackoff string `yaml:"retryBackoff"`
	// Timeout bounds one attempt (default 10s).
	Timeout string `yaml:"timeout"`
	// MaxQueuedPerWebhook and MaxQueued bound the events waiting for one webhook of a task and in
	// all (defaults 100 and 10,000): past them the oldest are dropped.
	MaxQueuedPerWebhook int `yaml:"maxQueuedPerWebhook"`
	MaxQueued           int `yaml:"maxQueued"`
	// MaxConfigsPerTask bounds the webhooks of one task (default 10).
	MaxConfigsPerTask int `yaml:"maxConfigsPerTask"`
	// Sign signs every push with the card's key (signing:, which it needs): a JWT in
	// X-A2A-Notification-Signature that receivers verify with the published key (docs/facade.md).
	Sign bool `yaml:"sign"`

	retryBackoff, timeout time.Duration
}

// check validates the push block. Its messages name the field, never a value.
func (p *PushConfig) check(fail func(field, msg string) error) error {
	if !p.Enabled {
		if len(p.AllowedWebhooks) > 0 {
			return fail("push.allowedWebhooks", "needs push.enabled: true")
		}
		return nil
	}
	for _, d := range []struct {
		field string
		text  string
		v     *time.Duration
	}{{"push.retryBackoff", p.RetryBackoff, &p.retryBackoff}, {"push.timeout", p.Timeout, &p.timeout}} {
		if d.text == "" {
			continue
		}
		v, err := time.ParseDuration(d.text)
		if err != nil || v <= 0 {
			return fail(d.field, "must be a positive duration such as 10s")
		}
		*d.v = v
	}
	for _, n := range []struct {
		field string
		v     int
	}{{"push.maxAttempts", p.MaxAttempts}, {"push.maxQueuedPerWebhook", p.MaxQueuedPerWebhook},
		{"push.maxQueued", p.MaxQueued}, {"push.maxConfigsPerTask", p.MaxConfigsPerTask}} {
		if n.v < 0 {
			return fail(n.field, "must not be negative (0: the default)")
		}
	}
	for i, entry := range p.AllowedWebhooks { // the facade's own reading, so that the file is refused with its line
		if err := (&facade.PushOptions{AllowedWebhooks: []string{entry}}).Check(); err != nil {
			return fail(fmt.Sprintf("push.allowedWebhooks[%d]", i), "must be an origin (scheme://host[:port]) or a CIDR")
		}
	}
	return nil
}

// pushOptions is the facade's option the block describes (nil when push is off). observe, when
// set, is told every outcome (the gateway's metrics).
func (p *PushConfig) pushOptions(observe func(facade.PushOutcome)) *facade.PushOptions {
	if !p.Enabled {
		return nil
	}
	return &facade.PushOptions{AllowedWebhooks: p.AllowedWebhooks, MaxAttempts: p.MaxAttempts, RetryBackoff: p.retryBackoff,
		Timeout: p.timeout, MaxQueuedPerWebhook: p.MaxQueuedPerWebhook, MaxQueued: p.MaxQueued,
		MaxConfigsPerTask: p.MaxConfigsPerTask, Observe: observe, Sign: p.Sign}
}
