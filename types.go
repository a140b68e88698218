package a2aport

import (
	"encoding/json"
	"strings"
)

// Work is one piece of work handed to the agent.
type Work struct {
	ID          string      `json:"id"`
	OwnerID     string      `json:"ownerId"`
	Instruction string      `json:"instruction"`
	InputParts  []InputPart `json:"inputParts,omitempty"`
	// Input is structured input beside the instruction (form fields, parameters): sent as one
	// A2A data part after the instruction and files. Its values must encode as JSON.
	Input map[string]any `json:"input,omitempty"`
	// Continuity "isolated" starts a fresh remote context without touching the owner's mapping.
	Continuity string `json:"continuity,omitempty"`
}

// ContinuityIsolated is the only non-default Work.Continuity value.
const ContinuityIsolated = "isolated"

// InputPart is a file attached to a Work. URL may be a data: URL (sent as raw bytes).
type InputPart struct {
	Type     string `json:"type"` // "file"
	MIME     string `json:"mime,omitempty"`
	Filename string `json:"filename,omitempty"`
	URL      string `json:"url"`
}

// Outcome is the single result of a completed Work.
type Outcome struct {
	// Content is a summary for display: the text of the task's final status, then each
	// artifact's text, trimmed, those seen before left out, apart by a blank line; with none of
	// these, the agent's last message. The answer itself is Text.
	Content   string     `json:"content"`
	Artifacts []Artifact `json:"artifacts"`
	// MessageReply says the agent answered with a message and made no task (A2A's message-only
	// reply): nothing of the Work remains at the agent. The facade answers such a Work with a
	// message too.
	MessageReply bool `json:"messageReply,omitempty"`
}

// Text is the answer's text: each artifact's text parts joined as they streamed, artifacts
// apart by a blank line, nothing trimmed; with no text in any artifact (an agent that answers in
// a message or in its final status), Content. It is what a client that appends every delta's text
// to its artifact has at the end.
func (o Outcome) Text() string {
	var texts []string
	for _, art := range o.Artifacts {
		if t, ok := textOfParts(art.Parts); ok {
			texts = append(texts, t)
		}
	}
	if len(texts) == 0 {
		return o.Content
	}
	return strings.Join(texts, "\n\n")
}

// Text is the artifact's text: its text parts joined, as they streamed.
func (a Artifact) Text() string {
	text, _ := textOfParts(a.Parts)
	return text
}

// textOfParts joins the text parts; ok says there was one.
func textOfParts(parts []Part) (text string, ok bool) {
	var texts []string
	for _, p := range parts {
		if p.Type == PartText {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, ""), len(texts) > 0 // Join returns a single element as it is
}

// Artifact is an output of the agent, protocol-neutral.
type Artifact struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	Parts       []Part `json:"parts"`
}

// Part kinds.
const (
	PartText = "text"
	PartRaw  = "raw"
	PartURL  = "url"
	PartData = "data"
)

// Part is one piece of an artifact. Exactly one of Text, Raw, URL, Data is meaningful, as Type says.
type Part struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	Raw       []byte `json:"raw,omitempty"`
	URL       string `json:"url,omitempty"`
	Data      any    `json:"data,omitempty"`
	MediaType string `json:"mediaType,omitempty"`
	Filename  string `json:"filename,omitempty"`
}

// WorkState is the state of a Work as Status and activity events report it.
type WorkState string

// Work states. Terminal outcomes are not states: they are Submit's result or error.
const (
	StateSubmitted     WorkState = "submitted"
	StateWorking       WorkState = "working"
	StateInputRequired WorkState = "input_required"
	StateAuthRequired  WorkState = "auth_required"
	StateNotFound      WorkState = "not_found"
	StateCompleted     WorkState = "completed"
	StateFailed        WorkState = "failed"
	StateRejected      WorkState = "rejected"
	StateCancelled     WorkState = "cancelled"
)

