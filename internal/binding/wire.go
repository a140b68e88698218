package binding

import "time"

// The shapes the fast decoder accepts: one artifact update, status update, task or message whose
// parts are all text, in a JSON-RPC result (rpcEvent) or alone (eventResult, HTTP+JSON), and
// no field beyond these (the generated decoder refuses unknown fields, and then the event goes
// to the full decoder).

//easyjson:json
type rpcEvent struct {
	JSONRPC string       `json:"jsonrpc"`
	ID      string       `json:"id"`
	Result  *eventResult `json:"result"`
}

//easyjson:json
type eventResult struct {
	ArtifactUpdate *artifactUpdate `json:"artifactUpdate"`
	StatusUpdate   *statusUpdate   `json:"statusUpdate"`
	Task           *task           `json:"task"`
	Message        *textMessage    `json:"message"`
}

type task struct {
	ID        string         `json:"id"`
	ContextID string         `json:"contextId"`
	Status    *taskStatus    `json:"status"`
	History   []*textMessage `json:"history"`
	Artifacts []*artifact    `json:"artifacts"`
}

type statusUpdate struct {
	TaskID    string      `json:"taskId"`
	ContextID string      `json:"contextId"`
	Status    *taskStatus `json:"status"`
}

type taskStatus struct {
	State     string       `json:"state"`
	Message   *textMessage `json:"message"`
	Timestamp *time.Time   `json:"timestamp"`
}

type textMessage struct {
	ID        string     `json:"messageId"`
	ContextID string     `json:"contextId"`
	TaskID    string     `json:"taskId"`
	Role      string     `json:"role"`
	Parts     []textPart `json:"parts"`
}

type artifactUpdate struct {
	TaskID    string    `json:"taskId"`
	ContextID string    `json:"contextId"`
	Artifact  *artifact `json:"artifact"`
	Append    bool      `json:"append"`
	LastChunk bool      `json:"lastChunk"`
}

type artifact struct {
	ID          string     `json:"artifactId"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Parts       []textPart `json:"parts"`
}

type textPart struct {
	Text      *string `json:"text"`
	MediaType string  `json:"mediaType"`
	Filename  string  `json:"filename"`
}
