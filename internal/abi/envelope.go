package abi

import (
	"github.com/mailru/easyjson"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/credentials"
)

// Kinds of envelopes. Inputs go from the host to the module, effects from the module to the host.
const (
	// Inputs.
	KindCall      = "call"      // an API call: ID, Method and its arguments
	KindResponse  = "response"  // fetch ID's response head: HTTPStatus, Headers
	KindChunk     = "chunk"     // the next body bytes of fetch ID: Body
	KindEnd       = "end"       // fetch ID's body ended
	KindFailed    = "failed"    // fetch ID failed (before or during the body): Error
	KindTimer     = "timer"     // timer ID fired
	KindStoreDone = "storeDone" // context store request ID answered: ContextID, Found, Error
	KindAbortCall = "abortCall" // the caller of call ID gave up (a Go ctx, a JS AbortSignal): end its context

	// Effects.
	KindFetch = "fetch" // start fetch ID: Method, URL, Headers, Body
	KindRead  = "read"  // deliver the next chunk of fetch ID's body
	KindAbort = "abort" // abort fetch ID (its request or body)
	KindSet   = "set"   // arm timer ID to fire after Nanos
	KindClear = "clear" // disarm timer ID
	KindEvent = "event" // an event of the Submit call ID: Event
	// KindMore is an event of the Submit call ID that is the call's last event with a text-only
	// delta again, appending the text at DeltaText instead (Sent.Event, Artifacts.More): a
	// streamed answer's chunks cross as their text alone.
	KindMore   = "more"
	KindResult = "result" // the result of call ID: one value field or Error
	KindStore  = "store"  // context store request ID: Method (get, set, delete, hold, release), OwnerID, ContextID
	// KindSnapshot answers a batch that asked for one (Batch.Snapshot): the runtime Status, and the
	// Description when asked, as they are once the batch has run.
	KindSnapshot = "snapshot"
)

// Context store methods of KindStore. get, set and delete are answered with KindStoreDone; hold
// and release (an owner's context is in use, or no longer) are not answered.
const (
	StoreGet     = "get"
	StoreSet     = "set"
	StoreDelete  = "delete"
	StoreHold    = "hold"
	StoreRelease = "release"
	// The Work store's (a2aport.WorkStore): Record carries the record to set and the one found.
	StoreWorkGet    = "workGet"
	StoreWorkSet    = "workSet"
	StoreWorkDelete = "workDelete"
)

// API methods of KindCall.
const (
	MethodInit                 = "init"
	MethodDescribe             = "describe"
	MethodStart                = "start"
	MethodHealth               = "health"
	MethodSubmit               = "submit"
	MethodResume               = "resume"
	MethodStatus               = "status"
	MethodCancel               = "cancel"
	MethodRespondInput         = "respondInput"
	MethodRespondAuthorization = "respondAuthorization"
	MethodClose                = "close"
	MethodDetach               = "detach"
	// MethodReceivePush hands the module a request its host's webhook received (Headers, and
	// Body in the payload), for a2aport.PushReceiver.
	MethodReceivePush = "receivePush"
	// Test hooks: counters, a recovered panic inside a call, a trap that kills the instance.
	MethodStats = "_stats"
	MethodPanic = "_panic"
	MethodTrap  = "_trap"
)

// Span locates bytes in a frame's payload.
type Span struct {
	Off uint32 `json:"o"`
	Len uint32 `json:"n"`
}

// Batch is a frame's header.
//
//easyjson:json
type Batch struct {
	// Now is the host's wall clock in Unix nanoseconds when it sent the batch (inputs only).
	Now       int64      `json:"now,omitempty"`
	Envelopes []Envelope `json:"e"`
	// Snapshot, on an input batch, asks for a KindSnapshot effect: a host whose calls to the module
	// cannot wait for an answer (a worker's) keeps the module's last word for status() and
	// describe(), which must answer at once.
	Snapshot *SnapshotRequest `json:"snapshot,omitempty"`
}

// SnapshotRequest says what a batch's snapshot holds besides the runtime Status.
type SnapshotRequest struct {
	Describe bool `json:"describe,omitempty"`
}

// ContentPiece is one text of an outcome's content: Text, or the text of artifact From (its text
// parts joined) less Head white space characters at its start and Tail at its end (white space as
// unicode.IsSpace has it, every such character in the BMP: one UTF-16 unit). The content is the
// pieces' texts joined by a blank line.
type ContentPiece struct {
	Text string `json:"text,omitempty"`
	From string `json:"from,omitempty"`
	Head int    `json:"head,omitempty"`
	Tail int    `json:"tail,omitempty"`
}

