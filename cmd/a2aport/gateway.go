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
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
	"github.com/a2aport/a2aport/gateway"
)

var gatewayCommand = &subcommand{
	name: "gateway", args: "--config FILE | --upstream CARD_URL", summary: "serve many agents behind one A2A endpoint",
	about: `Serves the backends of the configuration file behind one A2A endpoint (POST /a2a), with its card,
GET /backends, /healthz and /readyz. docs/gateway.md describes the file; gateway/gateway.yaml
is a complete one. With --upstream instead, it serves the one agent of that card: a protocol
bridge, where A2A 1.0 and 0.3 callers alike reach an agent of either version. Flags, then
environment variables, override the file. On SIGTERM or SIGINT it drains: /readyz answers 503 and new tasks are refused (503), while
open requests and streams finish within --grace; then it cancels what still runs (with
--postgres: leaves it running for another node to take over).`,
	examples: `$ a2aport gateway --config gateway.yaml
$ A2APORT_POSTGRES=postgres://gw@db/gw a2aport gateway --config gateway.yaml --listen :8443
$ a2aport gateway --upstream https://agent.example/ --allow-origin https://app.example`,
	groups: []flagGroup{
		{"Gateway", []string{"config", "upstream", "allow-origin", "listen", "admin-listen", "public-url", "log-level", "grace", "lifetime"}},
		{"Cluster", []string{"postgres", "lease"}},
	},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(gatewayFlags).register(fs) },
	run: interruptible(func(ctx context.Context, args []string, s streams) int {
		return runGateway(ctx, args, s.stdout, s.stderr)
	}),
}

// gatewayFlags are gateway's flags. Those an environment variable sets too default to nothing
// here, so that help never shows a value of the environment (a DSN holds a password).
type gatewayFlags struct {
	config, upstream, allowOrigin, listen, adminListen, publicURL, dsn, level string
	grace, lease, lifetime                                                    time.Duration
}

func (f *gatewayFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "the configuration `file`")
	fs.StringVar(&f.upstream, "upstream", "", "instead of --config: serve the one agent whose card is at this `URL`")
	fs.StringVar(&f.allowOrigin, "allow-origin", "", "with --upstream: comma-separated `origins` whose pages may call the gateway")
	fs.DurationVar(&f.lifetime, "lifetime", 0, "stop (as on SIGTERM) after this `duration` (0: never)")
	fs.StringVar(&f.listen, "listen", "", "the `address` to listen on (or $A2APORT_LISTEN)")
	fs.StringVar(&f.adminListen, "admin-listen", "", "serve /healthz, /readyz, /backends and /metrics on this `address` only (or $A2APORT_ADMIN_LISTEN)")
	fs.StringVar(&f.publicURL, "public-url", "", "the `URL` callers reach it at, behind a TLS proxy (or $A2APORT_PUBLIC_URL)")
	fs.StringVar(&f.dsn, "postgres", "", "run as one node of a cluster on this PostgreSQL `DSN` (or $A2APORT_POSTGRES)")
	fs.StringVar(&f.level, "log-level", "", "debug, info, warn or error (or $A2APORT_LOG_LEVEL)")
	fs.DurationVar(&f.grace, "grace", 30*time.Second, "how long SIGTERM waits for open requests")
	fs.DurationVar(&f.lease, "lease", pgcluster.DefaultLease, "with --postgres: how long after a node's last heartbeat another takes its tasks over")
}

// runGateway runs the gateway of a configuration file, or of one upstream, until ctx ends.
func runGateway(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f gatewayFlags
	pos, err := parseArgs("gateway", args, streams{stdout: stdout, stderr: stderr}, f.register)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || (f.config == "") == (f.upstream == "") || (f.allowOrigin != "" && f.upstream == "") {
		usageError(stderr, "gateway", "want --config FILE or --upstream CARD_URL (with --allow-origin), and no arguments")
		return exitUsage
	}
	if f.lifetime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.lifetime)
		defer cancel()
	}
	cfg, err := gatewayConfig(f)
	if err != nil {
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitUsage
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: logLevel(cfg.LogLevel)}))
	var cluster *pgcluster.Cluster
	var pool *pgxpool.Pool
	if cfg.Postgres != "" {
		if pool, err = pgxpool.New(ctx, cfg.Postgres); err != nil {
			fmt.Fprintln(stderr, "a2aport gateway: postgres:", err)
			return exitUsage
		}
		defer pool.Close()
		host, _ := os.Hostname()
		if cluster, err = pgcluster.New(ctx, pool, fmt.Sprintf("%s-%d", host, os.Getpid()), f.lease); err != nil {
			fmt.Fprintln(stderr, "a2aport gateway: postgres:", err)
			return exitError
		}
		defer cluster.Close()
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		fmt.Fprintln(stderr, "a2aport gateway: listen:", withoutAddress(err))
		return exitError
	}
	defer func() { _ = ln.Close() }() // closed already once served
	var admin net.Listener
	if cfg.AdminListen != "" {
		if admin, err = net.Listen("tcp", cfg.AdminListen); err != nil {
			fmt.Fprintln(stderr, "a2aport gateway: adminListen:", withoutAddress(err))
			return exitError
		}
		defer func() { _ = admin.Close() }()
	}
	if cfg.PublicURL == "" {
		scheme := "http"
		if cfg.TLSCert != "" {
			scheme = "https"
		}
		cfg.PublicURL = scheme + "://" + ln.Addr().String()
	}
	g, stopTraces, err := newGateway(ctx, cfg, cluster, pool, logger)
	if err != nil {
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitUsage
	}
	defer stopTraces() // after everything else: the drain's last spans go too
	fmt.Fprintf(stdout, "gateway on %s\ncard: %s%s\n", cfg.PublicURL, cfg.PublicURL, facade.CardPath)
	if admin != nil {
		adminSrv := facade.NewServer(g.Admin())
		fmt.Fprintf(stdout, "operations on http://%s\n", admin.Addr())
		go func() { _ = adminSrv.Serve(admin) }() // ends with its listener
		defer func() { _ = adminSrv.Close() }()   // the last to go: /readyz says draining meanwhile
	}
	if err := serveGateway(ctx, g, cfg, ln, f.grace, cluster != nil, logger); err != nil {
		fmt.Fprintln(stderr, "a2aport gateway:", err)
		return exitError
	}
	return exitOK
}

