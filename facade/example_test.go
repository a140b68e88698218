package facade_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// A remote agent behind a facade: the facade serves the adapter's Port as an A2A agent of its
// own, and a2aport's adapter, as any A2A client would, sends it a Work.
func ExampleNew() {
	upstream, err := agent.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer upstream.Close()
	port, err := adapter.New(a2aport.Options{AgentCardURL: upstream.CardURL(agent.Variants()[0])})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = port.Close() }()

	server := httptest.NewUnstartedServer(nil)
	handler, err := facade.New(port, facade.Options{BaseURL: "http://" + server.Listener.Addr().String(), Name: "Gateway"})
	if err != nil {
		fmt.Println(err)
		return
	}
	server.Config = facade.NewServer(handler)
	server.Start()
	defer server.Close()

	client, err := adapter.New(a2aport.Options{AgentCardURL: server.URL + facade.CardPath})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = client.Close() }()
	out, err := client.Submit(context.Background(), a2aport.Work{ID: "w1", OwnerID: "alice", Instruction: "complete through the gateway"})
	fmt.Printf("%q %v\n", out.Content, err)
	fmt.Println(client.Describe().Label)
	// Output:
	// "done\n\necho: complete through the gateway" <nil>
	// Gateway
}
