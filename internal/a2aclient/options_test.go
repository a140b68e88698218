package a2aclient

import (
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
)

// Every number of Options is its default when 0, off when negative where it can be turned off,
// and refused out of range otherwise: the rule of the option table, in Go as in JS.
func TestNumbersZeroIsDefaultNegativeIsOff(t *testing.T) {
	const card = "https://agent.example/.well-known/agent-card.json"
	got, err := validate(a2aport.Options{AgentCardURL: card}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"PollInterval", got.PollInterval, a2aport.DefaultPollInterval},
		{"RequestTimeout", got.RequestTimeout, a2aport.DefaultRequestTimeout},
		{"RecoveryAttempts", got.RecoveryAttempts, a2aport.DefaultRecoveryAttempts},
		{"RecoveryBackoff", got.RecoveryBackoff, a2aport.DefaultRecoveryBackoff},
		{"StreamIdleTimeout", got.StreamIdleTimeout, a2aport.DefaultStreamIdleTimeout},
		{"StreamProbeInterval", got.StreamProbeInterval, a2aport.DefaultStreamProbeInterval},
		{"MaxCardBytes", got.MaxCardBytes, a2aport.DefaultMaxCardBytes},
		{"MaxWorkBytes", got.MaxWorkBytes, a2aport.DefaultMaxWorkBytes},
		{"Timeout", got.Timeout, time.Duration(0)},
	} {
		if c.got != c.want {
			t.Errorf("%s of 0 = %v, want its default %v", c.name, c.got, c.want)
		}
	}

	off, err := validate(a2aport.Options{AgentCardURL: card, RecoveryAttempts: -1, StreamIdleTimeout: -1, StreamProbeInterval: -time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if off.RecoveryAttempts != 0 || off.StreamIdleTimeout != 0 || off.StreamProbeInterval != 0 {
		t.Errorf("negative RecoveryAttempts, StreamIdleTimeout, StreamProbeInterval = %d, %v, %v; want 0 (off)",
			off.RecoveryAttempts, off.StreamIdleTimeout, off.StreamProbeInterval)
	}

	for _, bad := range []struct {
		opts a2aport.Options
		name string
	}{
		{a2aport.Options{PollInterval: 5 * time.Millisecond}, "PollInterval"},
		{a2aport.Options{PollInterval: -time.Second}, "PollInterval"},
		{a2aport.Options{Timeout: -time.Second}, "Timeout"},
		{a2aport.Options{MaxCardBytes: -1}, "MaxCardBytes"},
		{a2aport.Options{RecoveryBackoff: -1}, "RecoveryBackoff"},
	} {
		bad.opts.AgentCardURL = card
		_, err := validate(bad.opts, nil)
		if a2aport.CodeOf(err) != a2aport.CodeInvalidOptions || !strings.Contains(err.Error(), bad.name) {
			t.Errorf("validate(%s out of range) = %v, want INVALID_OPTIONS naming it", bad.name, err)
		}
	}
}
