package tests

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
)

// actsAnswers are the answers of ACTS's client parsing tests (tests/testdata/acts-client-parsing.json).
type actsAnswer struct {
	Operation string          `json:"operation"`
	Answer    json.RawMessage `json:"answer"`
}

func readActsAnswers(t *testing.T) map[string]actsAnswer {
	t.Helper()
	data, err := os.ReadFile("testdata/acts-client-parsing.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	out := map[string]actsAnswer{}
	for id, raw := range all {
		var a actsAnswer
		if strings.HasPrefix(id, "CLIENT-") && json.Unmarshal(raw, &a) == nil {
			out[id] = a
		}
	}
	return out
}

// actsParsingAgent answers as ACTS's tests say: the Work's instruction names the test; a
// send_message test's answer is the answer to SendMessage, a get_task test's the answer to
// GetTask, after a SendMessage answered with its task, working. Each answer is sent as the test
// writes it, its JSON-RPC id included.
func actsParsingAgent(t *testing.T, answers map[string]actsAnswer) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "agent-card.json") {
			_, _ = io.WriteString(w, `{"name":"acts","description":"ACTS client parsing","version":"1","capabilities":{},"defaultInputModes":["text/plain"],
				"defaultOutputModes":["text/plain"],"skills":[],"supportedInterfaces":[{"url":"`+srv.URL+`/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ID      string `json:"id"`
				Message struct {
					Parts []struct{ Text string } `json:"parts"`
				} `json:"message"`
			} `json:"params"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		test := ""
		if len(req.Params.Message.Parts) > 0 {
			test = req.Params.Message.Parts[0].Text
		}
		for id, a := range answers { // a GetTask names the task, whose id the SendMessage gave
			if req.Method == "GetTask" && strings.Contains(string(a.Answer), `"`+req.Params.ID+`"`) {
				test = id
			}
		}
		a, ok := answers[test]
		switch {
		case !ok:
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"error":{"code":-32601,"message":"no such ACTS test"}}`)
		case a.Operation == "send_message" || req.Method == "GetTask":
			_, _ = w.Write(a.Answer)
		default: // a get_task test's SendMessage: its task, working
			task, context := actsTaskOf(a)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"task":{"id":"`+task+`","contextId":"`+context+`","status":{"state":"TASK_STATE_WORKING"}}}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// actsTaskOf is the task a get_task test's answer is about (its result's, or its error's data's)
// and its context.
func actsTaskOf(a actsAnswer) (task, context string) {
	var answer struct {
		Result struct {
			ID        string `json:"id"`
			ContextID string `json:"contextId"`
		} `json:"result"`
		Error struct {
			Data struct {
				TaskID string `json:"taskId"`
			} `json:"data"`
		} `json:"error"`
	}
	_ = json.Unmarshal(a.Answer, &answer)
	if answer.Result.ID != "" {
		return answer.Result.ID, answer.Result.ContextID
	}
	return answer.Error.Data.TaskID, "ctx"
}

// TestClientParsesActsAnswers: every answer of ACTS's client parsing tests (CLIENT-PARSE-001 to
// 006) is read as the test expects, natively and in the module: a completed task's artifact, a
// message reply, a task read by GetTask (its history no bar), an error's code and words, a
// question, and four artifacts of four kinds (the file ones in a shape A2A 1.0 does not write).
func TestClientParsesActsAnswers(t *testing.T) {
	t.Parallel()
	answers := readActsAnswers(t)
	if len(answers) != 6 {
		t.Fatalf("%d ACTS answers, want CLIENT-PARSE-001 to 006", len(answers))
	}
	srv := actsParsingAgent(t, answers)
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + "/.well-known/agent-card.json", PollInterval: a2aport.MinPollInterval, RecoveryAttempts: -1})
			ctx := testContext(t)
			submit := func(test string) (a2aport.Outcome, []a2aport.Event, error) {
				rec := newRecorder()
				r := await(ctx, t, submitAsync(ctx, p, newWork("alice", test), rec))
				return r.out, rec.all(), r.err
			}
			if out, _, err := submit("CLIENT-PARSE-001"); err != nil || out.Text() != "hello world" || len(out.Artifacts) != 1 {
				t.Errorf("001: %q %+v, %v", out.Text(), out.Artifacts, err)
			}
			if out, _, err := submit("CLIENT-PARSE-002"); err != nil || !out.MessageReply || out.Content != "I can help with that" {
				t.Errorf("002: %+v, %v", out, err)
			}
			if out, _, err := submit("CLIENT-PARSE-003"); err != nil || len(out.Artifacts) != 2 || out.Text() != "result text" ||
				out.Artifacts[1].Parts[0].Type != a2aport.PartData {
				t.Errorf("003: %q %+v, %v", out.Text(), out.Artifacts, err)
			}
			if _, _, err := submit("CLIENT-PARSE-004"); !errors.Is(err, a2aport.ErrProtocolError) || !strings.Contains(err.Error(), "not found") {
				t.Errorf("004: %v, want the agent's error in its words", err)
			}
			w := newWork("alice", "CLIENT-PARSE-005")
			rec := newRecorder()
			done := submitAsync(ctx, p, w, rec)
			if ev, _ := rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested)); ev.Input.Prompt != "Please provide more details" {
				t.Errorf("005: question %+v", ev.Input)
			}
			_, _ = p.Cancel(ctx, w.ID, w.OwnerID)
			await(ctx, t, done)
			out, _, err := submit("CLIENT-PARSE-006")
			if err != nil || len(out.Artifacts) != 4 {
				t.Fatalf("006: %+v, %v", out.Artifacts, err)
			}
			kinds := map[string]a2aport.Part{}
			for _, a := range out.Artifacts {
				if len(a.Parts) == 1 {
					kinds[a.ID] = a.Parts[0]
				}
			}
			if kinds["art-text"].Text != "Plain text result" || kinds["art-data"].Type != a2aport.PartData ||
				kinds["art-file"].Type != a2aport.PartRaw || string(kinds["art-file"].Raw) != "%PDF-1.4" || kinds["art-file"].MediaType != "application/pdf" ||
				kinds["art-url"].URL != "https://example.com/report.pdf" || kinds["art-url"].Filename != "report.pdf" {
				t.Errorf("006: parts %+v", kinds)
			}
		})
	}
}
