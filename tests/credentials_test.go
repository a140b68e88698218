package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

const (
	secretToken  = "tok-5ecret-never-print"
	secretHeader = "hdr-5ecret-never-print"
)

// requestsTagged returns the requests the agent received that carry X-Test-Id: id.
func requestsTagged(id string) []agent.Request {
	var out []agent.Request
	for _, r := range server.Requests() {
		if r.Header.Get("X-Test-Id") == id {
			out = append(out, r)
		}
	}
	return out
}

func TestCredentialsReachEveryRequestAndNothingElse(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, _ context.Context, impl implementation, v agent.Variant) {
		id := fmt.Sprintf("%s-%d", t.Name(), workSeq.Add(1))
		var calls atomic.Int32
		p := newPort(t, impl, a2aport.Options{
			AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval, Token: secretToken,
			Headers: http.Header{"X-Static": {secretHeader}, "X-Test-Id": {id}},
			HeaderFunc: func(*http.Request) (http.Header, error) {
				return http.Header{"X-Dynamic": {fmt.Sprintf("dynamic-%d", calls.Add(1))}}, nil
			},
		})
		ctx := testContext(t)
		if _, err := p.Submit(ctx, newWork("alice", "complete with credentials")); err != nil {
			t.Fatal(err)
		}
		reqs := requestsTagged(id)
		if len(reqs) < 2 || reqs[0].A2AMethod != "" {
			t.Fatalf("tagged requests = %+v, want the card fetch then task requests", reqs)
		}
		seen := map[string]bool{}
		for _, r := range reqs {
			if got := r.Header.Get("Authorization"); got != "Bearer "+secretToken {
				t.Errorf("%s %s: Authorization = %q, want the bearer token", r.Method, r.Path, got)
			}
			if r.Header.Get("X-Static") != secretHeader {
				t.Errorf("%s %s: static header missing", r.Method, r.Path)
			}
			dyn := r.Header.Get("X-Dynamic")
			if dyn == "" || seen[dyn] {
				t.Errorf("%s %s: X-Dynamic = %q, want a fresh value per request", r.Method, r.Path, dyn)
			}
			seen[dyn] = true
		}
		d, _ := json.Marshal(p.Describe())
		var failures []string
		for _, instr := range []string{"fail now", "status500 now", "status401 now", "status429 now", "dropsend now",
			"badjson now", "wrongtype now", "rpcerror now", "breakstream now", "cutstream now"} {
			rec := newRecorder()
			out, err := p.Submit(ctx, newWork("alice", instr), a2aport.OnEvent(rec.record))
			if err != nil {
				failures = append(failures, err.Error())
			}
			events, _ := json.Marshal(rec.all())
			outcome, _ := json.Marshal(out)
			failures = append(failures, string(events), string(outcome))
		}
		for _, text := range append(failures, string(d)) {
			if strings.Contains(text, secretToken) || strings.Contains(text, secretHeader) {
				t.Errorf("credential leaked into %q", text)
			}
		}
	})
}

func TestAuthorizationHeaderWinsOverToken(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		id := fmt.Sprintf("%s-%d", t.Name(), workSeq.Add(1))
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), Token: secretToken,
			Headers: http.Header{"Authorization": {"Custom scheme-value"}, "X-Test-Id": {id}}})
		if _, err := p.Start(testContext(t)); err != nil {
			t.Fatal(err)
		}
		for _, r := range requestsTagged(id) {
			if got := r.Header.Get("Authorization"); got != "Custom scheme-value" {
				t.Errorf("%s: Authorization = %q, want the configured header", impl.name, got)
			}
		}
	}
}

func TestHeaderFuncFailure(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), Token: secretToken,
			HeaderFunc: func(*http.Request) (http.Header, error) { return nil, errors.New("token refresh failed") }})
		_, err := p.Start(testContext(t))
		if !errors.Is(err, a2aport.ErrHeadersFailed) || !strings.Contains(err.Error(), "token refresh failed") || strings.Contains(err.Error(), secretToken) {
			t.Errorf("%s: Start() = %v, want A2A_HEADERS_FAILED with the cause and no credential", impl.name, err)
		}
	}
}
