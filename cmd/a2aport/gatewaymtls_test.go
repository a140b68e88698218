package main

import (
	"crypto/tls"
	"crypto/x509/pkix"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/certs"
)

// TestGatewayCommandMutualTLS runs `a2aport gateway` serving HTTPS itself with auth.mtls: a
// client certificate of the configured authority names a caller whose message completes; a
// client without one is 401; the card is served to anyone.
func TestGatewayCommandMutualTLS(t *testing.T) {
	t.Parallel()
	clients, servers := certs.NewAuthority(t, "clients"), certs.NewAuthority(t, "servers")
	dir := t.TempDir()
	cert, key := certs.PEMs(t, servers.Issue(t, pkix.Name{CommonName: "gateway"}, net.IPv4(127, 0, 0, 1)))
	for name, data := range map[string][]byte{"tls.crt": cert, "tls.key": key, "clients.pem": clients.PEM} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(dir, "gateway.yaml")
	yaml := "listen: 127.0.0.1:0\ntlsCert: " + filepath.Join(dir, "tls.crt") + "\ntlsKey: " + filepath.Join(dir, "tls.key") +
		"\nauth:\n  mtls:\n    clientCA: ${file:" + filepath.Join(dir, "clients.pem") + "}\ndefault: agent\nbackends:\n  - name: agent\n    card: " +
		server.CardURL(agent.Variants()[1]) + "\n"
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	base, _ := startGateway(t, config, false)
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("the gateway is on %q, want https", base)
	}
	client := func(certs ...tls.Certificate) *http.Client {
		return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: servers.Pool(), Certificates: certs}}}
	}
	send := func(c *http.Client) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, base+"/a2a", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"complete by certificate"}]}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	robot := client(clients.Issue(t, pkix.Name{CommonName: "robot"}, nil))
	if status, body := send(robot); status != 200 || !strings.Contains(body, "TASK_STATE_COMPLETED") {
		t.Errorf("a client certificate: %d %s", status, body)
	}
	if status, _ := send(client()); status != http.StatusUnauthorized {
		t.Errorf("no certificate: %d, want 401", status)
	}
	resp, err := client().Get(base + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the card without a certificate: %d", resp.StatusCode)
	}
}
