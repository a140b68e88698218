package facade

import (
	"context"
	"maps"
	"slices"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"

	"github.com/a2aport/a2aport/internal/a2asrvx"
)

// An emitter hands an execution's events to a2asrv. For a new task whose caller waits for its end
// (a blocking send, foldable) it first folds them into the task it yields first: what the Work did
// before the execution would wait for it (a quick Work: all of it, its end too) is one event of
// a2asrv's, the task, where each event is several copies of the whole task by a2asrv
// (encoding/gob, per event: half the CPU of a gateway's trivial task). The caller gets the same
// task. A streaming caller, or one that asked for pushes, gets every event as it was: a stream of
// one task is valid A2A, but clients that read a stream's artifact updates alone are common.
type emitter struct {
	yield   func(a2a.Event, error) bool
	first   *a2a.Task // the new task, not yielded yet, with the events so far folded in; nil: none
	folded  int
	stopped bool // yield returned false: it is not called again
}

// foldKey is the request metadata by which blockingSends tells the execution of a new task that
// its caller waits for the task's end alone. A caller cannot set it: blockingSends decides it for
// every send.
const foldKey = "a2aport.facade/fold"

// blockingSends marks the sends whose new task may be folded (foldKey): a blocking SendMessage
// without pushes. Any other request loses the mark, whoever set it.
type blockingSends struct {
	a2asrv.PassthroughCallInterceptor
}

func (blockingSends) Before(ctx context.Context, call *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	send, ok := payloadOf(req).(*a2a.SendMessageRequest)
	if !ok || send == nil {
		return ctx, nil, nil
	}
	fold := call.Method() == "SendMessage" && (send.Config == nil || !send.Config.ReturnImmediately && send.Config.PushConfig == nil)
	if _, marked := send.Metadata[foldKey]; marked || fold {
		meta := maps.Clone(send.Metadata)
		delete(meta, foldKey)
		if fold {
			if meta == nil {
				meta = map[string]any{}
			}
			meta[foldKey] = true
		}
		send.Metadata = meta
	}
	return ctx, nil, nil
}

// foldable reports whether ec's new task may be folded: its send was marked (blockingSends), and
// the facade runs in one process. In a cluster the task is stored at once, as before: a node
// killed while its Work runs leaves the task to another node, which resumes the Work without
// sending its message again only when it finds the task stored.
func (e *executor) foldable(ec *a2asrv.ExecutorContext) bool {
	fold, _ := ec.Metadata[foldKey].(bool)
	return fold && e.events == nil
}

// maxFolded bounds the events folded into the first task, so that a Work whose events never let
// the execution wait still shows its task early.
const maxFolded = 256

// emit yields ev or err, or folds ev into the first task.
func (em *emitter) emit(ev a2a.Event, err error) bool {
	if em.first != nil && err == nil && em.folded < maxFolded && fold(em.first, ev) {
		em.folded++
		return true
	}
	return em.flush() && em.send(ev, err)
}

// idle is what the execution does before it first waits for the Work (portRun.next): yield the
// first task; nil once there is none, so that an execution that folds nothing pays nothing.
func (em *emitter) idle() func() bool {
	if em.first == nil {
		return nil
	}
	return em.flush
}

// flush yields the first task, once; it reports whether the execution may go on.
func (em *emitter) flush() bool {
	if em.first != nil {
		task := em.first
		em.first = nil
		a2asrvx.Tidy(&taskstore.UpdateRequest{Task: task}) // the history bounded, as an update's
		return em.send(task, nil)
	}
	return !em.stopped
}

func (em *emitter) send(ev a2a.Event, err error) bool {
	if em.stopped {
		return false
	}
	em.stopped = !em.yield(ev, err)
	return !em.stopped
}

// fold applies a status or artifact update to task as a2asrv would store it (a2asrvx.Tidy's
// reading included: appended text continues the text before it); it reports false for any other
// event, which is not folded.
func fold(task *a2a.Task, ev a2a.Event) bool {
	switch ev := ev.(type) {
	case *a2a.TaskStatusUpdateEvent:
		if len(ev.Metadata) > 0 {
			return false
		}
		if task.Status.Message != nil {
			task.History = append(task.History, task.Status.Message)
		}
		task.Status = ev.Status
		return true
	case *a2a.TaskArtifactUpdateEvent:
		if ev.Artifact == nil || len(ev.Artifact.Parts) == 0 || len(ev.Metadata) > 0 || len(ev.Artifact.Metadata) > 0 {
			return false
		}
		i := slices.IndexFunc(task.Artifacts, func(a *a2a.Artifact) bool { return a.ID == ev.Artifact.ID })
		if i < 0 || !ev.Append {
			art := *ev.Artifact
			art.Parts = slices.Clone(art.Parts)
			if i < 0 {
				task.Artifacts = append(task.Artifacts, &art)
			} else {
				task.Artifacts[i] = &art
			}
			return true
		}
		task.Artifacts[i].Parts = append(task.Artifacts[i].Parts, ev.Artifact.Parts...)
		a2asrvx.Tidy(&taskstore.UpdateRequest{Task: task, Event: ev})
		return true
	}
	return false
}
