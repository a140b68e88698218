package binding

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	v03 "github.com/a2aproject/a2a-go/a2a"
)

// corpus03 holds 0.3 events as a2a-go's 0.3 types marshal them inside a JSON-RPC result, and
// variations a server may send, each with whether the fast decoder is meant to take it.
func corpus03(t testing.TB) []corpusEvent {
	info := v03.TaskInfo{TaskID: "task-1", ContextID: "ctx-1"}
	text := v03.TextPart{Text: "héllo \"quoted\" \\ \u2028 line\nbreak"}
	first := v03.NewArtifactUpdateEvent(info, "art-1", v03.TextPart{Text: "one"}, text)
	first.LastChunk, first.Artifact.Name, first.Artifact.Description = true, "report", "a report"
	next := v03.NewArtifactUpdateEvent(info, "art-1", v03.TextPart{Text: "chunk"})
	next.Append = true
	withMeta := v03.NewArtifactUpdateEvent(info, "art-1", v03.TextPart{Text: "x", Metadata: map[string]any{"k": "v"}})
	mixed := v03.NewArtifactUpdateEvent(info, "art-2", v03.TextPart{Text: "t"}, v03.DataPart{Data: map[string]any{"n": 1.5}})
	stamp := time.Date(2026, 12, 3, 10, 0, 0, 123, time.UTC)
	done := v03.NewStatusUpdateEvent(info, v03.TaskStateCompleted, nil)
	done.Final, done.Status.Timestamp = true, &stamp
	task := v03.NewSubmittedTask(info, v03.NewMessage(v03.MessageRoleUser, v03.TextPart{Text: "hi"}))
	task.Artifacts = []*v03.Artifact{{ID: "a", Name: "n", Parts: v03.ContentParts{v03.TextPart{Text: "x"}}}}
	var events []corpusEvent
	for _, c := range []struct {
		ev   v03.Event
		fast bool
	}{
		{next, true},
		{first, true},
		{withMeta, false},
		{mixed, false},
		{v03.NewStatusUpdateEvent(info, v03.TaskStateWorking, v03.NewMessage(v03.MessageRoleAgent, v03.TextPart{Text: "working"})), true},
		{done, true},
		{v03.NewStatusUpdateEvent(info, v03.TaskStateInputRequired, v03.NewMessage(v03.MessageRoleAgent, v03.DataPart{Data: map[string]any{"q": 1}})), false},
		{task, true},
		{v03.NewSubmittedTask(info, v03.NewMessage(v03.MessageRoleUser, v03.FilePart{File: v03.FileURI{URI: "https://x"}})), false},
		{v03.NewMessage(v03.MessageRoleAgent, v03.TextPart{Text: "a message"}), true},
	} {
		result, err := json.Marshal(c.ev)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, corpusEvent{[]byte(`{"jsonrpc":"2.0","id":"1","result":` + string(result) + `}`), c.fast})
	}
	return append(events, handWritten{
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":null}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":null}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"kind":"text"}]}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"kind":"data","data":{}}]}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"\ud800 lone"}]}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","taskId":"t","contextId":"c","id":"ignored","role":"user","artifact":{"artifactId":"a","parts":[]}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"Kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"artifact-update","kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"}}}`, true},
		{`{"jsonrpc":"2.0","id":7,"result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found"}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":null}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"push","taskId":"t"}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"taskId":"t"}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"status-update","taskId":"t","contextId":"c","status":null,"final":false}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working","timestamp":"yesterday"}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working","message":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"x"}],"extensions":["u"]}}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"input-required","message":{"kind":"odd","messageId":"m","role":"robot","parts":[]}}}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"},"metadata":{"k":1}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"},"history":[null,{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"q"}]}],"artifacts":[{"artifactId":"a","name":"n","parts":[{"kind":"text","text":"x"}]},null]}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"task","id":"t","contextId":"c","history":[],"artifacts":[]}}`, true},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"},"metadata":{"k":"v"}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"x"}],"referenceTaskIds":["t"]}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"x"}]}} trailing`, false},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"kind\":\"message\",\"messageId\":\"m\x01\",\"role\":\"agent\",\"parts\":[]}}", false},
		{`not json`, false},
	}.events()...)
}

func checkFast03(t testing.TB, data []byte) {
	t.Helper()
	got, ok := decodeFast03(data)
	if !ok {
		return
	}
	want, err := decodeRPCEvent03(data)
	if err != nil {
		t.Fatalf("fast decoded what the full decoder refuses (%v): %s", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast decode = %#v\nfull       = %#v\nof %s", got, want, data)
	}
}

// FuzzDecodeFast03: for any bytes the 0.3 fast decoder accepts, its event is the full decoder's.
func FuzzDecodeFast03(f *testing.F) {
	for _, c := range corpus03(f) {
		f.Add(c.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast03(t, data)
	})
}