// Envelope is one input or effect; Kind says which fields matter.
type Envelope struct {
	Kind string `json:"k"`
	ID   uint64 `json:"id,omitempty"`

	// Calls.
	Method         string                 `json:"m,omitempty"`
	Init           *Init                  `json:"init,omitempty"`
	Work           *a2aport.Work          `json:"work,omitempty"`
	WorkID         string                 `json:"workId,omitempty"`
	OwnerID        string                 `json:"ownerId,omitempty"`
	InputRequestID string                 `json:"inputRequestId,omitempty"`
	Response       *a2aport.InputResponse `json:"response,omitempty"`
	Traceparent    string                 `json:"traceparent,omitempty"` // submit, resume: the Work's W3C trace context

	// Results: at most one value, or Error.
	Outcome *a2aport.Outcome `json:"outcome,omitempty"`
	// Reuse names the artifacts of Outcome sent without parts: their parts are those of the last
	// event of that artifact (abi.Sent), which the host already has.
	Reuse []string `json:"reuse,omitempty"`
	// Content is Outcome.Content as pieces when it holds an artifact's text, which the host then
	// has (ContentPiece); Outcome.Content is then empty.
	Content []ContentPiece `json:"contentOf,omitempty"`
	// ContentBody holds Outcome.Content as payload bytes (UTF-8), which Outcome then leaves empty.
	ContentBody *Span                 `json:"contentBody,omitempty"`
	Description *a2aport.Description  `json:"description,omitempty"`
	Health      *a2aport.Health       `json:"health,omitempty"`
	Status      *a2aport.Status       `json:"status,omitempty"`
	Cancel      *a2aport.CancelResult `json:"cancel,omitempty"`
	Stats       *Stats                `json:"stats,omitempty"`
	Error       *Error                `json:"error,omitempty"`

	// Fetches.
	URL        string              `json:"url,omitempty"`
	Headers    map[string][]string `json:"headers,omitempty"`
	HTTPStatus int                 `json:"httpStatus,omitempty"`
	Body       *Span               `json:"body,omitempty"`
	// Auth lists the card's security schemes the host applies to the fetch with its secrets.
	Auth []credentials.Scheme `json:"auth,omitempty"`

	// Timers.
	Nanos int64 `json:"ns,omitempty"`

	// Events.
	Event *a2aport.Event `json:"event,omitempty"`
	// DeltaText holds Event.Delta.Text as payload bytes (UTF-8), which Event then leaves empty:
	// a streamed chunk's text is neither escaped by the module nor parsed by the host.
	DeltaText *Span `json:"deltaText,omitempty"`

	// Context store.
	ContextID string              `json:"contextId,omitempty"`
	Found     bool                `json:"found,omitempty"`
	Record    *a2aport.WorkRecord `json:"record,omitempty"` // work store requests and answers
}

// Init creates the module's adapter: a2aport.Options less what stays in the host (credentials,
// transport, clock) and with durations in milliseconds. WireOptions (options_gen.go, from the
// option table) are the options that cross as they are; the fields below, those that cross in
// another form.
type Init struct {
	WireOptions
	AgentCard    easyjson.RawMessage `json:"agentCard,omitempty"`
	LegacyCompat *bool               `json:"legacyCompat,omitempty"`
	CardKeys     easyjson.RawMessage `json:"cardKeys,omitempty"` // public keys only
	// HostContextStore routes context ids to the host's store through store effects.
	HostContextStore bool `json:"hostContextStore,omitempty"`
	// HostCredentials says what credentials the host adds to the module's requests (no values).
	HostCredentials *credentials.Held `json:"hostCredentials,omitempty"`
	// HostWorkStore records Works in the host's WorkStore through store effects.
	HostWorkStore bool `json:"hostWorkStore,omitempty"`
}

// FetchNotSent is the Code of a failed fetch whose request provably never left the host (the
// connection was never made): the adapter may then say a send is safe to retry.
const FetchNotSent = "A2A_NETWORK_NOT_SENT"

// FetchAuthFailed is the Code of a failed fetch whose credentials could not be had (the token
// endpoint or the token provider refused): the request never left, and retrying will not help.
const FetchAuthFailed = string(a2aport.CodeAuthRequired)

// FetchRedirectHidden is the Code of a fetch a browser answered with an opaque redirect: the
// agent redirected a request that carries credentials, and the browser hides where to.
const FetchRedirectHidden = "A2A_REDIRECT_HIDDEN"

// FetchBroken is the Code of a failed fetch whose connection was made and broke (reset, closed by
// the other side) before the answer was whole: the server was there.
const FetchBroken = "A2A_NETWORK_BROKEN"

// FetchBlocked is the Code of a fetch a browser refused for the page's origin (CORS): the
// agent's server answers, but not to this page. A browser asks the server's leave (the preflight)
// before it sends a request a2aport makes, so such a request was not sent.
const FetchBlocked = "A2A_NETWORK_BLOCKED"

// Error is an a2aport.Error on the wire; failed fetches use Code, Message and Cause only.
type Error struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Status    int    `json:"status,omitempty"`
	Retryable bool   `json:"retryable,omitempty"`
	AgentText string `json:"agentText,omitempty"`
	// Cause is the runtime's own failure under a failed fetch (Node's ECONNREFUSED, ENOTFOUND),
	// carried from the host's fetch to the error its caller gets.
	Cause *Cause `json:"cause,omitempty"`
}

// Cause is a host runtime's error: its code where it has one, and its text.
type Cause struct {
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// Stats are the module's live counters (MethodStats), for leak tests.
type Stats struct {
	Goroutines int    `json:"goroutines"`
	Busy       int    `json:"busy"`
	Sleeping   int    `json:"sleeping"`
	Fetches    int    `json:"fetches"`
	Timers     int    `json:"timers"`
	HeapBytes  uint64 `json:"heapBytes"`
	Panics     int    `json:"panics"` // recovered outside any call (timer callbacks)
}
