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
CREATE TABLE IF NOT EXISTS a2aport_routes (
	work_id text PRIMARY KEY,
	backend text NOT NULL
);
CREATE TABLE IF NOT EXISTS a2a_push_configs (
	task_id    text NOT NULL,
	config_id  text NOT NULL,
	config     jsonb NOT NULL,
	created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
	PRIMARY KEY (task_id, config_id)
);
CREATE TABLE IF NOT EXISTS a2a_push_outbox (
	seq          bigserial PRIMARY KEY, -- the order deliveries were put in
	id           text NOT NULL UNIQUE,
	task_id      text NOT NULL,
	config_id    text NOT NULL,
	content_type text NOT NULL,
	body         bytea NOT NULL,
	owner        text NOT NULL,
	lease_until  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS a2a_push_outbox_owner ON a2a_push_outbox (owner);
CREATE INDEX IF NOT EXISTS a2a_push_outbox_lease ON a2a_push_outbox (lease_until);
`

// schemaLock is the advisory lock Migrate holds while it sets the schema up ("a2aport" in ASCII):
// CREATE TABLE IF NOT EXISTS is not safe against itself, and nodes started together would
// otherwise race (the loser fails with 23505 on pg_type_typname_nsp_index).
const schemaLock = 0x613261706f7274

// Migrate creates the tables the package uses, if they are not there. Processes that run it at
// once take turns.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }() // after Commit: nothing to undo
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(schemaLock)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, schema); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
