// Package a2acli runs a2a-go's own command-line tool (cmd/a2a) for tests and benchmarks: an A2A
// implementation a2aport was not built with, as a client (`a2a send`, a baseline) and as an agent
// (`a2a serve --echo | --exec CMD [--chunk DELIM]`).
//
//	bin := a2acli.Build(t)
//	card := a2acli.Serve(t, bin, "--exec", "sh -c 'cat'", "--chunk", "|")
package a2acli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the a2a-go release whose command-line tool is built (go.mod's).
const Version = "v2.4.0"

var built struct {
	once sync.Once
	bin  string
	err  error
}

// Build builds the tool once per process in a scratch module (it is a main package with
// dependencies of its own; `go install ...@version` is refused by this proxy) and returns its
// path. It needs the Go module proxy, or the modules in the module cache.
func Build(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "a2acli-")
		if err != nil {
			built.err = err
			return
		}
		built.bin = filepath.Join(dir, "a2a")
		for _, args := range [][]string{
			{"mod", "init", "a2aport.test/a2acli"},
			{"get", "github.com/a2aproject/a2a-go/v2/cmd/a2a@" + Version},
			{"build", "-o", built.bin, "github.com/a2aproject/a2a-go/v2/cmd/a2a"},
		} {
			cmd := exec.Command("go", args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				built.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.bin
}

// FreePort returns a loopback port nothing listens on (for an agent that takes its port as a flag).
func FreePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = ln.Close() }() // the agent takes the port over
	return ln.Addr().(*net.TCPAddr).Port
}

// Serve runs `a2a serve` with args on a free loopback port until the test ends and returns its
// card URL once the card is served.
func Serve(tb testing.TB, bin string, args ...string) string {
	tb.Helper()
	return ServeOn(tb, bin, FreePort(tb), args...)
}

// ServeOn is Serve on the given port (for a card file that names it).
func ServeOn(tb testing.TB, bin string, port int, args ...string) string {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"serve", "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--quiet"}, args...)...)
	if err := cmd.Start(); err != nil {
		cancel()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cancel()
		_ = cmd.Wait() // killed: its exit status says so
	})
	cardURL := fmt.Sprintf("http://127.0.0.1:%d/.well-known/agent-card.json", port)
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(cardURL)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return cardURL
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("a2a serve %v: no card at %s: %v", args, cardURL, err)
		}
	}
}
