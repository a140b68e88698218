package tests

import (
	"crypto/tls"
	"crypto/x509/pkix"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/certs"
)

// TestGatewayMutualTLSCallers: with auth.mtls a client certificate of the configured authority
// names its caller ("mtls:" and its subject), whose organisational unit access rules can ask for;
// a caller without a certificate or token is 401, the card stays public, a certificate of
// another authority ends the connection, a token still names its own caller, and the card
// declares the mutualTLS scheme.
func TestGatewayMutualTLSCallers(t *testing.T) {
	t.Parallel()
	ca, stranger := certs.NewAuthority(t, "clients"), certs.NewAuthority(t, "strangers")
	serverCA := certs.NewAuthority(t, "servers")
	dir := t.TempDir()
	for name, data := range map[string][]byte{"ca.pem": ca.PEM, "cert.pem": []byte("unused"), "key.pem": []byte("unused")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "https://" + ln.Addr().String()
	path := filepath.Join(dir, "gateway.yaml")
	config := `
publicURL: ` + base + `
tlsCert: ` + filepath.Join(dir, "cert.pem") + `
tlsKey: ` + filepath.Join(dir, "key.pem") + `
default: agent
auth:
  bearerTokens: [{name: ops, token: ops-token}]
  mtls:
    clientCA: ${file:` + filepath.Join(dir, "ca.pem") + `}
access:
  - claims: {ou: [robots]}
    operations: [send, get, list]
  - callers: [ops]
backends:
  - name: agent
    card: ` + server.CardURL(agent.Variants()[1]) + `
`
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	c, g := startedGateway(t, path)
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: g}}
	srv.TLS = c.ServerTLS()
	srv.TLS.Certificates = []tls.Certificate{serverCA.Issue(t, pkix.Name{CommonName: "gateway"}, net.IPv4(127, 0, 0, 1))}
	srv.StartTLS()
	t.Cleanup(func() {
		srv.Close()
		_ = g.Close()
	})

	roots := serverCA.Pool()
	client := func(certs ...tls.Certificate) *http.Client {
		return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: certs}}, Timeout: 10 * time.Second}
	}
	robot := client(ca.Issue(t, pkix.Name{CommonName: "robot-7", OrganizationalUnit: []string{"robots"}}, nil))
	intern := client(ca.Issue(t, pkix.Name{CommonName: "intern", OrganizationalUnit: []string{"people"}}, nil))
	send := func(c *http.Client, token, method, params string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+facade.EndpointPath, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		return resp.StatusCode, readAll(resp)
	}
	message := `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"complete by certificate"}]}}`
	if status, body := send(robot, "", "SendMessage", message); status != 200 || !completed(body) {
		t.Fatalf("the robot's certificate: %d %s", status, body)
	}
	if _, body := send(robot, "", "ListTasks", `{}`); strings.Count(body, `"id":"`) < 1 || strings.Contains(body, "error") {
		t.Errorf("the robot lists its task: %s", body)
	}
	if _, body := send(robot, "", "CancelTask", `{"id":"x"}`); !strings.Contains(body, "-31403") || !strings.Contains(body, `mtls:CN=robot-7,OU=robots`) {
		t.Errorf("the robot cancels, which its rule does not allow: %s", body)
	}
	if _, body := send(intern, "", "SendMessage", message); !strings.Contains(body, "-31403") {
		t.Errorf("a certificate no rule allows: %s", body)
	}
	if status, _ := send(client(), "", "SendMessage", message); status != http.StatusUnauthorized {
		t.Errorf("no certificate, no token: %d, want 401", status)
	}
	if status, body := send(client(), "ops-token", "ListTasks", `{}`); status != 200 || strings.Contains(body, "complete by certificate") {
		t.Errorf("a token's caller lists: %d %s, want its own (no) tasks", status, body)
	}
	// A certificate of another authority: a client that offers it anyway (Go's offers only one
	// the server's authorities signed) has its connection ended; one that does not is anonymous.
	forged := stranger.Issue(t, pkix.Name{CommonName: "robot-7", OrganizationalUnit: []string{"robots"}}, nil)
	pushy := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots,
		GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &forged, nil }}}, Timeout: 10 * time.Second}
	if status, body := send(pushy, "", "SendMessage", message); status != 0 {
		t.Errorf("a certificate of another authority, offered: %d %s, want the connection ended", status, body)
	}
	if status, _ := send(client(forged), "", "SendMessage", message); status != http.StatusUnauthorized {
		t.Errorf("a certificate of another authority, not offered: %d, want 401", status)
	}
	resp, err := client().Get(base + facade.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	if card := readAll(resp); resp.StatusCode != 200 || !strings.Contains(card, "mtls") {
		t.Errorf("the card without a certificate: %d, declares mutual TLS: %v", resp.StatusCode, strings.Contains(card, "mtls"))
	}
}
