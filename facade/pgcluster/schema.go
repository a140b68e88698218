package pgcluster

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// schema is idempotent: every process may run it at start.
const schema = `
CREATE TABLE IF NOT EXISTS a2a_tasks (
	id         text PRIMARY KEY,
	context_id text NOT NULL,
	owner      text NOT NULL,
	state      text NOT NULL,
	status_at  timestamptz,
	version    bigint NOT NULL,
	updated_at timestamptz NOT NULL,
	task       jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS a2a_tasks_owner_updated ON a2a_tasks (owner, updated_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS a2a_events (
	seq        bigserial PRIMARY KEY,
	task_id    text NOT NULL,
	message    jsonb, -- NULL: the task's queue was destroyed
	created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS a2a_events_task ON a2a_events (task_id, seq);
CREATE TABLE IF NOT EXISTS a2a_work (
	id          bigserial PRIMARY KEY,
	task_id     text NOT NULL,
	payload     jsonb NOT NULL,
	owner       text,
	lease_until timestamptz,
	attempts    int NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS a2aport_works (
	work_id text PRIMARY KEY,
	record  jsonb NOT NULL
);
`

// Migrate creates the tables the package uses, if they are not there.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, schema)
	return err
}
