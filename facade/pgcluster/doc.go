// Package pgcluster keeps the state a2a-go's cluster mode shares between facade processes in
// PostgreSQL (pgx). So far it has the task store: tasks with optimistic concurrency (a version per
// task, an update naming a stale version is refused) and each caller's tasks kept to that caller,
// as a2a-go's taskstore.Store contract asks. The event queue manager and the work queue (leases
// and heartbeats), and the facade's use of them, are not built yet.
//
//	pool, _ := pgxpool.New(ctx, dsn)
//	if err := pgcluster.Migrate(ctx, pool); err != nil {
//		return err
//	}
//	store := pgcluster.NewTaskStore(pool, a2asrv.NewTaskStoreAuthenticator())
//	_ = store
package pgcluster
