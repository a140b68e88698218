package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
	"github.com/a2aport/a2aport/gateway"
)

const gatewayUsage = `a2aport gateway --config gateway.yaml [flags]

Serves the backends of the configuration file behind one A2A endpoint (POST /a2a), with its card,
GET /backends, /healthz and /readyz. docs/gateway.md describes the file;
examples/gateway/gateway.yaml is a complete one. Flags and environment variables override the file:

  --listen ADDR        A2APORT_LISTEN        the address to listen on
  --public-url URL     A2APORT_PUBLIC_URL    the URL callers reach it at (behind a TLS proxy)
  --postgres DSN       A2APORT_POSTGRES      run as one node of a cluster on this database
  --log-level LEVEL    A2APORT_LOG_LEVEL     debug, info, warn or error
  --grace DURATION                           how long SIGTERM waits for open requests (default 30s)
  --lease DURATION                           with --postgres: how long after a node's last heartbeat
                                             another takes its tasks over (default 10s)

On SIGTERM or SIGINT it stops accepting, lets open requests finish within --grace, and then cancels
what still runs (with --postgres: leaves it running for another node to take over).
`

// runGateway runs the gateway of a configuration file until ctx ends.
func runGateway(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("a2aport gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, gatewayUsage) }
	config := fs.String("config", "", "the configuration `file`")
	listen := fs.String("listen", os.Getenv("A2APORT_LISTEN"), "")
	publicURL := fs.String("public-url", os.Getenv("A2APORT_PUBLIC_URL"), "")
	dsn := fs.String("postgres", os.Getenv("A2APORT_POSTGRES"), "")
	level := fs.String("log-level", os.Getenv("A2APORT_LOG_LEVEL"), "")
	grace := fs.Duration("grace", 30*time.Second, "")
	lease := fs.Duration("lease", pgcluster.DefaultLease, "")
	if pos, err := parseFlagsAnywhere(fs, args); err != nil || len(pos) > 0 || *config == "" {
		if err == nil {
			fmt.Fprint(stderr, gatewayUsage)
		}
		return exitUsage
	}
	cfg, err := gateway.ReadConfig(*config)
	if err != nil {
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitUsage
	}
	override(&cfg.Listen, *listen)
	override(&cfg.PublicURL, *publicURL)
	override(&cfg.Postgres, *dsn)
	override(&cfg.LogLevel, *level)
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: logLevel(cfg.LogLevel)}))

	var works adapter.WorkStore
	var cluster *pgcluster.Cluster
	var ready func(context.Context) error
	if cfg.Postgres != "" {
		pool, err := pgxpool.New(ctx, cfg.Postgres)
		if err != nil {
			fmt.Fprintln(stderr, "a2aport gateway: postgres:", err)
			return exitUsage
		}
		defer pool.Close()
		host, _ := os.Hostname()
		if cluster, err = pgcluster.New(ctx, pool, fmt.Sprintf("%s-%d", host, os.Getpid()), *lease); err != nil {
			fmt.Fprintln(stderr, "a2aport gateway: postgres:", err)
			return exitError
		}
		defer cluster.Close()
		works, ready = pgcluster.NewWorkStore(pool), pool.Ping
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitError
	}
	if cfg.PublicURL == "" {
		scheme := "http"
		if cfg.TLSCert != "" {
			scheme = "https"
		}
		cfg.PublicURL = scheme + "://" + ln.Addr().String()
	}
	opts, err := cfg.Options(works)
	if err != nil {
		_ = ln.Close()
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitUsage
	}
	opts.Facade.Logger, opts.AccessLog, opts.Ready = logger, logger, ready
	if cluster != nil {
		c := cluster.Config()
		opts.Facade.Cluster = &c
	}
	g, err := gateway.New(opts)
	if err != nil {
		_ = ln.Close()
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitUsage
	}
	g.Start(ctx)
	for _, b := range g.Backends() {
		logger.Info("backend", "name", b.Name, "state", b.State, "reason", b.Reason, "protocolVersion", b.ProtocolVersion, "binding", b.Binding)
	}
	srv := facade.NewServer(g)
	fmt.Fprintf(stdout, "gateway on %s\ncard: %s%s\n", cfg.PublicURL, cfg.PublicURL, facade.CardPath)
	errs := make(chan error, 1)
	go func() {
		if cfg.TLSCert != "" {
			errs <- srv.ServeTLS(ln, cfg.TLSCert, cfg.TLSKey)
			return
		}
		errs <- srv.Serve(ln)
	}()
	select {
	case err := <-errs:
		_ = g.Close()
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitError
	case <-ctx.Done():
	}
	logger.Info("stopping", "grace", grace.String())
	shutdown, cancel := context.WithTimeout(context.Background(), *grace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("shutdown", "error", err.Error())
	}
	if cluster != nil {
		_ = g.Detach() // another node resumes what still runs
	} else {
		_ = g.Close()
	}
	_ = srv.Close() // streams still open after the grace
	if err := <-errs; err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Warn("serve", "error", err.Error())
	}
	return exitOK
}

// override sets *field to value when value is given.
func override(field *string, value string) {
	if value != "" {
		*field = value
	}
}

func logLevel(name string) slog.Level {
	switch name {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}
