package gateway

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport/facade"
)

// TestPushConfig: the push block is refused with the field that is wrong, and turns into the
// facade's option with its values, durations read.
func TestPushConfig(t *testing.T) {
	t.Parallel()
	fail := func(field, msg string) error { return errors.New(field + ": " + msg) }
	for _, c := range []struct {
		p     PushConfig
		field string // "" when valid
	}{
		{PushConfig{}, ""},
		{PushConfig{AllowedWebhooks: []string{"10.0.0.0/8"}}, "push.allowedWebhooks"},
		{PushConfig{Enabled: true, AllowedWebhooks: []string{"https://hooks.internal:8443", "10.0.0.0/8"}, RetryBackoff: "250ms", Timeout: "5s"}, ""},
		{PushConfig{Enabled: true, AllowedWebhooks: []string{"https://ok.internal", "hooks.internal"}}, "push.allowedWebhooks[1]"},
		{PushConfig{Enabled: true, RetryBackoff: "soon"}, "push.retryBackoff"},
		{PushConfig{Enabled: true, Timeout: "-1s"}, "push.timeout"},
		{PushConfig{Enabled: true, MaxAttempts: -1}, "push.maxAttempts"},
	} {
		err := c.p.check(fail)
		if (err == nil) != (c.field == "") || (err != nil && !strings.HasPrefix(err.Error(), c.field+":")) {
			t.Errorf("check(%+v) = %v, want field %q", c.p, err, c.field)
		}
	}
	if (&PushConfig{}).pushOptions(nil) != nil {
		t.Error("push off, yet an option")
	}
	p := PushConfig{Enabled: true, AllowedWebhooks: []string{"10.0.0.0/8"}, MaxAttempts: 3, RetryBackoff: "250ms", Timeout: "5s", MaxQueued: 50}
	if err := p.check(fail); err != nil {
		t.Fatal(err)
	}
	var told facade.PushOutcome
	o := p.pushOptions(func(o facade.PushOutcome) { told = o })
	if o == nil || o.MaxAttempts != 3 || o.RetryBackoff != 250*time.Millisecond || o.Timeout != 5*time.Second || o.MaxQueued != 50 || len(o.AllowedWebhooks) != 1 {
		t.Fatalf("pushOptions() = %+v", o)
	}
	if o.Observe(facade.PushDelivered); told != facade.PushDelivered {
		t.Error("Observe is not the one given")
	}
}
