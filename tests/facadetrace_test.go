package tests

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/facade"
)

// TestFacadePassesTraceparentOn: a caller's W3C trace context reaches the agent behind the facade's
// Port on the Work's requests; one that is not valid is dropped, and the task still runs.
func TestFacadePassesTraceparentOn(t *testing.T) {
	t.Parallel()
	endpoint := strings.TrimSuffix(serveFacade(t, innerPort(t), facade.Options{Name: "traced"}), facade.CardPath) + facade.EndpointPath
	for _, c := range []struct{ name, traceparent, instruction string }{
		{"valid", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "complete traced through the facade"},
		{"all zeros", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "complete with a zero trace"},
	} {
		body := `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"` + c.name + `","role":"ROLE_USER","parts":[{"text":"` + c.instruction + `"}]}}}`
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		req.Header.Set("traceparent", c.traceparent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if !strings.Contains(string(answer), "echo: "+c.instruction) {
			t.Errorf("%s: %s", c.name, answer)
		}
		reached, carried := false, ""
		for _, r := range server.Requests() {
			if r.A2AMethod == "SendMessage" || r.A2AMethod == "SendStreamingMessage" {
				if strings.Contains(r.Header.Get("traceparent"), "4bf92f3577b34da6a3ce929d0e0e4736") || strings.Contains(r.Header.Get("traceparent"), "00000000000000000000000000000000") {
					carried = r.Header.Get("traceparent")
				}
				reached = true
			}
		}
		switch {
		case !reached:
			t.Errorf("%s: no send reached the agent", c.name)
		case c.name == "valid" && carried != c.traceparent:
			t.Errorf("%s: the agent saw traceparent %q", c.name, carried)
		case c.name == "all zeros" && strings.Contains(carried, "0000000000000000000000000000000"):
			t.Errorf("%s: an invalid traceparent was passed on", c.name)
		}
	}
}

// TestFacadeClusterResumeKeepsTrace: in cluster mode the answer to a question runs on whichever
// node takes it: the node that asked, whose Work sends it with the asking request's trace, or
// another, which re-attaches its Port to the Work and sends it with the answering request's trace
// (it sent none). Three questions, so that both ways are likely taken: every message that reaches
// the agent carries one of its task's traces.
func TestFacadeClusterResumeKeepsTrace(t *testing.T) {
	t.Parallel()
	cards := facadeNodes(t, true, 2)
	client := &http.Client{Timeout: testTimeout} // a request the cluster never answers fails the test, not the run
	post := func(card, traceparent, body string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(card, facade.CardPath)+facade.EndpointPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		req.Header.Set("Authorization", "Bearer tracer-token")
		req.Header.Set("traceparent", traceparent)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		return string(answer)
	}
	run := rand.Uint32() // this run's traces, apart from another run's on the shared agent (-count)
	trace := func(round int, who string) string {
		return fmt.Sprintf("00-%s%08x%022d-00f067aa0ba902b7-01", who, run, round)
	}
	for round := range 3 {
		asking, answering := trace(round, "aa"), trace(round, "bb")
		instruction := fmt.Sprintf("input for a traced answer across nodes %d", round)
		first := post(cards[0], asking, `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"q1","role":"ROLE_USER","parts":[{"text":"`+instruction+`"}]}}}`)
		if !strings.Contains(first, "INPUT_REQUIRED") {
			t.Fatalf("the question: %s", first)
		}
		_, rest, _ := strings.Cut(first, `"id":"`)
		task, _, _ := strings.Cut(rest, `"`)
		second := post(cards[1], answering, `{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"q2","taskId":"`+task+`","role":"ROLE_USER","parts":[{"text":"the answer"}]}}}`)
		if !strings.Contains(second, "TASK_STATE_COMPLETED") {
			t.Fatalf("the answer on the other node: %s", second)
		}
	}
	messages := map[string]int{} // of this test's rounds, by the trace they carried
	for _, r := range server.Requests() {
		if r.A2AMethod != "SendMessage" && r.A2AMethod != "SendStreamingMessage" {
			continue
		}
		for round := range 3 {
			for _, who := range []string{"aa", "bb"} {
				if r.Header.Get("traceparent") == trace(round, who) {
					messages[who]++
				}
			}
		}
	}
	if messages["aa"]+messages["bb"] != 6 {
		t.Errorf("of 6 messages (3 questions, 3 answers), %d carried the asking request's trace and %d the answering one's", messages["aa"], messages["bb"])
	}
}
