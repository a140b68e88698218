package gateway

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
)

func pkcs8PEM(t *testing.T, key any) string {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// The signing block is checked field by field, its messages naming the field and never holding
// the key; a valid one becomes the facade's CardSigning, and the card served is signed.
func TestSigningConfig(t *testing.T) {
	t.Parallel()
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	good, bad := pkcs8PEM(t, p256), strings.Replace(pkcs8PEM(t, p256), "MI", "XX", 1)
	fail := func(field, msg string) error { return errors.New(field + ": " + msg) }
	for _, tc := range []struct {
		s    SigningConfig
		want string
	}{
		{SigningConfig{}, ""},
		{SigningConfig{Key: good}, ""},
		{SigningConfig{Key: good, KeyID: "gateway-2026", Algorithm: "ES256", JKU: "https://keys.example/card.json"}, ""},
		{SigningConfig{KeyID: "k"}, "signing.key: keyId, algorithm and jku need a key"},
		{SigningConfig{Key: "not a key"}, "signing.key: no PEM private key"},
		{SigningConfig{Key: bad}, "signing.key: the PRIVATE KEY block is not a key"},
		{SigningConfig{Key: good, Algorithm: "RS256"}, "signing.algorithm: RS256 cannot sign with an EC P-256 key"},
		{SigningConfig{Key: good, Algorithm: "HS256"}, "signing.algorithm: algorithm \"HS256\""},
		{SigningConfig{Key: pkcs8PEM(t, weak)}, "signing.key: the RSA key has 1024 bits"},
		{SigningConfig{Key: good, JKU: "keys.json"}, "signing.jku: must be an absolute http(s) URL"},
	} {
		err := tc.s.check(fail)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("check(%+.60v) = %v; want %q", tc.s, err, tc.want)
		}
		if err != nil && len(tc.s.Key) > 50 && strings.Contains(err.Error(), tc.s.Key[30:50]) {
			t.Errorf("the message holds the key: %v", err)
		}
	}

	s := SigningConfig{Key: good, KeyID: "gateway-2026"}
	signing, err := s.cardSigning()
	if err != nil || signing == nil || signing.KeyID != "gateway-2026" {
		t.Fatalf("cardSigning() = %+v, %v", signing, err)
	}
	port := funcport.New(nil, funcport.Options{})
	t.Cleanup(func() { _ = port.Close() })
	h, err := facade.New(port, facade.Options{BaseURL: "https://agents.example", CardSigning: signing})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + facade.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !strings.Contains(string(body), `"signatures"`) {
		t.Errorf("the card is not signed: %s", body)
	}
	if none, err := (&SigningConfig{}).cardSigning(); none != nil || err != nil {
		t.Errorf("no key: cardSigning() = %+v, %v", none, err)
	}
}
