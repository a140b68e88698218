package pgcluster_test

import (
	"context"
	"log"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
)

// One node of a facade cluster: every node runs this with the same database and its own name;
// tasks, their events and the work to do are shared, and a node resumes through its Port the
// Works another node started (the adapter's WorkStore is in the same database). Compiled, not
// run: it needs a PostgreSQL server (the package's tests start one).
func ExampleNew() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	cluster, err := pgcluster.New(ctx, pool, os.Getenv("NODE_NAME"), pgcluster.DefaultLease)
	if err != nil {
		log.Fatal(err)
	}
	defer cluster.Close()

	port, err := adapter.New(a2aport.Options{
		AgentCardURL: "https://upstream.example/.well-known/agent-card.json",
		WorkStore:    cluster.WorkStore(),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = port.Close() }()
	cfg := cluster.Config()
	handler, err := facade.New(port, facade.Options{BaseURL: "https://gateway.example", Cluster: &cfg})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(facade.NewServer(handler).ListenAndServe())
}
