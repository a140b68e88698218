package pgcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PushConfigs are the tasks' push notification configurations in PostgreSQL (a2a-go's
// push.ConfigStore), so that whichever node runs a task's events finds where to send them, and
// a configuration made on one node is read, listed and deleted on any other.
type PushConfigs struct{ pool *pgxpool.Pool }

// PushConfigs is the cluster's push configuration store.
func (c *Cluster) PushConfigs() *PushConfigs { return &PushConfigs{pool: c.pool} }

// Save creates the configuration, or replaces the one of the same id; a configuration without an
// id is given one.
func (s *PushConfigs) Save(ctx context.Context, taskID a2a.TaskID, config *a2a.PushConfig) (*a2a.PushConfig, error) {
	if config == nil || config.URL == "" {
		return nil, fmt.Errorf("%w: a push configuration needs a URL", a2a.ErrInvalidParams)
	}
	if _, err := url.ParseRequestURI(config.URL); err != nil {
		return nil, fmt.Errorf("%w: the push configuration's URL: %w", a2a.ErrInvalidParams, err)
	}
	saved := *config
	if saved.ID == "" {
		saved.ID = uuid.Must(uuid.NewV7()).String()
	}
	saved.TaskID = taskID
	data, err := json.Marshal(&saved)
	if err != nil {
		return nil, err
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO a2a_push_configs (task_id, config_id, config) VALUES ($1, $2, $3)
		ON CONFLICT (task_id, config_id) DO UPDATE SET config = EXCLUDED.config`, string(taskID), saved.ID, data); err != nil {
		return nil, err
	}
	return &saved, nil
}

// Get is the configuration configID of the task.
func (s *PushConfigs) Get(ctx context.Context, taskID a2a.TaskID, configID string) (*a2a.PushConfig, error) {
	var data []byte
	err := s.pool.QueryRow(ctx, `SELECT config FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2`, string(taskID), configID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, push.ErrPushConfigNotFound // as a2a-go's own store answers
	}
	if err != nil {
		return nil, err
	}
	return decodePushConfig(data)
}

// List is the task's configurations, oldest first.
func (s *PushConfigs) List(ctx context.Context, taskID a2a.TaskID) ([]*a2a.PushConfig, error) {
	rows, err := s.pool.Query(ctx, `SELECT config FROM a2a_push_configs WHERE task_id = $1 ORDER BY created_at, config_id`, string(taskID))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*a2a.PushConfig{}
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, err
		}
		c, err := decodePushConfig(data)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Delete removes the configuration configID of the task (none: nothing to do).
func (s *PushConfigs) Delete(ctx context.Context, taskID a2a.TaskID, configID string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2`, string(taskID), configID)
	return err
}

// DeleteAll removes every configuration of the task.
func (s *PushConfigs) DeleteAll(ctx context.Context, taskID a2a.TaskID) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM a2a_push_configs WHERE task_id = $1`, string(taskID))
	return err
}

func decodePushConfig(data []byte) (*a2a.PushConfig, error) {
	var c a2a.PushConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("a stored push configuration: %w", err)
	}
	return &c, nil
}
