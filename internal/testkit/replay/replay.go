package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// ChunkBytes is the size of one chunk's text: about what an LLM agent streams per update.
const ChunkBytes = 300

// Markers stand for the request id and a chunk's text in the recorded stream.
const (
	idMarker    = `"replay-request-id"`
	chunkMarker = "REPLAYCHUNKMARKER"
)

// ChunkText is the text of chunk i, exactly ChunkBytes long (letters, digits and spaces only, so it
// needs no escaping in JSON).
func ChunkText(i int) string {
	head := fmt.Sprintf("chunk %07d ", i)
	return head + strings.Repeat("lorem ipsum dolor sit amet ", ChunkBytes/27+1)[:ChunkBytes-len(head)]
}

// Text is the merged artifact text of an n-chunk answer.
func Text(n int) string {
	var b strings.Builder
	b.Grow(n * ChunkBytes)
	for i := range n {
		b.WriteString(ChunkText(i))
	}
	return b.String()
}

// Agent serves the replayed streams on 127.0.0.1, in A2A 1.0 (a2asrv's JSON-RPC) below /{n}/
// and in 0.3 (a2a-go's 0.3 JSON-RPC, a2av0) below /v03/{n}/.
type Agent struct {
	url  string
	srv  *http.Server
	tmpl map[string]*template // by protocol version

	mu    sync.Mutex
	built map[stream][][]byte // each stream, split at the request id
}

// stream names one replayed answer: its protocol version and its number of chunks.
type stream struct {
	version string
	n       int
}

// The protocol versions the agent replays.
const (
	version10 = "1.0"
	version03 = "0.3"
)

// Start records the template streams through a2a-go's servers and starts serving on a free
// loopback port.
func Start() (*Agent, error) {
	tmpl := map[string]*template{}
	for _, version := range []string{version10, version03} {
		t, err := record(version)
		if err != nil {
			return nil, err
		}
		tmpl[version] = t
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	a := &Agent{url: "http://" + ln.Addr().String(), tmpl: tmpl, built: map[stream][][]byte{}}
	a.srv = &http.Server{Handler: http.HandlerFunc(a.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = a.srv.Serve(ln) }()
	return a, nil
}

// CardURL is the Agent Card URL of the agent that answers every message with n chunks.
func (a *Agent) CardURL(n int) string {
	return fmt.Sprintf("%s/%d%s", a.url, n, a2asrv.WellKnownAgentCardPath)
}

// CardURL03 is CardURL for the same answer spoken in A2A 0.3.
func (a *Agent) CardURL03(n int) string {
	return fmt.Sprintf("%s/v03/%d%s", a.url, n, a2asrv.WellKnownAgentCardPath)
}

// Close stops the server.
func (a *Agent) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return a.srv.Shutdown(ctx)
}

// Prepare builds the n-chunk streams ahead of time, so the first request does not pay for them.
func (a *Agent) Prepare(n int) {
	a.stream(stream{version10, n})
	a.stream(stream{version03, n})
}

func (a *Agent) stream(s stream) [][]byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if built, ok := a.built[s]; ok {
		return built
	}
	built := bytes.Split(a.tmpl[s.version].build(s.n), []byte(idMarker))
	a.built[s] = built
	return built
}

