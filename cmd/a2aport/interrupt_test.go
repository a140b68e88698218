package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// cancelHolder is the test agent behind a proxy that never answers a CancelTask: an agent that
// stalls on the cancel the first Ctrl-C sends. It returns the card URL through the proxy and how
// many cancels it holds.
func cancelHolder(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	upstream, err := url.Parse(server.URL())
	if err != nil {
		t.Fatal(err)
	}
	forward := httputil.NewSingleHostReverseProxy(upstream)
	var held atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		switch {
		case strings.HasSuffix(r.URL.Path, "agent-card.json"): // the card, pointing at the proxy
			resp, err := http.Get(server.URL() + r.URL.Path)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			card, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(bytes.ReplaceAll(card, []byte(server.URL()), []byte("http://"+r.Host)))
		case bytes.Contains(body, []byte(`"CancelTask"`)):
			held.Add(1)
			<-r.Context().Done() // until the client gives up
		default:
			forward.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(proxy.Close)
	return strings.Replace(server.CardURL(stream), server.URL(), proxy.URL, 1), &held
}

// TestSecondInterruptQuits: the first Ctrl-C asks the agent to cancel and waits for its answer
// (up to 10 s); an agent that does not answer is no reason to stay: a second Ctrl-C exits at once,
// with 130.
func TestSecondInterruptQuits(t *testing.T) {
	t.Parallel()
	card, held := cancelHolder(t)
	r := startPTY(t, "send", card, "hold for a second interrupt")
	r.waitFor(t, "task ")
	if _, err := r.tty.Write([]byte{0x03}); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "again to quit at once")
	for deadline := time.Now().Add(10 * time.Second); held.Load() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the first Ctrl-C sent no cancel")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := r.tty.Write([]byte{0x03}); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-r.done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d", code, exitInterrupted)
		}
	case <-time.After(5 * time.Second): // the held cancel would keep it 10 s
		t.Fatal("the second Ctrl-C did not quit")
	}
}

// TestInterruptAtEveryStage: Ctrl-C on a terminal ends the command with 130 wherever the Work is:
// while the card is being read (an agent that never answers it), while the message is on its way
// (its answer held back, no task named yet), while the task works, and while its text streams in;
// where the agent has a task, the cancel reaches it. (At the prompt and during the cancel itself:
// TestInterruptAtThePrompt, TestSecondInterruptQuits.)
func TestInterruptAtEveryStage(t *testing.T) {
	t.Parallel()
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(silent.Close)
	live := gatedAgent(t)
	for _, stage := range []struct {
		name, card, instruction, shown string
		cancelled                      bool // at the test agent
	}{
		{"reading the card", silent.URL, "complete", "starting", false},
		{"the message on its way", server.CardURL(stream), "holdsend 20000 interrupted", "submitted", false},
		{"working", server.CardURL(stream), "hold interrupted while working", "holding", true},
		{"text streaming in", live, filepath.Join(t.TempDir(), "never"), "first ", false},
	} {
		t.Run(stage.name, func(t *testing.T) {
			t.Parallel()
			r := startPTY(t, "send", stage.card, stage.instruction)
			r.waitFor(t, stage.shown)
			if _, err := r.tty.Write([]byte{0x03}); err != nil {
				t.Fatal(err)
			}
			if code := r.exit(t); code != exitInterrupted {
				t.Errorf("exit %d, want %d", code, exitInterrupted)
			}
			if stage.cancelled && !cancelledAtAgent(stage.instruction) {
				t.Error("the cancel did not reach the agent")
			}
		})
	}
}
