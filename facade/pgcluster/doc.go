// Package pgcluster keeps the state a2a-go's cluster mode shares between facade processes in
// PostgreSQL (pgx): the task store (a version per task; an update naming a stale version is
// refused; each caller's tasks kept to that caller), the event queues (rows per task, LISTEN/NOTIFY
// waking the readers of every process), the work queue (items leased with FOR UPDATE SKIP LOCKED,
// kept by heartbeats, taken over when a lease runs out), the push configurations and the push
// deliveries (leased the same way, so that another process sends what one that died had not) and
// an a2aport.WorkStore, with which a process's Port resumes a Work another process started.
//
//	pool, _ := pgxpool.New(ctx, dsn)
//	cluster, err := pgcluster.New(ctx, pool, "node-1", pgcluster.DefaultLease)
//	if err != nil {
//		return err
//	}
//	defer cluster.Close()
//	port, _ := adapter.New(a2aport.Options{AgentCardURL: upstream, WorkStore: cluster.WorkStore()})
//	cfg := cluster.Config()
//	handler, _ := facade.New(port, facade.Options{BaseURL: base, Cluster: &cfg})
//	_ = handler
package pgcluster
