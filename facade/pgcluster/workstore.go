package pgcluster

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"
)

// WorkStore is an a2aport.WorkStore in PostgreSQL. Shared by the processes of a cluster, it lets
// one process Resume a Work that another started (a task taken over when that process died).
type WorkStore struct{ pool *pgxpool.Pool }

var _ a2aport.WorkStore = (*WorkStore)(nil)

// Get implements a2aport.WorkStore.
func (s *WorkStore) Get(ctx context.Context, workID string) (a2aport.WorkRecord, bool, error) {
	var data []byte
	err := s.pool.QueryRow(ctx, `SELECT record FROM a2aport_works WHERE work_id = $1`, workID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return a2aport.WorkRecord{}, false, nil
	}
	if err != nil {
		return a2aport.WorkRecord{}, false, err
	}
	var rec a2aport.WorkRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return a2aport.WorkRecord{}, false, err
	}
	return rec, true, nil
}

// Set implements a2aport.WorkStore.
func (s *WorkStore) Set(ctx context.Context, rec a2aport.WorkRecord) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO a2aport_works (work_id, record) VALUES ($1, $2)
		ON CONFLICT (work_id) DO UPDATE SET record = EXCLUDED.record`, rec.WorkID, data)
	return err
}

// Delete implements a2aport.WorkStore.
func (s *WorkStore) Delete(ctx context.Context, workID string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM a2aport_works WHERE work_id = $1`, workID)
	return err
}
