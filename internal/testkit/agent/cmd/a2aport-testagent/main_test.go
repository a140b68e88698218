package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/agent"
)

func TestRunAnnouncesAndServesUntilLifetime(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-lifetime", "1s"}, w)
		_ = w.Close()
	}()

	line, err := bufio.NewReader(out).ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading the announcement: %v (run: %v)", err, <-done)
	}
	var a announcement
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("announcement %q: %v", line, err)
	}
	if len(a.Cards) != len(agent.Variants())+len(agent.PushVariants()) || len(a.Special) != len(agent.SpecialCards()) {
		t.Fatalf("announcement = %+v", a)
	}
	resp, err := http.Get(a.Cards["v03-rest-poll"])
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("card: %s", resp.Status)
	}

	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run = %v", err)
		}
	case <-ctx.Done():
		t.Fatal("run outlived its lifetime")
	}
}

func TestRunRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-addr", "0.0.0.0:0"},
		{"-lifetime", "0s"},
		{"extra"},
	} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}