// Status answers Status(). For a Work only State is set; for the runtime (empty work id) State is
// "idle", "ready" or "closed" and the other fields describe the adapter.
type Status struct {
	State       WorkState `json:"state"`
	Started     bool      `json:"started,omitempty"`
	ActiveWorks int       `json:"activeWorks,omitempty"`
}

// Runtime states reported by Status("") .
const (
	RuntimeIdle   WorkState = "idle"
	RuntimeReady  WorkState = "ready"
	RuntimeClosed WorkState = "closed"
)

// CancelResult answers Cancel: State is "cancelled" for the owner's active Work, "not_found" otherwise.
type CancelResult struct {
	WorkID string    `json:"workId,omitempty"`
	State  WorkState `json:"state"`
}

// Input actions for RespondInput.
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// InputResponse answers an input request. For kind "input" Text (or Values) is the answer and Action
// may be empty; for kind "authorization" Action must be accept, decline or cancel.
type InputResponse struct {
	Action string         `json:"action,omitempty"`
	Text   string         `json:"text,omitempty"`
	Values map[string]any `json:"values,omitempty"`
}

// Health answers Start and Health.
type Health struct {
	OK      bool   `json:"ok"`
	Started bool   `json:"started"`
	Closed  bool   `json:"closed,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Description answers Describe. It never contains credentials.
type Description struct {
	Protocol        string       `json:"protocol"` // always "a2a"
	Label           string       `json:"label"`
	Discovered      bool         `json:"discovered"`
	AgentCardURL    string       `json:"agentCardUrl,omitempty"`
	Transport       string       `json:"transport,omitempty"` // "JSONRPC" or "HTTP+JSON"
	ProtocolVersion string       `json:"protocolVersion,omitempty"`
	AgentName       string       `json:"agentName,omitempty"`
	AgentVersion    string       `json:"agentVersion,omitempty"`
	Capabilities    Capabilities `json:"capabilities"`
	// CardNotes name the parts of the Agent Card that could not be read and were ignored.
	CardNotes []string `json:"cardNotes,omitempty"`
	// ExtendedCard says the card in use is the agent's extended card, which it gives authenticated
	// callers (read after discovery when the public card offers one and credentials are set).
	ExtendedCard bool `json:"extendedCard,omitempty"`
	// Security is what the card declares about authentication and how the adapter meets it; nil
	// when the card declares nothing. It never contains a credential.
	Security *Security `json:"security,omitempty"`
	// CardSignature says how the card in use was verified (Options.VerifyCard); nil when it was not.
	CardSignature *CardSignature `json:"cardSignature,omitempty"`
}

// Security describes the card's security schemes and requirement sets, and which set the
// adapter's requests satisfy.
type Security struct {
	Schemes []SecurityScheme `json:"schemes,omitempty"`
	// Requirements are the card's requirement sets, each a list of scheme names: any one set,
	// with all of its schemes, is enough.
	Requirements [][]string `json:"requirements,omitempty"`
	// Required says the card asks for credentials (it lists requirement sets).
	Required bool `json:"required"`
	// InUse is the first requirement set the given credentials satisfy; nil when none does.
	InUse []string `json:"inUse,omitempty"`
	// Missing says credentials are required and none of the sets is satisfied: the agent may
	// refuse the requests (A2A_AUTH_REQUIRED).
	Missing bool `json:"missing,omitempty"`
}

// SecurityScheme is one security scheme of the card, without its description.
type SecurityScheme struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`            // bearer, basic, apiKey, oauth2, openIdConnect, mutualTLS or unsupported
	In    string `json:"in,omitempty"`    // apiKey: header, query or cookie
	Param string `json:"param,omitempty"` // apiKey: the header, query parameter or cookie name
}

// Capabilities of the backend, from options before discovery and from the Agent Card after.
type Capabilities struct {
	Cancel        bool `json:"cancel"`
	Streaming     bool `json:"streaming"`
	InputRequests bool `json:"inputRequests"`
	Continuity    bool `json:"continuity"`
	Authorization bool `json:"authorization"`
	// MessageReplies says a Work may end with a message-only reply (Outcome.MessageReply): an A2A
	// agent's. Such a Port shows a task as soon as it has one (an activity, an artifact, a
	// question), so that the facade can wait for that sign before it makes a task itself.
	MessageReplies bool     `json:"messageReplies,omitempty"`
	InputModes     []string `json:"inputModes,omitempty"`
	OutputModes    []string `json:"outputModes,omitempty"`
}

