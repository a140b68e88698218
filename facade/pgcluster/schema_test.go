package pgcluster

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// TestNodesStartedTogether: three nodes starting at the same instant on a fresh database each
// set the schema up; none fails (CREATE TABLE IF NOT EXISTS alone races: the loser dies with
// 23505 on pg_type_typname_nsp_index). Ten fresh databases, so the race has its chances.
func TestNodesStartedTogether(t *testing.T) {
	dsn := pgtest.Start(t)
	ctx := context.Background()
	admin, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	const rounds, nodes = 10, 3
	for round := range rounds {
		db := fmt.Sprintf("together_%d", round)
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
			t.Fatal(err)
		}
		pools := make([]*pgxpool.Pool, nodes)
		for i := range pools {
			if pools[i], err = pgxpool.New(ctx, strings.Replace(dsn, "/postgres?", "/"+db+"?", 1)); err != nil {
				t.Fatal(err)
			}
			if err := pools[i].Ping(ctx); err != nil { // connected before the start line
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		errs := make([]error, nodes)
		start := make(chan struct{})
		for i, pool := range pools {
			wg.Go(func() {
				<-start
				var c *Cluster
				if c, errs[i] = New(ctx, pool, fmt.Sprintf("node-%d", i), 0); c != nil {
					c.Close()
				}
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d: node %d: %v", round, i, err)
			}
		}
		for _, p := range pools {
			p.Close()
		}
	}
}
