package funcport_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
)

// A Port of your own, served as an A2A agent: a function that shouts, answered through a2a-go's
// own client.
func ExampleNew() {
	port := funcport.New(func(ctx context.Context, w a2aport.Work, t *funcport.Turn) (a2aport.Outcome, error) {
		t.Working("shouting")
		t.AppendText("shout", "shout", strings.ToUpper(w.Instruction))
		return a2aport.Outcome{Content: "shouted"}, nil
	}, funcport.Options{Label: "shouter"})
	defer func() { _ = port.Close() }()

	server := httptest.NewUnstartedServer(nil)
	handler, err := facade.New(port, facade.Options{BaseURL: "http://" + server.Listener.Addr().String()})
	if err != nil {
		fmt.Println(err)
		return
	}
	server.Config = facade.NewServer(handler)
	server.Start()
	defer server.Close()

	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, server.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	client, err := a2aclient.NewFromCard(ctx, card)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))})
	if err != nil {
		fmt.Println(err)
		return
	}
	task := res.(*a2a.Task)
	fmt.Println(card.Name, task.Status.State, task.Artifacts[0].Parts[0].Text())
	// Output:
	// shouter TASK_STATE_COMPLETED HELLO
}