// Event types.
const (
	EventActivity       = "backend.activity"
	EventMessage        = "backend.message"
	EventArtifact       = "backend.artifact"
	EventInputRequested = "backend.input.requested"
	EventInputResolved  = "backend.input.resolved"
)

// Event is what listeners receive. TaskID is always the Work id, never a remote id.
type Event struct {
	Type     string    `json:"type"`
	WorkID   string    `json:"workId"`
	OwnerID  string    `json:"ownerId"`
	State    WorkState `json:"state,omitempty"`
	Text     string    `json:"text,omitempty"`
	Artifact *Artifact `json:"artifact,omitempty"`
	// Delta, on a backend.artifact event, is what this change appended to the artifact as the
	// previous event showed it (Artifact already includes it); nil when the artifact is new or was
	// replaced. A frontend rendering streamed text can append Delta instead of redrawing Artifact.
	Delta *ArtifactDelta `json:"delta,omitempty"`
	Input *InputRequest  `json:"input,omitempty"`
	// Reconnecting, on a backend.activity event, says the Work's connection to the agent broke
	// and is being recovered; Reconnected, on the one that follows once the agent answers again,
	// says it is back. Both repeat the Work's state and text as they were (nothing of the Work
	// changed): a frontend that logs activity skips them, and nothing it saw before the break is
	// ever delivered again.
	Reconnecting bool `json:"reconnecting,omitempty"`
	Reconnected  bool `json:"reconnected,omitempty"`
}

// ArtifactDelta is an append to the end of an artifact: Text (or Raw) continues its last part,
// then Parts follow as new parts. Artifact parts in events are shared and read-only.
type ArtifactDelta struct {
	Text  string `json:"text,omitempty"`
	Raw   []byte `json:"raw,omitempty"`
	Parts []Part `json:"parts,omitempty"`
}

// Input request kinds.
const (
	InputKindInput         = "input"
	InputKindAuthorization = "authorization"
)

// InputRequest is carried by input.requested and input.resolved events.
type InputRequest struct {
	InputRequestID string `json:"inputRequestId"`
	Kind           string `json:"kind"`
	Mode           string `json:"mode"` // "text"
	Prompt         string `json:"prompt,omitempty"`
	Action         string `json:"action,omitempty"` // on input.resolved
}

// Validate reports INVALID_WORK for a Work no Port may run: without id, owner or input (an
// instruction, input parts or structured input), or with an unknown continuity. Every Port checks
// it before anything else (DESIGN.md §2).
func (w Work) Validate() error {
	// The words before the colon are the conformance contract's (invalidWorkMessage); after it,
	// the field that is missing, by its JSON name.
	switch {
	case w.ID == "":
		return Errorf(CodeInvalidWork, "submit requires task id, owner and input: the Work has no id")
	case w.OwnerID == "":
		return Errorf(CodeInvalidWork, "submit requires task id, owner and input: work %q has no ownerId", w.ID)
	case strings.TrimSpace(w.Instruction) == "" && len(w.InputParts) == 0 && len(w.Input) == 0:
		return Errorf(CodeInvalidWork, "submit requires task id, owner and input: work %q has no input (an instruction, inputParts or input)", w.ID)
	}
	if len(w.Input) > 0 {
		if _, err := json.Marshal(w.Input); err != nil {
			return Errorf(CodeInvalidWork, "work %q: input does not encode as JSON: %v", w.ID, err)
		}
	}
	if w.Continuity != "" && w.Continuity != ContinuityIsolated {
		return Errorf(CodeInvalidWork, "work %q: continuity must be empty or %q, got %q", w.ID, ContinuityIsolated, w.Continuity)
	}
	return nil
}
