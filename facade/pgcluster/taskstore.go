package pgcluster

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/internal/a2asrvx"
)

// taskStore is a taskstore.Store in PostgreSQL.
type taskStore struct {
	pool *pgxpool.Pool
	auth taskstore.Authenticator
}

var _ taskstore.Store = (*taskStore)(nil)

// newTaskStore keeps tasks in pool; auth names the caller, whose tasks only that caller reads.
func newTaskStore(pool *pgxpool.Pool, auth taskstore.Authenticator) *taskStore {
	if auth == nil {
		auth = func(context.Context) (string, error) { return "", nil }
	}
	return &taskStore{pool: pool, auth: auth}
}

func (s *taskStore) caller(ctx context.Context) (string, error) {
	user, err := s.auth(ctx)
	if err != nil {
		return "", fmt.Errorf("taskstore auth failed: %w", err)
	}
	return user, nil
}

func validate(task *a2a.Task) error {
	if task == nil || task.ID == "" || task.ContextID == "" {
		return fmt.Errorf("%w: a task needs an id and a context id", a2a.ErrInvalidParams)
	}
	return nil
}

func statusAt(task *a2a.Task) *time.Time {
	return task.Status.Timestamp
}

// Create implements taskstore.Store.
func (s *taskStore) Create(ctx context.Context, task *a2a.Task) (taskstore.TaskVersion, error) {
	if err := validate(task); err != nil {
		return taskstore.TaskVersionMissing, err
	}
	user, err := s.caller(ctx)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	data, err := json.Marshal(task)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO a2a_tasks (id, context_id, owner, state, status_at, version, updated_at, task)
		VALUES ($1, $2, $3, $4, $5, 1, clock_timestamp(), $6) ON CONFLICT (id) DO NOTHING`,
		string(task.ID), task.ContextID, user, string(task.Status.State), statusAt(task), data)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	if tag.RowsAffected() == 0 {
		return taskstore.TaskVersionMissing, taskstore.ErrTaskAlreadyExists
	}
	return 1, nil
}

// Update implements taskstore.Store: it is refused when PrevVersion is given and stale.
func (s *taskStore) Update(ctx context.Context, req *taskstore.UpdateRequest) (taskstore.TaskVersion, error) {
	if err := validate(req.Task); err != nil {
		return taskstore.TaskVersionMissing, err
	}
	a2asrvx.Tidy(req)
	user, err := s.caller(ctx)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	data, err := json.Marshal(req.Task)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	var version int64
	err = s.pool.QueryRow(ctx, `UPDATE a2a_tasks SET task = $1, state = $2, status_at = $3, version = version + 1, updated_at = clock_timestamp()
		WHERE id = $4 AND owner = $5 AND ($6 = 0 OR version = $6) RETURNING version`,
		data, string(req.Task.Status.State), statusAt(req.Task), string(req.Task.ID), user, int64(req.PrevVersion)).Scan(&version)
	if errors.Is(err, pgx.ErrNoRows) {
		var owner string
		switch err := s.pool.QueryRow(ctx, `SELECT owner FROM a2a_tasks WHERE id = $1`, string(req.Task.ID)).Scan(&owner); {
		case errors.Is(err, pgx.ErrNoRows) || (err == nil && owner != user):
			return taskstore.TaskVersionMissing, a2a.ErrTaskNotFound
		case err != nil:
			return taskstore.TaskVersionMissing, err
		}
		return taskstore.TaskVersionMissing, taskstore.ErrConcurrentModification
	}
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	return taskstore.TaskVersion(version), nil
}

// Get implements taskstore.Store: another caller's task is not found.
func (s *taskStore) Get(ctx context.Context, taskID a2a.TaskID) (*taskstore.StoredTask, error) {
	user, err := s.caller(ctx)
	if err != nil {
		return nil, err
	}
	var data []byte
	var version int64
	var owner string
	err = s.pool.QueryRow(ctx, `SELECT task, version, owner FROM a2a_tasks WHERE id = $1`, string(taskID)).Scan(&data, &version, &owner)
	switch {
	case errors.Is(err, pgx.ErrNoRows) || (err == nil && owner != user):
		return nil, a2a.ErrTaskNotFound
	case err != nil:
		return nil, err
	}
	task := new(a2a.Task)
	if err := json.Unmarshal(data, task); err != nil {
		return nil, fmt.Errorf("stored task %s: %w", taskID, err)
	}
	return &taskstore.StoredTask{Task: task, Version: taskstore.TaskVersion(version), User: owner}, nil
}

// Page sizes of List.
const (
	defaultPageSize = 50
	maxPageSize     = 100
	maxHistory      = 100
)

// List implements taskstore.Store: the caller's tasks, newest update first, by pages.
func (s *taskStore) List(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	user, err := s.caller(ctx)
	if err != nil || user == "" {
		return nil, a2a.ErrUnauthenticated
	}
	size := req.PageSize
	switch {
	case size == 0:
		size = defaultPageSize
	case size < 1 || size > maxPageSize:
		return nil, fmt.Errorf("page size must be between 1 and %d, got %d: %w", maxPageSize, size, a2a.ErrInvalidRequest)
	}
	where := []string{"owner = $1"}
	args := []any{user}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if req.ContextID != "" {
		add("context_id = $%d", req.ContextID)
	}
	if req.Status != a2a.TaskStateUnspecified {
		add("state = $%d", string(req.Status))
	}
	if req.StatusTimestampAfter != nil {
		add("(status_at IS NULL OR status_at >= $%d)", *req.StatusTimestampAfter)
	}
	var total int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM a2a_tasks WHERE "+strings.Join(where, " AND "), args...).Scan(&total); err != nil {
		return nil, err
	}
	if req.PageToken != "" {
		at, id, err := decodeToken(req.PageToken)
		if err != nil {
			return nil, err
		}
		args = append(args, at, id)
		where = append(where, fmt.Sprintf("(updated_at, id) < ($%d, $%d)", len(args)-1, len(args)))
	}
	args = append(args, size+1)
	rows, err := s.pool.Query(ctx, fmt.Sprintf("SELECT task, updated_at, id FROM a2a_tasks WHERE %s ORDER BY updated_at DESC, id DESC LIMIT $%d",
		strings.Join(where, " AND "), len(args)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &a2a.ListTasksResponse{TotalSize: total, PageSize: size, Tasks: []*a2a.Task{}}
	var lastAt time.Time
	var lastID string
	for rows.Next() {
		var data []byte
		var at time.Time
		var id string
		if err := rows.Scan(&data, &at, &id); err != nil {
			return nil, err
		}
		if len(res.Tasks) == size {
			res.NextPageToken = encodeToken(lastAt, lastID)
			break
		}
		task := new(a2a.Task)
		if err := json.Unmarshal(data, task); err != nil {
			return nil, fmt.Errorf("stored task %s: %w", id, err)
		}
		trim(task, req)
		res.Tasks = append(res.Tasks, task)
		lastAt, lastID = at, id
	}
	return res, rows.Err()
}

// trim keeps the history length asked (default maxHistory) and drops artifacts unless asked.
func trim(task *a2a.Task, req *a2a.ListTasksRequest) {
	keep := maxHistory
	if req.HistoryLength != nil {
		keep = *req.HistoryLength
	}
	if keep >= 0 && len(task.History) > keep {
		task.History = task.History[len(task.History)-keep:]
	}
	if !req.IncludeArtifacts {
		task.Artifacts = nil
	}
}

func encodeToken(at time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(at.UTC().Format(time.RFC3339Nano) + "_" + id))
}

func decodeToken(token string) (time.Time, string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("%w: bad page token", a2a.ErrInvalidRequest)
	}
	at, id, ok := strings.Cut(string(raw), "_")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil {
		return time.Time{}, "", fmt.Errorf("%w: bad page token", a2a.ErrInvalidRequest)
	}
	return t, id, nil
}
