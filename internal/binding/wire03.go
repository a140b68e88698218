package binding

import "time"

// The shapes the 0.3 fast decoder accepts: a JSON-RPC result holding one task, message, status
// update or artifact update (told apart by "kind", as 0.3 writes them) whose parts are all text.
// One flat object holds the fields of all four kinds: a kind reads its own fields and, as
// encoding/json does with a2a-go's 0.3 types, ignores the others. A field none of them has
// (metadata, extensions, a data part) fails the generated decoder, and the full decoder reads
// the event.

//easyjson:json
type rpcEvent03 struct {
	JSONRPC string   `json:"jsonrpc"`
	ID      string   `json:"id"`
	Result  *event03 `json:"result"`
}

type event03 struct {
	Kind      string        `json:"kind"`
	ID        string        `json:"id"`     // task
	TaskID    string        `json:"taskId"` // updates and message
	ContextID string        `json:"contextId"`
	Status    status03      `json:"status"`    // task and status update
	History   []*message03  `json:"history"`   // task
	Artifacts []*artifact03 `json:"artifacts"` // task
	Artifact  *artifact03   `json:"artifact"`  // artifact update
	Append    bool          `json:"append"`
	LastChunk bool          `json:"lastChunk"`
	Final     bool          `json:"final"`     // status update
	MessageID string        `json:"messageId"` // message
	Role      string        `json:"role"`
	Parts     []part03      `json:"parts"`
}

type status03 struct {
	State     string     `json:"state"`
	Message   *message03 `json:"message"`
	Timestamp *time.Time `json:"timestamp"`
}

type message03 struct {
	Kind      string   `json:"kind"` // not read, as a2a-go does not read it inside a task
	MessageID string   `json:"messageId"`
	ContextID string   `json:"contextId"`
	TaskID    string   `json:"taskId"`
	Role      string   `json:"role"`
	Parts     []part03 `json:"parts"`
}

type artifact03 struct {
	ID          string   `json:"artifactId"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Parts       []part03 `json:"parts"`
}

type part03 struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}
