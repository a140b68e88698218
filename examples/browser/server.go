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

	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport/internal/a2asrvx"
)

// Server limits.
const (
	maxRequestBytes = 32 << 20 // a message with attachments of up to about 20 MB (base64 in JSON)
	tasksPerTier    = 256      // see recentStore
	shutdownGrace   = 3 * time.Second
)

// config is what the server needs to know; main fills it from flags.
type config struct {
	addr    string   // loopback host:port; port 0 picks a free one
	jsDir   string   // the a2aport JS package (its src/ is served)
	wasmDir string   // where a2aport.wasm and a2aport-1.0.wasm are
	relay   []string // origins of agents the page may reach through /relay (none: no relay)
	logger  *slog.Logger
}

// server is the demo: the page, the JS package and the demo agent on one loopback origin.
type server struct {
	url      string
	http     *http.Server
	agent    *demoAgent
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
	s.agent = newDemoAgent(s.stopping)
	s.http = &http.Server{
		Handler:           s.routes(cfg),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(cfg.logger.Handler(), slog.LevelWarn),
	}
	return s, ln, nil
}

// routes maps the page, the package and the agent's endpoints.
func (s *server) routes(cfg config) http.Handler {
	handler := a2asrvx.Patient(a2asrv.NewHandler(s.agent,
		a2asrv.WithTaskStore(newRecentStore(tasksPerTier)),
		a2asrv.WithCapabilityChecks(&demoCard().Capabilities),
		a2asrv.WithLogger(cfg.logger),
	))
	agent := func(h http.Handler) http.Handler {
		return allowCrossOrigin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, maxRequestBytes)
			h.ServeHTTP(w, r)
		}))
	}

	mux := http.NewServeMux()
	mux.Handle("/", pageHandler())
	mux.Handle("/a2aport/", packageHandler(cfg.jsDir, cfg.wasmDir))
	for p, h := range cardHandlers(s.url) {
		mux.Handle(p, allowCrossOrigin(h))
	}
	mux.Handle(jsonrpcPath, agent(a2asrv.NewJSONRPCHandler(handler)))
	mux.Handle(restPath+"/", agent(http.StripPrefix(restPath, a2asrv.NewRESTHandler(handler))))
	mux.Handle(v03RPCPath, agent(a2av0.NewJSONRPCHandler(handler)))
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
