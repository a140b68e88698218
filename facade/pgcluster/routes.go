package pgcluster

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Routes are a gateway's routes (gateway.Routes) in PostgreSQL: which backend each Work of the
// cluster runs on, so that the node taking a Work over asks that backend alone.
type Routes struct{ pool *pgxpool.Pool }

// SetRoute records that workID runs on backend.
func (s *Routes) SetRoute(ctx context.Context, workID, backend string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO a2aport_routes (work_id, backend) VALUES ($1, $2)
		ON CONFLICT (work_id) DO UPDATE SET backend = EXCLUDED.backend`, workID, backend)
	return err
}

// Route is the backend workID runs on.
func (s *Routes) Route(ctx context.Context, workID string) (string, bool, error) {
	var backend string
	err := s.pool.QueryRow(ctx, `SELECT backend FROM a2aport_routes WHERE work_id = $1`, workID).Scan(&backend)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	return backend, err == nil, err
}

// DeleteRoute forgets workID's route.
func (s *Routes) DeleteRoute(ctx context.Context, workID string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM a2aport_routes WHERE work_id = $1`, workID)
	return err
}
