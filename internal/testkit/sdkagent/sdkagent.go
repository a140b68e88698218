// Package sdkagent runs js/test/sdkagent.mjs, an A2A agent built on @a2a-js/sdk 1.3.0 (an
// implementation a2aport did not write), as a process for Go tests: every variant of 1.0 and 0.3,
// JSON-RPC and HTTP+JSON, streaming and polling, secured ones too. It needs node and the JS
// package's dev dependencies (make test installs them before the Go tests).
//
//	peer := sdkagent.Start(t)
//	card := peer.Cards["v1-jsonrpc-stream"]
package sdkagent

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Agent is the running agent, as it announced itself.
type Agent struct {
	URL   string            `json:"url"`
	Cards map[string]string `json:"cards"` // variant → card URL
	// Credentials are by variant, in the JS package's form: scheme → a token string, or
	// {"clientId", "clientSecret"}.
	Credentials map[string]map[string]json.RawMessage `json:"credentials"`
	// CardKeys is the JWK Set of the signed variant's key (also at /jwks.json, its jku).
	CardKeys json.RawMessage `json:"cardKeys"`
}

// Start runs the agent until the test ends.
func Start(t testing.TB) *Agent {
	t.Helper()
	js, err := jsDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(js, "node_modules", "@a2a-js", "sdk")); err != nil {
		t.Fatal("the @a2a-js/sdk agent needs the JS dev dependencies: run `make js/node_modules` (npm ci in js/)")
	}
	cmd := exec.Command("node", filepath.Join(js, "test", "sdkagent.mjs"))
	stdin, err := cmd.StdinPipe() // the agent stops when it closes
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the @a2a-js/sdk agent did not announce itself: %v", err)
	}
	var a Agent
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatalf("announcement %q: %v", line, err)
	}
	return &a
}

// jsDir is the repository's js/ folder, found from the working directory up to go.mod.
func jsDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "js"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