// gatewayConfig is the configuration file of --config, or the one backend of --upstream, with
// what flags and then environment variables set over it.
func gatewayConfig(f gatewayFlags) (*gateway.Config, error) {
	for _, env := range []struct {
		value *string
		name  string
	}{{&f.listen, "A2APORT_LISTEN"}, {&f.adminListen, "A2APORT_ADMIN_LISTEN"}, {&f.publicURL, "A2APORT_PUBLIC_URL"}, {&f.dsn, "A2APORT_POSTGRES"}, {&f.level, "A2APORT_LOG_LEVEL"}} {
		if *env.value == "" { // a flag given wins
			*env.value = os.Getenv(env.name)
		}
	}
	var cfg *gateway.Config
	var err error
	if f.upstream != "" {
		cfg, err = gateway.UpstreamConfig(f.upstream, splitList(f.allowOrigin))
	} else {
		cfg, err = gateway.ReadConfig(f.config)
	}
	if err != nil {
		return nil, err
	}
	override(&cfg.Listen, f.listen)
	override(&cfg.AdminListen, f.adminListen)
	override(&cfg.PublicURL, f.publicURL)
	override(&cfg.Postgres, f.dsn)
	override(&cfg.LogLevel, f.level)
	return cfg, nil
}

// newGateway builds the gateway of cfg, a node of cluster when there is one (its Works recorded
// and routed in the cluster's database), and starts its backends. stopTraces sends the spans
// still batched and stops their exporter, on the way out.
func newGateway(ctx context.Context, cfg *gateway.Config, cluster *pgcluster.Cluster, pool *pgxpool.Pool, logger *slog.Logger) (g *gateway.Gateway, stopTraces func(), err error) {
	var works a2aport.WorkStore
	if cluster != nil {
		works = cluster.WorkStore()
	}
	opts, err := cfg.Options(works)
	if err != nil {
		return nil, nil, err
	}
	stopTraces = tracesStopper(opts.Tracer, logger)
	opts.Facade.Logger, opts.AccessLog = logger, logger
	if cluster != nil {
		c := cluster.Config()
		opts.Facade.Cluster, opts.Routes, opts.Ready = &c, cluster.Routes(), pool.Ping
		if opts.Facade.Push != nil {
			opts.Facade.Push.Store = cluster.PushConfigs() // every node finds the webhooks
			opts.Facade.Push.Outbox = cluster.PushOutbox() // and sends what a node that died had not
		}
	}
	if g, err = gateway.New(opts); err != nil {
		stopTraces()
		return nil, nil, err
	}
	g.Start(ctx)
	for _, b := range g.Backends() {
		logger.Info("backend", "name", b.Name, "state", b.State, "reason", b.Reason, "protocolVersion", b.ProtocolVersion, "binding", b.Binding)
	}
	return g, stopTraces, nil
}

// tracesStopper is what flushes and stops tp on the way out, within 5 s (nothing to do when
// traces are off); meanwhile the exporter's failures go to the log, not to stderr as text.
func tracesStopper(tp trace.TracerProvider, logger *slog.Logger) func() {
	sdk, ok := tp.(interface{ Shutdown(context.Context) error })
	if !ok {
		return func() {}
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { logger.Warn("traces", "error", err.Error()) }))
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := sdk.Shutdown(ctx); err != nil {
			logger.Warn("traces", "error", err.Error())
		}
	}
}

// serveGateway serves g on ln until ctx ends, then drains it within grace: /readyz answers 503
// and new tasks are refused while open requests and streams finish; what still runs is then
// cancelled, or, in a cluster, left running for another node to take over.
func serveGateway(ctx context.Context, g *gateway.Gateway, cfg *gateway.Config, ln net.Listener, grace time.Duration, clustered bool, logger *slog.Logger) error {
	srv := facade.NewServer(g)
	srv.TLSConfig = cfg.ServerTLS() // auth.mtls: client certificates asked for
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
		return err
	case <-ctx.Done():
	}
	logger.Info("stopping", "grace", grace.String())
	shutdown, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	_ = g.Drain(shutdown) // the listener stays open meanwhile: /readyz says 503, not connection refused
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("shutdown", "error", err.Error())
	}
	if clustered {
		_ = g.Detach() // another node resumes what still runs
	} else {
		_ = g.Close()
	}
	_ = srv.Close() // streams still open after the grace
	if err := <-errs; err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Warn("serve", "error", err.Error())
	}
	return nil
}

// withoutAddress is a listen error without the address it names: the configuration may have taken
// it from a file or the environment.
func withoutAddress(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return errors.New("the address cannot be listened on")
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

// splitList is a comma-separated flag's values, without blanks.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
