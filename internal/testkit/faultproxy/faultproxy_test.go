package faultproxy

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestFaults(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("x", 100_000)
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, body) }))
	t.Cleanup(agent.Close)
	p := Start(t, strings.TrimPrefix(agent.URL, "http://"))
	get := func() (int, error) {
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 2 * time.Second}
		resp, err := c.Get("http://" + p.Addr() + "/")
		if err != nil {
			return 0, err
		}
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(resp.Body)
		return len(b), err
	}

	if n, err := get(); err != nil || n != len(body) {
		t.Fatalf("pass-through: %d bytes, %v", n, err)
	}
	p.Plan(func(int) Fault { return Fault{Reset: true} })
	if _, err := get(); err == nil {
		t.Error("reset: the request succeeded")
	}
	p.Plan(func(int) Fault { return Fault{CutAfter: 5000} })
	if n, err := get(); err == nil || n >= len(body) {
		t.Errorf("cut: %d bytes, %v; want a short read and an error", n, err)
	}
	p.Plan(func(int) Fault { return Fault{Stall: true, StallAfter: 1000} })
	start := time.Now()
	if _, err := get(); err == nil || time.Since(start) < time.Second {
		t.Errorf("stall: %v after %v; want the client's timeout", err, time.Since(start))
	}
	p.Plan(nil)
	p.Down()
	_, err := net.Dial("tcp", p.Addr())
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("down: dial = %v, want refused", err)
	}
	if err := p.Up(); err != nil {
		t.Fatal(err)
	}
	if n, err := get(); err != nil || n != len(body) {
		t.Errorf("up again: %d bytes, %v", n, err)
	}
	if p.Connections() < 5 {
		t.Errorf("Connections() = %d, want every request counted", p.Connections())
	}
}
