package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/a2aport/a2aport/internal/demoagent"
)

// shutdownGrace bounds how long connections may take to finish once the server stops.
const shutdownGrace = 3 * time.Second

// config is what the server needs to know; main fills it from flags.
type config struct {
	addr    string   // loopback host:port; port 0 picks a free one
	jsDir   string   // the a2aport JS package (its src/ is served)
	wasmDir string   // where a2aport.wasm is
	relay   []string // origins of agents the page may reach through /relay (none: no relay)
	logger  *slog.Logger
	// pace and longPace are the demo agent's pauses between chunks (0: its defaults).
	pace, longPace time.Duration
}

// server is the demo: the page, the JS package and the demo agent on one loopback origin.
type server struct {
	url      string
	http     *http.Server
	stopping chan struct{}
	stopOnce sync.Once
}

// listen binds cfg.addr, which must be a loopback address, and prepares the server.
func listen(cfg config) (*server, net.Listener, error) {
	host, port, err := net.SplitHostPort(cfg.addr)
	if err != nil {
		return nil, nil, fmt.Errorf("-addr %q: %w", cfg.addr, err)
	}
	if host == "localhost" { // one address, so that the page and the cards agree on the origin
		host = "127.0.0.1"
		cfg.addr = net.JoinHostPort(host, port)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, nil, fmt.Errorf("-addr %q: the demo serves loopback only, e.g. 127.0.0.1:8080", cfg.addr)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, nil, err
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	s := &server{url: "http://" + ln.Addr().String(), stopping: make(chan struct{})}
	s.http = &http.Server{
		Handler:           s.routes(cfg),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(cfg.logger.Handler(), slog.LevelWarn),
	}
	return s, ln, nil
}

// routes maps the page, the package and the agent's endpoints.
func (s *server) routes(cfg config) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", pageHandler())
	mux.Handle("/a2aport/", packageHandler(cfg.jsDir, cfg.wasmDir))
	agent := demoagent.Handler(s.url, demoagent.Options{Pace: cfg.pace, LongPace: cfg.longPace, Stopping: s.stopping, Logger: cfg.logger})
	for _, p := range demoagent.Paths {
		mux.Handle(p, agent)
	}
	if len(cfg.relay) > 0 {
		rl, err := newRelay(cfg.relay)
		if err != nil {
			panic(err) // checked by run before the server starts
		}
		mux.Handle(relayPath, rl)
	}
	return mux
}

// serve runs until ctx ends, then stops: running tasks fail ("shutting down") so that their
// streams end, and connections get shutdownGrace to finish.
func (s *server) serve(ctx context.Context, ln net.Listener) error {
	errs := make(chan error, 1)
	go func() { errs <- s.http.Serve(ln) }()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
	}
	s.stop()
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := s.http.Shutdown(shutdown); err != nil {
		return s.http.Close()
	}
	return nil
}

func (s *server) stop() { s.stopOnce.Do(func() { close(s.stopping) }) }
