// Command a2aport-replay serves the replay agent of package internal/testkit/replay on 127.0.0.1, for the
// benchmarks written in JS.
//
// Usage:
//
//	a2aport-replay [-lifetime 10m]
//
// Once listening it prints one JSON line to stdout:
//
//	{"cardUrl":"http://127.0.0.1:PORT/{n}/.well-known/agent-card.json",
//	 "cardUrl03":"http://127.0.0.1:PORT/v03/{n}/.well-known/agent-card.json","chunkBytes":300}
//
// where {n} is the number of chunks of the answer; cardUrl03 is the same answer from an A2A 0.3
// agent. The text of chunk i is what replay.ChunkText
// says; GET /{n}/text returns the whole merged text, for checking. It serves until SIGINT or
// SIGTERM, or until the lifetime has passed.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/replay"
)

func main() {
	lifetime := flag.Duration("lifetime", 10*time.Minute, "stop after this long")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *lifetime)
	defer cancel()
	agent, err := replay.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "a2aport-replay:", err)
		os.Exit(2)
	}
	card := strings.Replace(agent.CardURL(1), "/1/", "/{n}/", 1)
	card03 := strings.Replace(agent.CardURL03(1), "/1/", "/{n}/", 1)
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"cardUrl": card, "cardUrl03": card03, "chunkBytes": replay.ChunkBytes}); err != nil {
		os.Exit(2)
	}
	<-ctx.Done()
	if err := agent.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "a2aport-replay:", err)
	}
}
