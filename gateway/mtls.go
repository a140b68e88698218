package gateway

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
)

// MTLSConfig takes callers by the client certificate they present (auth.mtls), signed by one of
// the authorities of ClientCA. Only where the gateway itself ends TLS (tlsCert, tlsKey): behind a
// proxy that ends it, the certificate never reaches the gateway. A certificate is asked for but not
// required, so the card stays public and callers with tokens need none; one that does not verify
// ends the connection.
type MTLSConfig struct {
	// ClientCA is the PEM of the authorities whose certificates name callers
	// ("${file:/etc/a2aport/clients-ca.pem}").
	ClientCA string `yaml:"clientCA"`
	pool     *x509.CertPool
}

func (m *MTLSConfig) enabled() bool { return m.ClientCA != "" }

func (m *MTLSConfig) check(served bool, fail func(field, msg string) error) error {
	if !m.enabled() {
		return nil
	}
	if !served {
		return fail("auth.mtls", "needs tlsCert and tlsKey: the gateway sees a client certificate only where it ends TLS itself")
	}
	m.pool = x509.NewCertPool()
	if !m.pool.AppendCertsFromPEM([]byte(m.ClientCA)) {
		return fail("auth.mtls.clientCA", "holds no PEM certificate")
	}
	return nil
}

// ServerTLS is the TLS configuration the gateway's listener needs beyond its certificate: nil,
// or with auth.mtls, the client authorities and a certificate asked for (not required).
func (c *Config) ServerTLS() *tls.Config {
	if !c.Auth.MTLS.enabled() {
		return nil
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, ClientCAs: c.Auth.MTLS.pool, ClientAuth: tls.VerifyClientCertIfGiven}
}

// certificateCaller is the identity of a request's verified client certificate: "mtls:" and its
// subject (RFC 2253), with the claims "cn" (its common name) and "ou" (its organisational units)
// for access rules; ok is false without one.
func certificateCaller(r *http.Request) (Identity, bool) {
	if r.TLS == nil || len(r.TLS.VerifiedChains) == 0 || len(r.TLS.VerifiedChains[0]) == 0 {
		return Identity{}, false
	}
	leaf := r.TLS.VerifiedChains[0][0]
	ou := make([]any, len(leaf.Subject.OrganizationalUnit))
	for i, u := range leaf.Subject.OrganizationalUnit {
		ou[i] = u
	}
	return Identity{Caller: "mtls:" + leaf.Subject.String(), Claims: map[string]any{"cn": leaf.Subject.CommonName, "ou": ou}}, true
}
