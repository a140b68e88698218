package gateway

import "context"

// Routes remember which backend runs each Work, for the nodes of a cluster: a Work this process
// does not run (another node started it, and stopped or handed it on) is resumed, cancelled or
// answered at the backend its route names, and never asked of another. A route is written before
// the Work's message leaves and deleted when the Work ends anywhere but in a Detach.
// pgcluster.Routes keeps them in PostgreSQL. Implementations must be safe for concurrent use.
type Routes interface {
	SetRoute(ctx context.Context, workID, backend string) error
	// Route is the backend of workID; ok is false when none is recorded.
	Route(ctx context.Context, workID string) (backend string, ok bool, err error)
	DeleteRoute(ctx context.Context, workID string) error
}
