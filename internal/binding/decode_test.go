package binding

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

// corpusEvent is an event payload and whether the fast decoder is meant to take it.
type corpusEvent struct {
	data []byte
	fast bool
}

// corpus holds event payloads as a2asrv's own encoder writes them (a2a types marshalled inside a
// JSON-RPC result), and variations a server may send.
func corpus(t testing.TB) []corpusEvent {
	info := a2a.TaskInfo{TaskID: "task-1", ContextID: "ctx-1"}
	text := a2a.NewTextPart("héllo \"quoted\" \\ \u2028 line\nbreak")
	text.MediaType, text.Filename = "text/markdown", "a.md"
	first := a2a.NewArtifactUpdateEvent(info, "art-1", a2a.NewTextPart("one"), text)
	first.Append, first.LastChunk, first.Artifact.Name, first.Artifact.Description = false, true, "report", "a report"
	withMeta := a2a.NewArtifactUpdateEvent(info, "art-1", a2a.NewTextPart("x"))
	withMeta.Metadata = map[string]any{"k": "v"}
	mixed := a2a.NewArtifactUpdateEvent(info, "art-2", a2a.NewTextPart("t"), a2a.NewRawPart([]byte{1, 2}), a2a.NewDataPart(map[string]any{"n": 1.5}))
	var events []corpusEvent
	for _, c := range []struct {
		ev   a2a.Event
		fast bool
	}{
		{a2a.NewArtifactUpdateEvent(info, "art-1", a2a.NewTextPart("chunk")), true},
		{first, true},
		{withMeta, false},
		{mixed, false},
		{a2a.NewStatusUpdateEvent(info, a2a.TaskStateWorking, a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("working"))), true},
		{a2a.NewStatusUpdateEvent(info, a2a.TaskStateCompleted, nil), true},
		{a2a.NewStatusUpdateEvent(info, a2a.TaskStateInputRequired, a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewDataPart(map[string]any{"q": 1}))), false},
		{a2a.NewSubmittedTask(info, a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hi"))), true},
		{a2a.NewSubmittedTask(info, a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"x": "y"}))), false},
		{a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("a message")), true},
	} {
		result, err := json.Marshal(a2a.StreamResponse{Event: c.ev})
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, corpusEvent{[]byte(`{"jsonrpc":"2.0","id":"1","result":` + string(result) + `}`), c.fast})
	}
	return append(events, handWritten{
		{`{"jsonrpc":"2.0","id":"1","result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":null}}}}`, true},
		{`{"jsonrpc":"2.0","id":null,"result":{"artifactUpdate":{"taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"a","parts":[{"text":""}]}}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found"}}`, false},
		{`{"jsonrpc":"2.0","id":7,"result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"x"}]}},"statusUpdate":{"taskId":"t"}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"x","raw":"AQ=="}]}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":null}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"\ud800 lone"}]}}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"ArtifactUpdate":{"TaskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":null}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}} trailing`, false},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"artifactUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\x01\",\"parts\":[]}}}}", false},
		{"{\"jsonrpc\":\"2.0\",\n\"id\":\"1\",\"result\":{\"artifactUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[]}}}}", false},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_UNSPECIFIED","timestamp":"2026-12-02T07:41:34.1+02:00"}}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING","timestamp":null,"message":{"messageId":"m","role":"ROLE_UNSPECIFIED","parts":[]}}}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":null}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING","timestamp":"yesterday"}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"metadata":{"k":1}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}],"extensions":["u"]}}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}},"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":null,"artifactUpdate":null}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"history":[null,{"messageId":"m","role":"ROLE_USER","parts":[{"text":"q"}]}],"artifacts":[{"artifactId":"a","name":"n","parts":[{"text":"x","mediaType":"text/plain"}]},null]}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t","contextId":"c","history":[],"artifacts":[]}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"metadata":{"k":"v"}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t","contextId":"c","artifacts":[{"artifactId":"a","parts":[{"raw":"AQ=="}]}]}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}],"referenceTaskIds":["t"]}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}]},"task":{"id":"t","contextId":"c"}}}`, false},
		{`not json`, false},
	}.events()...)
}

// handWritten are corpus events given as text.
type handWritten []struct {
	data string
	fast bool
}

func (h handWritten) events() []corpusEvent {
	out := make([]corpusEvent, len(h))
	for i, c := range h {
		out[i] = corpusEvent{[]byte(c.data), c.fast}
	}
	return out
}

// TestDecodeFastAgrees: whatever a fast decoder accepts, it decodes exactly as the reference
// does (1.0: a2a-go's own client; 0.3: the full decoder, held to a2a-go's 0.3 client in
// sdk_test.go); each accepts the events whose parts are all text and leaves everything else to
// the full decoder, which in 1.0 agrees with a2a-go on whatever a2a-go accepts.
func TestDecodeFastAgrees(t *testing.T) {
	t.Parallel()
	for _, v := range []struct {
		name   string
		corpus []corpusEvent
		check  func(testing.TB, []byte)
		fast   func([]byte) (a2a.Event, bool)
	}{
		{"1.0", corpus(t), checkAgainstSDK, decodeFast},
		{"0.3", corpus03(t), checkFast03, decodeFast03},
	} {
		for _, c := range v.corpus {
			v.check(t, c.data)
			if _, ok := v.fast(c.data); ok != c.fast {
				t.Errorf("%s: fast decoder ok = %v, want %v for %s", v.name, ok, c.fast, c.data)
			}
		}
	}
}

func checkAgainstSDK(t testing.TB, data []byte) {
	t.Helper()
	want, wantErr := decodeWithSDK(context.Background(), "http://127.0.0.1:1/a2a", data)
	if full, err := decodeRPCEvent(data); wantErr == nil && (err != nil || !reflect.DeepEqual(full, want)) {
		t.Fatalf("decodeRPCEvent = %#v, %v\na2a-go       = %#v\nof %s", full, err, want, data)
	}
	checkRESTAgainstFull(t, data)
	got, ok := decodeFast(data)
	if !ok {
		return
	}
	if wantErr != nil {
		t.Fatalf("fast decoded what a2a-go refuses (%v): %s", wantErr, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast decode = %#v\na2a-go     = %#v\nof %s", got, want, data)
	}
}

// checkRESTAgainstFull: the HTTP+JSON fast decoder, given the result of a JSON-RPC event (an
// HTTP+JSON event has the same shape), decodes it as the full decoder does.
func checkRESTAgainstFull(t testing.TB, data []byte) {
	var envelope struct{ Result json.RawMessage }
	if json.Unmarshal(data, &envelope) != nil || envelope.Result == nil {
		return
	}
	got, ok := decodeFastREST(envelope.Result)
	if !ok {
		return
	}
	want, err := decodeRESTEvent(envelope.Result)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("REST fast decode = %#v\nfull decoder     = %#v, %v\nof %s", got, want, err, envelope.Result)
	}
}

// FuzzDecodeFast: for any bytes the fast decoder accepts, its event is a2a-go's; for any bytes
// a2a-go accepts, the full decoder's event is a2a-go's.
func FuzzDecodeFast(f *testing.F) {
	for _, c := range corpus(f) {
		f.Add(c.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstSDK(t, data)
	})
}

// decodeWithSDK has a2a-go decode one event: its own transport reads the event's bytes as the
// whole stream of a request that never leaves the process.
func decodeWithSDK(ctx context.Context, url string, data []byte) (a2a.Event, error) {
	replay := &http.Client{Transport: replayedEvent(data)}
	for ev, err := range a2aclient.NewJSONRPCTransport(url, replay).SendStreamingMessage(ctx, nil, &a2a.SendMessageRequest{}) {
		return ev, err
	}
	return nil, fmt.Errorf("failed to parse SSE data: no event in %d bytes", len(data))
}

// replayedEvent answers any request with a stream of one event whose data is its bytes.
type replayedEvent []byte

func (data replayedEvent) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close() // an in-memory request body: nothing to report
	}
	var body bytes.Buffer
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		body.WriteString("data: ")
		body.Write(line)
		body.WriteByte('\n')
	}
	body.WriteByte('\n')
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {contentEventStream}},
		Body: io.NopCloser(&body), Request: req}, nil
}

// TestPlain: the word-at-a-time scan says what a byte-at-a-time one says, for every control
// character and high byte at every position of every length up to three words.
func TestPlain(t *testing.T) {
	t.Parallel()
	byteWise := func(data []byte) (ascii, ok bool) {
		ascii = true
		for _, c := range data {
			if c < 0x20 {
				return false, false
			}
			ascii = ascii && c < 0x80
		}
		return ascii, true
	}
	for n := 0; n <= 24; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				data := []byte(strings.Repeat("a", n))
				data[pos] = byte(c)
				gotASCII, gotOK := plain(data)
				if wantASCII, wantOK := byteWise(data); gotASCII != wantASCII || gotOK != wantOK {
					t.Fatalf("plain(%q) = %v, %v; want %v, %v", data, gotASCII, gotOK, wantASCII, wantOK)
				}
			}
		}
	}
}
