package abi

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/credentials"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mailru/easyjson"

	"github.com/a2aport/a2aport"
)

// hostOnly are the options that never cross to the module: the hosts keep them.
var hostOnly = map[string]bool{"Token": true, "Headers": true, "HeaderFunc": true, "Transport": true, "Clock": true, "ContextStore": true, "WorkStore": true,
	"Credentials": true, "TokenProvider": true}

// Every other option crosses to the module and back unchanged. The options below set every such
// field, so an option added to a2aport.Options but not to Init fails here.
func TestInitCarriesEveryOption(t *testing.T) {
	opts := a2aport.Options{
		AgentCard: &a2a.AgentCard{Name: "card"}, AgentCardURL: "https://agent.example/.well-known/agent-card.json",
		AcceptedOutputModes: []string{"text/plain"}, PollInterval: 20 * time.Millisecond, PushWebhookURL: "https://me.example/push", PushPollInterval: 5 * time.Second, Timeout: time.Minute, InputTimeout: 2 * time.Minute,
		RequestTimeout: 5 * time.Second, LegacyCompat: a2aport.LegacyCompatOff, ProtocolVersion: "1.0", ProtocolBinding: "JSONRPC",
		Extensions: []string{"urn:x"}, RecoveryAttempts: 7, RecoveryBackoff: 300 * time.Millisecond,
		StreamIdleTimeout: 90 * time.Second, StreamProbeInterval: 5 * time.Second, FirstEventTimeout: 10 * time.Second, ReuseContext: true, Label: "label",
		AllowedOrigins: []string{"https://other.example"}, VerifyCard: "required", CardKeys: []byte(`{"keys":[]}`), CardKeysFromJKU: true, MaxCardBytes: 1000, MaxResponseBytes: 2000, MaxArtifactBytes: 3000, MaxWorkBytes: 4000,
	}
	v := reflect.ValueOf(opts)
	for i := range v.NumField() {
		if name := v.Type().Field(i).Name; !hostOnly[name] && v.Field(i).IsZero() {
			t.Fatalf("the test leaves option %s unset: set it, and carry it in Init", name)
		}
	}
	_, data := initOnTheWire(t, opts)
	var b Batch
	if err := easyjson.Unmarshal(data, &b); err != nil {
		t.Fatal(err)
	}
	got, err := b.Envelopes[0].Init.Options()
	if err != nil {
		t.Fatal(err)
	}
	if got.AgentCard == nil || got.AgentCard.Name != "card" {
		t.Errorf("AgentCard = %+v, want the card", got.AgentCard)
	}
	got.AgentCard, opts.AgentCard = nil, nil
	if !reflect.DeepEqual(got, opts) {
		t.Errorf("options after the wire:\n%+v\nwant\n%+v", got, opts)
	}
}

// A duration under a millisecond keeps its sign on the wire: it must not become "unset".
func TestInitKeepsSubMillisecondDurations(t *testing.T) {
	in, err := NewInit(a2aport.Options{RecoveryBackoff: time.Microsecond, StreamIdleTimeout: -time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if in.RecoveryBackoffMs != 1 || in.StreamIdleTimeoutMs != -1 {
		t.Errorf("RecoveryBackoffMs, StreamIdleTimeoutMs = %d, %d; want 1, -1", in.RecoveryBackoffMs, in.StreamIdleTimeoutMs)
	}
}

// Credentials cross as their forms only: the module learns which schemes the host can satisfy,
// never a value.
func TestInitCarriesCredentialFormsOnly(t *testing.T) {
	opts := a2aport.Options{AgentCardURL: "https://agent.example/card.json", Token: "token-value",
		Credentials: map[string]a2aport.Credential{
			"bearer": {Token: "bearer-value"}, "basic": {Username: "user-value", Password: "password-value"},
			"oauth": {ClientID: "client-value", ClientSecret: "secret-value"}, "tls": {}},
		TokenProvider: func(context.Context, string) (string, error) { return "provided-value", nil }}
	in, data := initOnTheWire(t, opts)
	if strings.Contains(string(data), "-value") {
		t.Errorf("a credential value crossed: %s", data)
	}
	want := &credentials.Held{Token: true, TokenProvider: true, Schemes: map[string]string{
		"bearer": "token", "basic": "basic", "oauth": "clientCredentials", "tls": "transport"}}
	if !reflect.DeepEqual(in.HostCredentials, want) {
		t.Errorf("HostCredentials = %+v, want %+v", in.HostCredentials, want)
	}
}

// initOnTheWire is opts as a host sends them: the Init, and the frame header carrying it.
func initOnTheWire(t *testing.T, opts a2aport.Options) (Init, []byte) {
	t.Helper()
	in, err := NewInit(opts)
	if err != nil {
		t.Fatal(err)
	}
	data, err := easyjson.Marshal(Batch{Envelopes: []Envelope{{Kind: KindCall, Init: &in}}})
	if err != nil {
		t.Fatal(err)
	}
	return in, data
}
