package tests

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
)

// signedCorpus are the cards of internal/a2aclient/testdata/cards signed by @a2a-js/sdk 1.3.0's own signing
// code (js/test/cards/generate.mjs), with the key that signed each.
var signedCorpus = map[string]string{
	"signed-a2a-js-1.3.0-served-es256.json": "es-key",
	"signed-a2a-js-1.3.0-tojson-rs256.json": "rs-key",
	"signed-a2a-js-1.3.0-tojson-two.json":   "ed-key",
	"signed-a2a-js-1.3.0-tojson-jku.json":   "es-key",
}

func readCorpus(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "internal", "a2aclient", "testdata", "cards", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// serveCards serves files by path, as given.
func serveCards(t *testing.T, files map[string][]byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body) // a test server: a failed write shows as the test's failure
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestSignedCards: cards signed by the SDK verify with the trusted keys (natively and in the
// module); a card changed in one character, an unsigned card when a signature is required, and an
// unknown key fail discovery with A2A_CARD_SIGNATURE_INVALID; "if-signed" lets an unsigned card
// through and says so.
func TestSignedCards(t *testing.T) {
	t.Parallel()
	keys := readCorpus(t, "signing-keys.jwks.json")
	files := map[string][]byte{"/unsigned.json": readCorpus(t, "a2a-go-v2.4.0.json")}
	for name := range signedCorpus {
		raw := readCorpus(t, name)
		files["/"+name] = raw
		files["/tampered-"+name] = []byte(strings.Replace(string(raw), `"tenant": "acme"`, `"tenant": "acmf"`, 1))
	}
	// The a2a-go card of the corpus carries a made-up signature; without it, it is unsigned.
	files["/unsigned.json"] = []byte(strings.Replace(string(files["/unsigned.json"]), `"signatures"`, `"x-signatures"`, 1))
	base := serveCards(t, files)
	opts := func(path string, mode a2aport.CardVerification) a2aport.Options {
		return a2aport.Options{AgentCardURL: base + path, VerifyCard: mode, CardKeys: keys, AllowedOrigins: []string{"*"}}
	}
	for _, impl := range implementations {
		for name, kid := range signedCorpus {
			t.Run(impl.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				p := newPort(t, impl, opts("/"+name, a2aport.VerifyCardRequired))
				if _, err := p.Start(testContext(t)); err != nil {
					t.Fatal(err)
				}
				sig := p.Describe().CardSignature
				if sig == nil || sig.Status != "verified" || sig.KeyID != kid {
					t.Errorf("Describe().CardSignature = %+v, want verified by %s", sig, kid)
				}
				q := newPort(t, impl, opts("/tampered-"+name, a2aport.VerifyCardIfSigned))
				if _, err := q.Start(testContext(t)); !errors.Is(err, a2aport.ErrCardSignatureInvalid) {
					t.Errorf("a tampered card: Start() = %v, want A2A_CARD_SIGNATURE_INVALID", err)
				}
			})
		}
		t.Run(impl.name+"/unsigned", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, opts("/unsigned.json", a2aport.VerifyCardRequired))
			if _, err := p.Start(testContext(t)); !errors.Is(err, a2aport.ErrCardSignatureInvalid) || !strings.Contains(err.Error(), "not signed") {
				t.Errorf("Start() = %v, want A2A_CARD_SIGNATURE_INVALID (not signed)", err)
			}
			q := newPort(t, impl, opts("/unsigned.json", a2aport.VerifyCardIfSigned))
			if _, err := q.Start(testContext(t)); err != nil {
				t.Fatal(err)
			}
			if sig := q.Describe().CardSignature; sig == nil || sig.Status != "unsigned" {
				t.Errorf("Describe().CardSignature = %+v, want unsigned", sig)
			}
		})
		t.Run(impl.name+"/unknown key", func(t *testing.T) {
			t.Parallel()
			o := opts("/signed-a2a-js-1.3.0-tojson-rs256.json", a2aport.VerifyCardRequired)
			o.CardKeys = []byte(strings.Replace(string(keys), `"rs-key"`, `"other-key"`, 1))
			p := newPort(t, impl, o)
			if _, err := p.Start(testContext(t)); !errors.Is(err, a2aport.ErrCardSignatureInvalid) || !strings.Contains(err.Error(), `no trusted key "rs-key"`) {
				t.Errorf("Start() = %v", err)
			}
		})
		t.Run(impl.name+"/bad options", func(t *testing.T) {
			t.Parallel()
			for _, o := range []a2aport.Options{
				{AgentCardURL: base + "/x.json", VerifyCard: "always"},
				{AgentCardURL: base + "/x.json", VerifyCard: a2aport.VerifyCardRequired},
				{AgentCardURL: base + "/x.json", VerifyCard: a2aport.VerifyCardRequired, CardKeys: []byte("not json")},
			} {
				if _, err := impl.new(o); !errors.Is(err, a2aport.ErrInvalidOptions) {
					t.Errorf("New(%+v) = %v, want INVALID_OPTIONS", o, err)
				}
			}
		})
	}
}
