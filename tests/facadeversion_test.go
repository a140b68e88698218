package tests

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/a2aport/a2aport/facade"
)

// versionedPost posts body to endpoint with an A2A-Version header (none when version is "").
func versionedPost(t *testing.T, endpoint, version, body string) (int, string) {
	t.Helper()
	h := http.Header{}
	if version != "" {
		h.Set("A2A-Version", version)
	}
	return postJSON(t, endpoint, h, body)
}

// TestFacadeOneEndpointByVersion: the facade's card names one JSON-RPC endpoint for A2A 1.0 and
// 0.3; the A2A-Version header chooses (none: 0.3, as A2A 1.0 asks servers to assume), a version it
// does not serve is VersionNotSupportedError with the request's id, and each version's own path
// refuses another version instead of running it as its own.
func TestFacadeOneEndpointByVersion(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "one endpoint"})
	base := strings.TrimSuffix(card, facade.CardPath)
	endpoint := base + facade.EndpointPath

	resp, err := http.Get(card)
	if err != nil {
		t.Fatal(err)
	}
	var served struct {
		URL                 string `json:"url"`
		PreferredTransport  string `json:"preferredTransport"`
		SupportedInterfaces []struct {
			URL, ProtocolBinding, ProtocolVersion string
		} `json:"supportedInterfaces"`
	}
	err = json.NewDecoder(resp.Body).Decode(&served)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if served.URL != endpoint || served.PreferredTransport != "JSONRPC" {
		t.Errorf("0.3 card: url %q over %q, want %q over JSONRPC", served.URL, served.PreferredTransport, endpoint)
	}
	onEndpoint := map[string]bool{}
	for _, i := range served.SupportedInterfaces {
		if i.URL == endpoint && i.ProtocolBinding == "JSONRPC" {
			onEndpoint[i.ProtocolVersion] = true
		}
	}
	if !onEndpoint["1.0"] || !onEndpoint["0.3"] {
		t.Errorf("the card's JSON-RPC interfaces on %s: %v, want 1.0 and 0.3: %+v", endpoint, onEndpoint, served.SupportedInterfaces)
	}

	send10 := `{"jsonrpc":"2.0","id":"ten","method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"complete in 1.0"}]}}}`
	send03 := `{"jsonrpc":"2.0","id":"three","method":"message/send","params":{"message":{"kind":"message","messageId":"m2","role":"user","parts":[{"kind":"text","text":"complete in 0.3"}]}}}`
	for _, c := range []struct {
		name, path, version, body string
		status                    int
		want                      []string
	}{
		{"1.0 by header", facade.EndpointPath, "1.0", send10, 200, []string{`"id":"ten"`, "echo: complete in 1.0", "TASK_STATE_COMPLETED"}},
		{"0.3 by header", facade.EndpointPath, "0.3", send03, 200, []string{`"id":"three"`, "echo: complete in 0.3", `"completed"`}},
		{"no header is 0.3", facade.EndpointPath, "", send03, 200, []string{"echo: complete in 0.3", `"completed"`}},
		{"no header is not 1.0", facade.EndpointPath, "", send10, 200, []string{`"id":"ten"`, "-32601"}},
		{"unsupported version", facade.EndpointPath, "2.0", send10, 200, []string{`"id":"ten"`, "-32009", "VERSION_NOT_SUPPORTED", "A2A-Version 2.0 is not supported"}},
		{"not a version", facade.EndpointPath, "latest", send10, 200, []string{"-32009"}},
		{"1.0 path, 0.3 header", facade.JSONRPCPath, "0.3", send03, 200, []string{`"id":"three"`, "-32009"}},
		{"1.0 path, its own header", facade.JSONRPCPath, "1.0", send10, 200, []string{"echo: complete in 1.0"}},
		{"0.3 path, 1.0 header", facade.V03RPCPath, "1.0", send10, 200, []string{"-32009"}},
		{"1.0 REST, 0.3 header", facade.RESTPath + "/message:send", "0.3", `{"message":{"messageId":"m3","role":"ROLE_USER","parts":[{"text":"x"}]}}`, 400, []string{"FAILED_PRECONDITION", "VERSION_NOT_SUPPORTED"}},
	} {
		status, body := versionedPost(t, base+c.path, c.version, c.body)
		if status != c.status {
			t.Errorf("%s: HTTP %d, want %d: %s", c.name, status, c.status, body)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: answer lacks %s: %s", c.name, w, body)
			}
		}
	}

	// a2a-go's own client, from the card: it picks the 1.0 interface and says so in the header.
	ctx := testContext(t)
	resolved, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	client, err := a2aclient.NewFromCard(ctx, resolved)
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("complete from a2a-go"))})
	if err != nil {
		t.Fatalf("a2a-go's client: %v", err)
	}
	if task, ok := res.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("a2a-go's client: %#v", res)
	}

	// @a2a-js/sdk's client, from the card: it too picks 1.0 and sends the header.
	if _, err := os.Stat("../js/node_modules/@a2a-js/sdk"); err != nil {
		t.Fatal("@a2a-js/sdk's client needs the JS dev dependencies: run `make js/node_modules` (npm ci in js/)")
	}
	script := `const { ClientFactory } = await import('@a2a-js/sdk/client');
const { Role } = await import('@a2a-js/sdk');
const client = await new ClientFactory().createFromUrl(process.argv[1], '');
const r = await client.sendMessage({ tenant: '', message: { messageId: 'js-1', contextId: '', taskId: '', role: Role.ROLE_USER, extensions: [], referenceTaskIds: [],
  parts: [{ content: { $case: 'text', value: 'complete from the JS SDK' }, filename: '', mediaType: '' }] } });
console.log(client.protocolVersion, JSON.stringify(r));`
	cmd := exec.CommandContext(ctx, "node", "--input-type=module", "-e", script, card)
	cmd.Dir = "../js"
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "1.0 ") || !strings.Contains(string(out), "echo: complete from the JS SDK") {
		t.Errorf("@a2a-js/sdk's client: %v\n%s", err, out)
	}

}
