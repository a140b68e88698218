// Command a2aport-gateway puts a remote A2A agent behind an a2aport facade: a protocol bridge. The
// upstream agent is reached through a2aport's adapter (A2A 1.0 or 0.3, JSON-RPC or HTTP+JSON,
// whatever its card offers), and the facade serves it again as A2A 1.0 over JSON-RPC and HTTP+JSON
// and as A2A 0.3 over JSON-RPC and HTTP+JSON. So a 0.3-only client reaches a 1.0 agent, and a 1.0 client a 0.3
// agent.
//
//	a2aport-gateway -upstream https://agent.example/.well-known/agent-card.json [-addr 127.0.0.1:8090]
//
// With -postgres DSN it is one node of a cluster: every node given the same database shares the
// tasks, their events and the work (a2a-go's cluster mode on facade/pgcluster), and a node takes
// over the tasks of one that died once their lease (-lease) runs out.
//
// It prints "gateway on BASE", then "card: CARD_URL", and serves until SIGINT or SIGTERM (or
// -lifetime). It listens on loopback only; put a TLS-terminating proxy in front to expose it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "a2aport-gateway:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("a2aport-gateway", flag.ContinueOnError)
	upstream := fs.String("upstream", "", "the upstream agent's card `URL`")
	addr := fs.String("addr", "127.0.0.1:8090", "loopback `address` to listen on (port 0 picks a free one)")
	name := fs.String("name", "", "the name on the gateway's card (default: the upstream's)")
	lifetime := fs.Duration("lifetime", 0, "stop after this `duration` (0: never)")
	dsn := fs.String("postgres", "", "run as one node of a cluster whose state is in this PostgreSQL `DSN` (default: one process, in memory)")
	node := fs.String("node", "", "this node's name in the cluster (default: host name and process id)")
	lease := fs.Duration("lease", pgcluster.DefaultLease, "how long after a node's last heartbeat another takes its work over")
	origins := fs.String("allow-origin", "", "comma-separated `origins` (scheme://host[:port]) whose pages may call the gateway from a browser")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *upstream == "" {
		return errors.New("-upstream is required")
	}
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %q must be a loopback address", *addr)
	}
	upstreamOpts := a2aport.Options{AgentCardURL: *upstream}
	var cluster *pgcluster.Cluster
	if *dsn != "" {
		pool, err := pgxpool.New(ctx, *dsn)
		if err != nil {
			return err
		}
		defer pool.Close()
		name := *node
		if name == "" {
			host, _ := os.Hostname()
			name = fmt.Sprintf("%s-%d", host, os.Getpid())
		}
		if cluster, err = pgcluster.New(ctx, pool, name, *lease); err != nil {
			return err
		}
		defer cluster.Close()
		// Works are recorded where every node reads them: a node resumes a Work another started.
		upstreamOpts.WorkStore = pgcluster.NewWorkStore(pool)
	}
	port, err := adapter.New(upstreamOpts)
	if err != nil {
		return err
	}
	defer func() { _ = port.Close() }()
	if _, err := port.Start(ctx); err != nil {
		return fmt.Errorf("the upstream agent: %w", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	d := port.Describe()
	fo := facade.Options{BaseURL: base, Name: *name, Version: d.AgentVersion, AllowedOrigins: splitList(*origins),
		Description: fmt.Sprintf("%s (A2A %s over %s) through an a2aport gateway", d.AgentName, d.ProtocolVersion, d.Transport)}
	if cluster != nil {
		cfg := cluster.Config()
		fo.Cluster = &cfg
	}
	handler, err := facade.New(port, fo)
	if err != nil {
		return err
	}
	srv := facade.NewServer(handler)
	fmt.Fprintf(stdout, "gateway on %s\ncard: %s%s\n", base, base, facade.CardPath)
	errs := make(chan error, 1)
	go func() { errs <- srv.Serve(ln) }()
	if *lifetime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *lifetime)
		defer cancel()
	}
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
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
