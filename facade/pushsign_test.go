package facade_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/facade"
)

// TestSignedPushes: with Push.Sign, every push a facade sends carries a JWT signed with its card
// key, which a receiver verifies with PushVerifier from the key set the facade publishes: each
// delivery of a task verifies, and the same delivery replayed, its body or its delivery id
// (facade.PushIDHeader) changed, checked for another webhook, or without its signature, is refused. Sign without CardSigning is refused.
func TestSignedPushes(t *testing.T) {
	t.Parallel()
	if _, err := facade.New(pushPort(), facade.Options{BaseURL: "http://127.0.0.1:1", Push: &facade.PushOptions{Sign: true}}); err == nil ||
		!strings.Contains(err.Error(), "CardSigning") {
		t.Errorf("Sign without CardSigning: %v", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	type received struct {
		header http.Header
		body   []byte
	}
	deliveries := make(chan received, 100)
	var bodies [][]byte
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		deliveries <- received{r.Header.Clone(), body}
	}))
	t.Cleanup(hook.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	handler, err := facade.New(pushPort(), facade.Options{BaseURL: base, Authenticate: callerOf,
		CardSigning: &facade.CardSigning{Key: key}, Push: &facade.PushOptions{AllowedWebhooks: []string{hook.URL}, Sign: true}})
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	srv.Start()
	t.Cleanup(srv.Close)
	verification := facade.PushVerification{JWKSURL: base + facade.CardKeysPath, Issuer: base, Webhook: hook.URL + "/hook"}
	verifier, err := facade.NewPushVerifier(t.Context(), verification)
	if err != nil {
		t.Fatal(err)
	}
	defer verifier.Close()

	alice := pushClient(t, base, "JSONRPC", "alice")
	instruction := unique("wait signed")
	startTask(t, alice, instruction, &a2a.PushConfig{URL: hook.URL + "/hook", Token: "tok"})
	close(gate(instruction))
	var last *http.Request
	for done := false; !done; {
		select {
		case d := <-deliveries:
			r, body := httptest.NewRequest(http.MethodPost, hook.URL+"/hook", bytes.NewReader(d.body)), d.body
			r.Header = d.header
			bodies = append(bodies, body)
			if err := verifier.Verify(r, body); err != nil {
				t.Errorf("delivery %d does not verify: %v", len(bodies), err)
			}
			last, done = r, bytes.Contains(body, []byte("TASK_STATE_COMPLETED"))
		case <-time.After(10 * time.Second):
			t.Fatalf("%d deliveries and no completed task", len(bodies))
		}
	}
	body := bodies[len(bodies)-1]
	if err := verifier.Verify(last, body); !errors.Is(err, facade.ErrPushNotVerified) || !strings.Contains(err.Error(), "replay") {
		t.Errorf("a replayed push: %v", err)
	}
	changed := bytes.Replace(body, []byte("TASK_STATE_COMPLETED"), []byte("TASK_STATE_FAILED"), 1)
	if err := verifier.Verify(last, changed); !errors.Is(err, facade.ErrPushNotVerified) || !strings.Contains(err.Error(), "another body") {
		t.Errorf("a push whose body was changed: %v", err)
	}
	elsewhere := verification
	elsewhere.Webhook = hook.URL + "/other"
	other, err := facade.NewPushVerifier(t.Context(), elsewhere)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Verify(last, body); !errors.Is(err, facade.ErrPushNotVerified) {
		t.Errorf("a push checked for another webhook: %v", err)
	}
	renamed := last.Clone(t.Context())
	renamed.Header.Set(facade.PushIDHeader, "another-delivery")
	if err := verifier.Verify(renamed, body); !errors.Is(err, facade.ErrPushNotVerified) || !strings.Contains(err.Error(), "another delivery") {
		t.Errorf("a push whose %s was changed: %v", facade.PushIDHeader, err)
	}
	unsigned := last.Clone(t.Context())
	unsigned.Header.Del(facade.PushSignatureHeader)
	if err := verifier.Verify(unsigned, body); !errors.Is(err, facade.ErrPushNotVerified) {
		t.Errorf("a push without a signature: %v", err)
	}
}
