package demoagent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"path"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// errStopping ends the executions that are still running when the server shuts down.
var errStopping = errors.New("the demo server is shutting down")

// demoAgent is the executor of the embedded demo agent. It writes short markdown reports,
// compares two things, reviews attached files, asks when a request is ambiguous, and fails on
// request; see the skills on its card (cards.go) for how a request is read.
type demoAgent struct {
	pace     time.Duration   // pause before each chunk of a report; long reports wait longPace
	longPace time.Duration   // pause before each chunk of a long ("slow") report
	stopping <-chan struct{} // closed when the server shuts down
	memory   *topicMemory    // the last topic of each context, for conversation continuity
}

var _ a2asrv.AgentExecutor = (*demoAgent)(nil)

// Default pauses between the chunks of a report.
const (
	DefaultPace     = 250 * time.Millisecond
	DefaultLongPace = 1500 * time.Millisecond
)

func newDemoAgent(stopping <-chan struct{}, pace, longPace time.Duration) *demoAgent {
	return &demoAgent{
		pace:     cmp.Or(pace, DefaultPace),
		longPace: cmp.Or(longPace, DefaultLongPace),
		stopping: stopping,
		memory:   newTopicMemory(1000),
	}
}

// Execute implements [a2asrv.AgentExecutor]: one turn of a task, its first message or the
// user's answer to a question.
func (a *demoAgent) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		t := &turn{agent: a, ctx: ctx, ec: ec, yield: yield}
		t.play()
	}
}

// Cancel implements [a2asrv.AgentExecutor]. a2asrv delivers the CANCELED status to the running
// execution and then cancels its context, which ends the turn's pause.
func (a *demoAgent) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, agentText(ec, "Cancelled at your request.")), nil)
	}
}

// turn is one execution of the agent.
type turn struct {
	agent *demoAgent
	ctx   context.Context
	ec    *a2asrv.ExecutorContext
	yield func(a2a.Event, error) bool
}

func (t *turn) play() {
	c := t.conversation()
	j := plan(c)
	if !t.begin("Reading your request") {
		return
	}
	switch j.kind {
	case jobAsk:
		t.emit(t.status(a2a.TaskStateInputRequired, j.question))
	case jobFail:
		if t.pause(t.agent.pace) {
			t.emit(t.status(a2a.TaskStateFailed, "I could not finish this: the request asked me to fail. "+
				"(The demo agent fails on purpose when a request contains the word “fail”.)"))
		}
	case jobFiles:
		t.reviewFiles(j, c)
	case jobCompare:
		t.writeReport(compareReport(j, c), j.long, j.pair[0]+" vs "+j.pair[1])
	default:
		t.writeReport(briefReport(j, c), j.long, j.topic)
	}
}

// conversation gathers the user's messages of the task: the request, the answers, the files.
func (t *turn) conversation() conversation {
	msgs := []*a2a.Message{t.ec.Message}
	if t.ec.StoredTask != nil {
		msgs = msgs[:0]
		seen := false
		for _, m := range t.ec.StoredTask.History {
			if m != nil && m.Role == a2a.MessageRoleUser {
				msgs = append(msgs, m)
				seen = seen || m.ID == t.ec.Message.ID
			}
		}
		if !seen {
			msgs = append(msgs, t.ec.Message)
		}
	}
	c := conversation{earlier: t.agent.memory.get(t.ec.ContextID), bearer: hasBearer(t.ec)}
	for i, m := range msgs {
		text, files := split(m)
		if i == 0 {
			c.request = text
		} else {
			c.answers = append(c.answers, text)
		}
		c.files = append(c.files, files...)
	}
	return c
}

// split separates a message into its text (text parts joined by newlines) and its other parts.
func split(m *a2a.Message) (string, []*a2a.Part) {
	var texts []string
	var files []*a2a.Part
	for _, p := range m.Parts {
		if p == nil {
			continue
		}
		if text, ok := p.Content.(a2a.Text); ok {
			texts = append(texts, string(text))
		} else {
			files = append(files, p)
		}
	}
	return strings.TrimSpace(strings.Join(texts, "\n")), files
}

func hasBearer(ec *a2asrv.ExecutorContext) bool {
	values, _ := ec.ServiceParams.Get("authorization")
	for _, v := range values {
		if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
			return true
		}
	}
	return false
}