func (a *Agent) serve(w http.ResponseWriter, r *http.Request) {
	// [/v03]/{n}/.well-known/agent-card.json, [/v03]/{n}/a2a, /{n}/text
	version, prefix, path := version10, "", r.URL.Path
	if rest, ok := strings.CutPrefix(path, "/v03/"); ok {
		version, prefix, path = version03, "/v03", "/"+rest
	}
	nText, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	n, err := strconv.Atoi(nText)
	if err != nil || n < 1 {
		http.NotFound(w, r)
		return
	}
	if rest == "text" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, Text(n)) // a client that went away ends the copy; nothing to report
		return
	}
	if "/"+rest == a2asrv.WellKnownAgentCardPath {
		iface := a2a.NewAgentInterface(fmt.Sprintf("%s%s/%d/a2a", a.url, prefix, n), a2a.TransportProtocolJSONRPC)
		iface.ProtocolVersion = a2a.ProtocolVersion(version)
		card := &a2a.AgentCard{
			Name: "replay agent", Description: "replays a prebuilt streaming answer", Version: "1.0.0",
			SupportedInterfaces: []*a2a.AgentInterface{iface},
			Capabilities:        a2a.AgentCapabilities{Streaming: true},
			DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
			Skills: []a2a.AgentSkill{{ID: "replay", Name: "replay", Description: "replays", Tags: []string{"bench"}}},
		}
		if version == version03 { // with 0.3's url and preferredTransport beside 1.0's fields
			a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(card)).ServeHTTP(w, r)
			return
		}
		a2asrv.NewStaticAgentCardHandler(card).ServeHTTP(w, r)
		return
	}
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20)) // a short read shows as a missing id below
	if json.Unmarshal(body, &req) != nil || len(req.ID) == 0 {
		http.Error(w, "a JSON-RPC request with an id is required", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	segments := a.stream(stream{version, n})
	for i, seg := range segments {
		if i > 0 {
			_, _ = w.Write(req.ID) // a client that went away ends the copy; nothing to report
		}
		_, _ = w.Write(seg)
	}
}

// template is a2asrv's own SSE output for one answer, cut into the events before the chunks, one
// appended chunk, and the events after them.
type template struct {
	head, first, chunk, last, tail []byte
}

// build returns the stream of an n-chunk answer; the request id is still the marker.
func (t *template) build(n int) []byte {
	var b bytes.Buffer
	b.Grow(len(t.head) + n*(len(t.chunk)+ChunkBytes) + len(t.tail))
	b.Write(t.head)
	for i := range n {
		ev := t.chunk
		switch {
		case i == 0:
			ev = t.first
		case i == n-1:
			ev = t.last
		}
		b.Write(bytes.Replace(ev, []byte(chunkMarker), []byte(ChunkText(i)), 1))
	}
	b.Write(t.tail)
	return b.Bytes()
}

// record runs a2a-go's JSON-RPC handler of version once on a 3-chunk answer and splits its SSE
// output into the template: every byte a client reads is one a2a-go wrote.
func record(version string) (*template, error) {
	handler := a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(recorder{}))
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("answer at length"))
	params, err := json.Marshal(a2a.SendMessageRequest{Message: msg})
	if err != nil {
		return nil, err
	}
	method, completed := "SendStreamingMessage", "TASK_STATE_COMPLETED"
	if version == version03 {
		handler = a2av0.NewJSONRPCHandler(a2asrv.NewHandler(recorder{}))
		params = []byte(`{"message":{"kind":"message","messageId":"replay","role":"user","parts":[{"kind":"text","text":"answer at length"}]}}`)
		method, completed = "message/stream", `"state":"completed"`
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, idMarker, method, params)
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", version)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	events := splitEvents(rec.Body.Bytes())
	var t template
	var chunks [][]byte
	for _, ev := range events {
		switch {
		case bytes.Contains(ev, []byte(chunkMarker)):
			chunks = append(chunks, ev)
		case len(chunks) == 0:
			t.head = append(t.head, ev...)
		default:
			t.tail = append(t.tail, ev...)
		}
	}
	if len(chunks) != 3 || !bytes.Contains(t.tail, []byte(completed)) {
		return nil, fmt.Errorf("replay: unexpected %s stream (%d chunk events): %.500s", version, len(chunks), rec.Body.String())
	}
	t.first, t.chunk, t.last = chunks[0], chunks[1], chunks[2]
	return &t, nil
}

// splitEvents cuts an SSE body after each blank line.
func splitEvents(body []byte) [][]byte {
	var events [][]byte
	for len(body) > 0 {
		i := bytes.Index(body, []byte("\n\n"))
		if i < 0 {
			return append(events, body)
		}
		events = append(events, body[:i+2])
		body = body[i+2:]
	}
	return events
}

// recorder is the agent whose answer becomes the template: a task, three chunks of one artifact
// (the first opens it, the others append, the last says so), then COMPLETED.
type recorder struct{}

func (recorder) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		for i := range 3 {
			ev := a2a.NewArtifactUpdateEvent(ec, "answer", a2a.NewTextPart(chunkMarker))
			ev.Append, ev.LastChunk = i > 0, i == 2
			if i == 0 {
				ev.Artifact.Name = "answer"
			}
			if !yield(ev, nil) {
				return
			}
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (recorder) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}
