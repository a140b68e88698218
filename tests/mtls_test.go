package tests

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// clientCertificate makes a self-signed client certificate for the test.
func clientCertificate(t *testing.T) (tls.Certificate, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "a2aport test client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, cert
}

// TestMutualTLS: a card that requires mutual TLS is met by the client certificate of the
// Transport, named with an empty credential; natively and in the module (whose host makes the
// requests with that Transport). Without the certificate the TLS handshake itself fails.
func TestMutualTLS(t *testing.T) {
	t.Parallel()
	clientCert, leaf := clientCertificate(t)
	target, _ := url.Parse(strings.TrimSuffix(server.CardURL(agent.Variants()[0]), "/.well-known/agent-card.json"))
	var base string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/agent-card.json" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"name":"mTLS agent","description":"behind a client certificate","version":"1",
				"supportedInterfaces":[{"url":"` + base + `","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
				"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[],
				"securitySchemes":{"mtls":{"mtlsSecurityScheme":{"description":"client certificate"}}},
				"securityRequirements":[{"schemes":{"mtls":[]}}]}`))
			return
		}
		r.URL.Path = target.Path
		httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host}).ServeHTTP(w, r)
	}))
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	base = srv.URL
	withCert := srv.Client().Transport.(*http.Transport).Clone()
	withCert.TLSClientConfig.Certificates = []tls.Certificate{clientCert}
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + "/.well-known/agent-card.json", Transport: withCert,
				Credentials: map[string]a2aport.Credential{"mtls": {}}})
			out, err := p.Submit(testContext(t), newWork("alice", "complete over mutual TLS"))
			if err != nil || !strings.Contains(out.Content, "echo: complete over mutual TLS") {
				t.Fatalf("Submit() = %+v, %v", out, err)
			}
			if sec := p.Describe().Security; sec == nil || !slices.Equal(sec.InUse, []string{"mtls"}) {
				t.Errorf("Describe().Security = %+v", sec)
			}
			bare := newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + "/.well-known/agent-card.json", Transport: srv.Client().Transport})
			if _, err := bare.Start(testContext(t)); !errors.Is(err, a2aport.ErrNetworkError) && !errors.Is(err, a2aport.ErrDiscoveryFailed) {
				t.Errorf("without the certificate: Start() = %v, want the handshake to fail", err)
			}
		})
	}
}
