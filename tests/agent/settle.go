package agent

import (
	"context"
	"iter"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// a2asrv v2.4.0 stores a turn's INPUT_REQUIRED status a moment before it releases the turn's
// execution, so a client that polls and answers at once can be refused with "task execution is
// already in progress". settleHandler makes a follow-up message wait for that release instead,
// as a server without the race would behave. Only refused follow-ups are retried: nothing ran.
type settleHandler struct {
	a2asrv.RequestHandler
}

const (
	settlePause = 5 * time.Millisecond
	settleLimit = 2 * time.Second
)

func inProgress(err error) bool {
	return err != nil && strings.Contains(err.Error(), "already in progress")
}

func isFollowUp(req *a2a.SendMessageRequest) bool {
	return req != nil && req.Message != nil && req.Message.TaskID != ""
}

// settle waits before the next try; it reports false once the limit or ctx ends the retries.
func settle(ctx context.Context, deadline time.Time) bool {
	if time.Now().After(deadline) {
		return false
	}
	t := time.NewTimer(settlePause)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// SendMessage implements [a2asrv.RequestHandler].
func (h settleHandler) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	deadline := time.Now().Add(settleLimit)
	for {
		res, err := h.RequestHandler.SendMessage(ctx, req)
		if !isFollowUp(req) || !inProgress(err) || !settle(ctx, deadline) {
			return res, err
		}
	}
}

// SendStreamingMessage implements [a2asrv.RequestHandler].
func (h settleHandler) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		deadline := time.Now().Add(settleLimit)
		for {
			refused := false
			first := true
			for ev, err := range h.RequestHandler.SendStreamingMessage(ctx, req) {
				if first && isFollowUp(req) && inProgress(err) {
					refused = true
					break
				}
				first = false
				if !yield(ev, err) {
					return
				}
			}
			if !refused {
				return
			}
			if !settle(ctx, deadline) {
				yield(nil, a2a.ErrInternalError)
				return
			}
		}
	}
}
