package demoagent

import (
	"context"
	"errors"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

func TestPlan(t *testing.T) {
	t.Parallel()
	file := []*a2a.Part{a2a.NewRawPart([]byte("x"))}
	for _, tc := range []struct {
		name string
		c    conversation
		want job
	}{
		{"report", conversation{request: "Write a short report on ocean currents."}, job{kind: jobReport, topic: "ocean currents"}},
		{"long report", conversation{request: "A long report about the history of the web"}, job{kind: jobReport, topic: "history of the web", long: true}},
		{"slow", conversation{request: "slow: rivers of Europe"}, job{kind: jobReport, topic: "rivers of Europe", long: true}},
		{"too short", conversation{request: "hello"}, job{kind: jobAsk, question: AskTopic}},
		{"too short, answered", conversation{request: "hello", answers: []string{"tides"}}, job{kind: jobReport, topic: "tides"}},
		{"too short, blank answer", conversation{request: "hello", answers: []string{"  "}}, job{kind: jobAsk, question: AskTopicAgain}},
		{"more without a conversation", conversation{request: "more"}, job{kind: jobAsk, question: AskTopic}},
		{"more in a conversation", conversation{request: "more please", earlier: "glaciers"}, job{kind: jobReport, topic: "glaciers", more: true}},
		{"compare", conversation{request: "Compare tea and coffee"}, job{kind: jobCompare, pair: [2]string{"tea", "coffee"}}},
		{"compare mid-sentence", conversation{request: "I'd like to compare Go vs. Rust please"}, job{kind: jobCompare, pair: [2]string{"Go", "Rust"}}},
		{"compare what", conversation{request: "Please compare these"}, job{kind: jobAsk, question: AskPair}},
		{"compare, unclear answer", conversation{request: "compare", answers: []string{"no idea"}}, job{kind: jobAsk, question: AskPairAgain}},
		{"compare, answered", conversation{request: "compare", answers: []string{"no idea", "cats or dogs"}}, job{kind: jobCompare, pair: [2]string{"cats", "dogs"}}},
		{"long compare", conversation{request: "a long compare: trains versus planes"}, job{kind: jobCompare, pair: [2]string{"trains", "planes"}, long: true}},
		{"fail", conversation{request: "Please FAIL this task"}, job{kind: jobFail}},
		{"fail wins over files", conversation{request: "fail", files: file}, job{kind: jobFail}},
		{"failure is not fail", conversation{request: "Write about failure modes of bridges"}, job{kind: jobReport, topic: "failure modes of bridges"}},
		{"files", conversation{request: "What are these?", files: file}, job{kind: jobFiles, topic: "What are these"}},
		{"files, short", conversation{request: "hi", files: file}, job{kind: jobFiles, topic: "hi"}},
	} {
		if got := plan(tc.c); got != tc.want {
			t.Errorf("%s: plan(%q) = %+v, want %+v", tc.name, tc.c.request, got, tc.want)
		}
	}
}

func TestHumanSize(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0 bytes", 1: "1 byte", 999: "999 bytes", 1234: "1.2 KB (1,234 bytes)", 2_500_000: "2.5 MB (2,500,000 bytes)"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRecentStore(t *testing.T) {
	t.Parallel()
	ctx, _ := a2asrv.NewCallContext(context.Background(), nil)
	s := newRecentStore(2)
	task := func(id string) *a2a.Task {
		return &a2a.Task{ID: a2a.TaskID(id), ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}
	}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		if _, err := s.Create(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
	}
	// Tiers: {e} current, {c, d} previous; a and b are gone.
	for id, want := range map[string]bool{"a": false, "b": false, "c": true, "d": true, "e": true} {
		_, err := s.Get(ctx, a2a.TaskID(id))
		if got := err == nil; got != want {
			t.Errorf("Get(%s) error = %v, want found %v", id, err, want)
		}
	}
	updated := task("c")
	updated.Status.State = a2a.TaskStateCompleted
	if _, err := s.Update(ctx, &taskstore.UpdateRequest{Task: updated}); err != nil {
		t.Errorf("Update(c) in the previous tier: %v", err)
	}
	if _, err := s.Update(ctx, &taskstore.UpdateRequest{Task: task("a")}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("Update(a) = %v, want task not found", err)
	}
}