// writeReport streams r one section at a time, each announced by a status message.
func (t *turn) writeReport(r report, long bool, topic string) {
	pace := t.agent.pace
	if long {
		pace = t.agent.longPace
	}
	n := len(r.sections)
	for i, s := range r.sections {
		if !t.emit(t.status(a2a.TaskStateWorking, fmt.Sprintf("Writing section %d of %d: %s", i+1, n, s.title))) || !t.pause(pace) {
			return
		}
		part := a2a.NewTextPart(r.chunk(i))
		part.MediaType = "text/markdown"
		ev := t.artifact("report", "report.md", "The report, in markdown", part)
		ev.Append, ev.LastChunk = i > 0, i == n-1
		if !t.emit(ev) {
			return
		}
	}
	t.agent.memory.put(t.ec.ContextID, topic)
	t.emit(t.status(a2a.TaskStateCompleted, fmt.Sprintf("Report ready: %d sections, %d words.", n, r.words())))
}

// reviewFiles describes every attachment, then adds thumbnails, linked images and a CSV.
func (t *turn) reviewFiles(j job, c conversation) {
	files := describeFiles(c.files)
	r := filesReport(j, c, files)
	if !t.emit(t.status(a2a.TaskStateWorking, "Reviewing "+plural(len(files), "attachment"))) {
		return
	}
	for i, f := range files {
		if !t.emit(t.status(a2a.TaskStateWorking, fmt.Sprintf("Looking at %s (%d of %d)", f.name, i+1, len(files)))) || !t.pause(t.agent.pace) {
			return
		}
		part := a2a.NewTextPart(r.chunk(i))
		part.MediaType = "text/markdown"
		ev := t.artifact("attachments", "attachments.md", "What the agent found in your attachments", part)
		ev.Append, ev.LastChunk = i > 0, i == len(files)-1
		if !t.emit(ev) {
			return
		}
	}
	for i, f := range files {
		var part *a2a.Part
		switch {
		case f.thumb != nil:
			part = a2a.NewRawPart(f.thumb)
			part.MediaType, part.Filename = "image/png", strings.TrimSuffix(f.name, path.Ext(f.name))+"-thumbnail.png"
		case f.kind == "link" && strings.HasPrefix(f.mime, "image/"):
			part = a2a.NewFileURLPart(a2a.URL(f.url), f.mime)
			part.Filename = f.name
		default:
			continue
		}
		if !t.emit(t.artifact(fmt.Sprintf("image-%d", i+1), "Image: "+f.name, "A preview of "+f.name, part)) {
			return
		}
	}
	if table, err := filesCSV(files); err == nil {
		part := a2a.NewRawPart(table)
		part.MediaType, part.Filename = "text/csv", "attachments.csv"
		if !t.emit(t.artifact("attachments-csv", "attachments.csv", "The review as a spreadsheet", part)) {
			return
		}
	}
	t.emit(t.status(a2a.TaskStateCompleted, filesSummary(files)))
}

// begin creates the task on its first turn, then reports WORKING with text.
func (t *turn) begin(text string) bool {
	if t.ec.StoredTask == nil && !t.emit(a2a.NewSubmittedTask(t.ec, t.ec.Message)) {
		return false
	}
	return t.emit(t.status(a2a.TaskStateWorking, text))
}

// emit yields events in order; false means nobody listens any more.
func (t *turn) emit(events ...a2a.Event) bool {
	for _, ev := range events {
		if !t.yield(ev, nil) {
			return false
		}
	}
	return true
}

// pause waits d, like a model thinking. It returns false when the task was cancelled or the
// server shuts down (then the task fails, so that no client waits for it).
func (t *turn) pause(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-t.ctx.Done():
		return false
	case <-t.agent.stopping:
		t.emit(t.status(a2a.TaskStateFailed, errStopping.Error()))
		return false
	}
}

func (t *turn) status(state a2a.TaskState, text string) *a2a.TaskStatusUpdateEvent {
	return a2a.NewStatusUpdateEvent(t.ec, state, agentText(t.ec, text))
}

func (t *turn) artifact(id, name, description string, parts ...*a2a.Part) *a2a.TaskArtifactUpdateEvent {
	ev := a2a.NewArtifactEvent(t.ec, parts...)
	ev.Artifact.ID, ev.Artifact.Name, ev.Artifact.Description = a2a.ArtifactID(id), name, description
	return ev
}

// agentText is a message from the agent with one text part.
func agentText(info a2a.TaskInfoProvider, text string) *a2a.Message {
	return a2a.NewMessageForTask(a2a.MessageRoleAgent, info, a2a.NewTextPart(text))
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
