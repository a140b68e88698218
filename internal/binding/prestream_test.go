package binding

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/testkit/sdkagent"
)

// TestErrorBeforeTheStream: @a2a-js/sdk's server answers a streaming call that fails before its
// stream (a subscription to a task it does not have) with one JSON-RPC error in an
// application/json body, as a2aport's facade does for a client that takes JSON. a2aport's client
// gives that error, typed; read as an event stream, the body was no events and no error at all.
func TestErrorBeforeTheStream(t *testing.T) {
	peer := sdkagent.Start(t)
	resp, err := http.Get(peer.Cards["v1-jsonrpc-stream"])
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	var card a2a.AgentCard
	if err := json.Unmarshal(data, &card); err != nil {
		t.Fatal(err)
	}
	var iface *a2a.AgentInterface
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == a2a.TransportProtocolJSONRPC && i.ProtocolVersion == a2a.Version {
			iface = i
		}
	}
	if iface == nil {
		t.Fatalf("no 1.0 JSON-RPC interface on %s", data)
	}
	agent, err := NewAgent(&card, iface, &Client{Transport: http.DefaultTransport}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var got error
	events := 0
	for _, err := range agent.SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: "no-such-task"}) {
		if err != nil {
			got = err
			break
		}
		events++
	}
	if !errors.Is(got, a2a.ErrTaskNotFound) || events != 0 {
		t.Errorf("SubscribeToTask of an unknown task: %d events, error %v; want TaskNotFoundError", events, got)
	}
}
