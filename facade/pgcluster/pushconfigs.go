package pgcluster

import (
	"context"
	"errors"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/facade"
)

// PushConfigs keep the tasks' push notification configurations in PostgreSQL (a
// facade.PushStore, for facade.PushOptions.Store): a configuration registered through one node is
// read, listed, replaced and deleted through any other, and the node that runs a task's events
// finds where to send them.
type PushConfigs struct{ pool *pgxpool.Pool }

var _ facade.PushStore = (*PushConfigs)(nil)

// PushConfigs is the cluster's push configuration store.
func (c *Cluster) PushConfigs() *PushConfigs { return &PushConfigs{pool: c.pool} }

// PutPush implements facade.PushStore. Two nodes saving for one task at once take turns (a lock
// of the task's, for the transaction), so that the bound holds.
func (s *PushConfigs) PutPush(ctx context.Context, taskID a2a.TaskID, configID string, record []byte, maxPerTask int) (bool, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback(ctx) }() // after Commit: nothing to undo
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('a2a_push_configs:' || $1, 0))`, string(taskID)); err != nil {
		return false, err
	}
	var others int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM a2a_push_configs WHERE task_id = $1 AND config_id <> $2`, string(taskID), configID).Scan(&others); err != nil {
		return false, err
	}
	if others >= maxPerTask {
		return false, nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO a2a_push_configs (task_id, config_id, config) VALUES ($1, $2, $3)
		ON CONFLICT (task_id, config_id) DO UPDATE SET config = EXCLUDED.config`, string(taskID), configID, record); err != nil {
		return false, err
	}
	return true, tx.Commit(ctx)
}

// GetPush implements facade.PushStore.
func (s *PushConfigs) GetPush(ctx context.Context, taskID a2a.TaskID, configID string) ([]byte, error) {
	var record []byte
	err := s.pool.QueryRow(ctx, `SELECT config FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2`, string(taskID), configID).Scan(&record)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return record, err
}

// ListPush implements facade.PushStore: the task's configurations, oldest first.
func (s *PushConfigs) ListPush(ctx context.Context, taskID a2a.TaskID) ([][]byte, error) {
	rows, err := s.pool.Query(ctx, `SELECT config FROM a2a_push_configs WHERE task_id = $1 ORDER BY created_at, config_id`, string(taskID))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := [][]byte{}
	for rows.Next() {
		var record []byte
		if err := rows.Scan(&record); err != nil {
			return nil, err
		}
		out = append(out, record)
	}
	return out, rows.Err()
}

// DeletePush implements facade.PushStore.
func (s *PushConfigs) DeletePush(ctx context.Context, taskID a2a.TaskID, configID string) error {
	if configID == "" {
		_, err := s.pool.Exec(ctx, `DELETE FROM a2a_push_configs WHERE task_id = $1`, string(taskID))
		return err
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2`, string(taskID), configID)
	return err
}
