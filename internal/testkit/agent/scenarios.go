package agent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Scenario timings and limits; every wait of a scenario is bounded.
const (
	holdLimit    = 60 * time.Second
	authLimit    = 60 * time.Second
	maxSlow      = 10 * time.Second
	defaultSlow  = 500 * time.Millisecond
	cutDelay     = 200 * time.Millisecond
	lingerFor    = 400 * time.Millisecond // lingerinput: after its question, before its turn returns
	breakAfter   = 3                      // breakstream: data events before the connection drops
	stallAfter   = 2                      // stallstream: data events before the stream goes silent
	dripPieces   = 4                      // slowdrip: pieces of each event
	dripGap      = 15 * time.Millisecond  // slowdrip: between two pieces
	breakChunks  = 12                     // breakstream: chunks of its answer
	breakPace    = 40 * time.Millisecond  // breakstream: between two chunks
	maxChunks    = 100
	defaultChunk = 3
	maxBig       = 8 << 20
)

// scenarios maps the first word of a task's instruction to its script.
// emptystream and status500 are transport faults (see faults.go): they only
// reach the executor on requests the fault leaves alone, and then complete.
var scenarios = map[string]func(*turn){
	"complete":    complete,
	"chunks":      chunks,
	"paced":       paced,
	"hold":        hold,
	"holdsend":    hold, // the answer is held back (faults.go)
	"slow":        slow,
	"input":       input,
	"lingerinput": lingerinput,
	"auth":        auth,
	"fail":        fail,
	"reject":      reject,
	"message":     message,
	"context":     contextEcho,
	"artifacts":   artifacts,
	"files":       files,
	"cutstream":   cutstream,
	"breakstream": breakstream,
	"stallstream": breakstream, // the same paced report; the fault differs
	"stallfirst":  breakstream,
	"slowdrip":    breakstream,
	"big":         big,
	"padded":      padded,
	"long":        long,
	"many":        many,
	"named":       named,
}

func scenarioFor(word string) func(*turn) {
	if run, ok := scenarios[word]; ok {
		return run
	}
	return complete
}

func complete(t *turn) {
	if t.start("working") {
		t.emit(t.artifact("result", "result", a2a.NewTextPart("echo: "+t.instruction)), t.done())
	}
}

// big sends one artifact of N bytes of text in a single event: one large SSE event for stream
// readers (default 1 MiB).
func big(t *turn) {
	n := intArg(t.args, 1<<20, 1, maxBig)
	if t.start("working") {
		t.emit(t.artifact("big", "big", a2a.NewTextPart(strings.Repeat("x", n))), t.done())
	}
}

// long streams N chunks of one report (default 2,000, at most 20,000), a millisecond apart every
// ten chunks: a stream that lasts long enough for a proxy to cut it many times.
func long(t *turn) {
	n := intArg(t.args, 2000, 1, 20000)
	if !t.start("working") {
		return
	}
	for i := 1; i <= n; i++ {
		if i%10 == 0 {
			if err := t.pause(time.Millisecond); err != nil {
				t.abort(err)
				return
			}
		}
		ev := t.artifact("report", "report", a2a.NewTextPart(fmt.Sprintf("part-%d ", i)))
		ev.Append, ev.LastChunk = i > 1, i == n
		if !t.emit(ev) {
			return
		}
	}
	t.emit(t.done())
}

// padded streams TEXT with white space of three kinds around it, in two chunks, and completes
// without a status message: the content is the answer trimmed, the artifact the answer as sent.
func padded(t *turn) {
	if !t.start("working") {
		return
	}
	first := t.artifact("answer", "answer", a2a.NewTextPart("\n\u3000 "+t.args))
	rest := t.artifact("answer", "answer", a2a.NewTextPart(" \n"))
	rest.Append, rest.LastChunk = true, true
	t.emit(first, rest, a2a.NewStatusUpdateEvent(t.ec, a2a.TaskStateCompleted, nil))
}

// many sends K artifacts (default 5, at most 100,000) of N bytes of text each (default 1,000, at
// most 1 MiB), then completes.
func many(t *turn) {
	fields := strings.Fields(t.args)
	k, n := 5, 1000
	if len(fields) > 0 {
		k = intArg(fields[0], k, 1, 100_000)
	}
	if len(fields) > 1 {
		n = intArg(fields[1], n, 1, 1<<20)
	}
	if !t.start("working") {
		return
	}
	for i := range k {
		id := fmt.Sprintf("a%d", i)
		if !t.emit(t.artifact(id, id, a2a.NewTextPart(fmt.Sprintf("%0*d", n, i)))) {
			return
		}
	}
	t.emit(t.done())
}

// named sends one artifact of three bytes whose file name is the rest of the instruction, as a
// hostile agent would name a download.
func named(t *turn) {
	raw := a2a.NewRawPart([]byte{1, 2, 3})
	raw.MediaType, raw.Filename = "application/octet-stream", t.args
	if t.start("working") {
		t.emit(t.artifact("file", "file", raw), t.done())
	}
}

func chunks(t *turn) {
	report(t, intArg(t.args, defaultChunk, 1, maxChunks), 0)
}

// paced streams N chunks (default 10, at most 100) MS milliseconds apart (default 100, at most
// 1,000): an answer long enough to stop a gateway's node in the middle of it.
func paced(t *turn) {
	n := intArg(t.args, 10, 1, maxChunks)
	ms := 100
	if fields := strings.Fields(t.args); len(fields) > 1 {
		ms = intArg(fields[1], ms, 1, 1000)
	}
	report(t, n, time.Duration(ms)*time.Millisecond)
}

// report streams n chunks "part-i " of one artifact, pace apart, then completes.
func report(t *turn, n int, pace time.Duration) {
	if !t.start("working") {
		return
	}
	for i := 1; i <= n; i++ {
		if pace > 0 {
			if err := t.pause(pace); err != nil {
				t.abort(err)
				return
			}
		}
		ev := t.artifact("report", "report", a2a.NewTextPart(fmt.Sprintf("part-%d ", i)))
		ev.Append = i > 1
		ev.LastChunk = i == n
		if !t.emit(ev) {
			return
		}
	}
	t.emit(t.done())
}

func hold(t *turn) {
	if !t.start("holding") {
		return
	}
	if err := t.pause(holdLimit); err != nil {
		t.abort(err)
		return
	}
	t.emit(t.status(a2a.TaskStateFailed, "held too long"))
}

func slow(t *turn) {
	ms := intArg(t.args, int(defaultSlow/time.Millisecond), 0, int(maxSlow/time.Millisecond))
	delayedResult(t, time.Duration(ms)*time.Millisecond, "slow done")
}

// cutstream's stream is cut by a transport fault (faults.go); the task
// itself finishes shortly afterwards so that polling sees it complete.
func cutstream(t *turn) {
	delayedResult(t, cutDelay, "after cut")
}

// breakstream streams breakChunks chunks of one artifact, breakPace apart; its stream's
// connection drops after breakAfter events (faults.go) while the task carries on, so a client
// must resubscribe to receive the rest, each chunk once.
func breakstream(t *turn) {
	report(t, breakChunks, breakPace)
}

func delayedResult(t *turn, d time.Duration, text string) {
	if !t.start("working") {
		return
	}
	if err := t.pause(d); err != nil {
		t.abort(err)
		return
	}
	t.emit(t.artifact("result", "result", a2a.NewTextPart(text)), t.done())
}

func input(t *turn) {
	if !t.followUp() {
		if t.start("working") {
			t.emit(t.status(a2a.TaskStateInputRequired, "What is your name?"))
		}
		return
	}
	answer := answerText(t.ec.Message)
	if !t.start("working") {
		return
	}
	if strings.EqualFold(answer, "again") {
		t.emit(t.status(a2a.TaskStateInputRequired, "What is your name, really?"))
		return
	}
	t.emit(t.artifact("greeting", "greeting", a2a.NewTextPart("Hello, "+answer+"!")), t.done())
}

// lingerinput asks as input does, then tidies up for lingerFor before its turn returns, deaf to
// the end of the turn as an executor busy elsewhere is. a2a-go's server refuses a cancel that
// arrives meanwhile (TASK_NOT_CANCELABLE: the concurrent turn resolved to INPUT_REQUIRED), and
// takes the same cancel once the turn has returned.
func lingerinput(t *turn) {
	asked := !t.followUp()
	input(t)
	if asked {
		time.Sleep(lingerFor)
	}
}

// auth holds its execution in AUTH_REQUIRED until a follow-up message comes
// through the auth gate (see authgate.go for why it cannot simply end).
func auth(t *turn) {
	if t.followUp() { // only reached if the gate had no held execution
		if t.start("working") {
			t.emit(authOutcome(t.ec, t.ec.Message))
		}
		return
	}
	followUp := t.auth.expect(t.ec.TaskID, t.ec.ContextID)
	if !t.start("working") || !t.emit(t.status(a2a.TaskStateAuthRequired, "Please authorize access to the calendar")) {
		return
	}
	timer := time.NewTimer(authLimit)
	defer timer.Stop()
	select {
	case msg := <-followUp:
		t.emit(t.status(a2a.TaskStateWorking, "working"), authOutcome(t.ec, msg))
	case <-t.ctx.Done():
	case <-t.closing:
		t.abort(errServerClosed)
	case <-timer.C:
		t.emit(t.status(a2a.TaskStateFailed, "authorization timed out"))
	}
}

func authOutcome(info a2a.TaskInfoProvider, msg *a2a.Message) a2a.Event {
	text := "authorized"
	if strings.Contains(strings.ToLower(answerText(msg)), "decline") {
		text = "authorization declined"
	}
	return a2a.NewStatusUpdateEvent(info, a2a.TaskStateCompleted, agentText(info, text))
}

func fail(t *turn) {
	if t.start("working") {
		t.emit(t.status(a2a.TaskStateFailed, "the agent failed on purpose"))
	}
}

func reject(t *turn) {
	if t.submit() {
		t.emit(t.status(a2a.TaskStateRejected, "the agent rejected the request"))
	}
}

// message answers without creating a task.
func message(t *turn) {
	reply := a2a.NewMessage(a2a.MessageRoleAgent,
		a2a.NewTextPart("plain reply"),
		a2a.NewDataPart(map[string]any{"kind": "message"}))
	reply.ContextID = t.ec.ContextID
	t.emit(reply)
}

func contextEcho(t *turn) {
	text := "context=" + t.ec.ContextID
	if t.start("working") {
		t.emit(t.artifact("result", "result", a2a.NewTextPart(text)), t.status(a2a.TaskStateCompleted, text))
	}
}

func artifacts(t *turn) {
	if !t.start("working") {
		return
	}
	notes := t.artifact("a-text", "notes", a2a.NewTextPart("hello artifacts"))
	notes.Artifact.Description = "text part"

	raw := a2a.NewRawPart([]byte{0, 1, 2, 3, 255})
	raw.MediaType = "application/octet-stream"
	raw.Filename = "bytes.bin"

	link := a2a.NewFileURLPart("https://example.com/report.pdf", "application/pdf")
	link.Filename = "report.pdf"

	data := a2a.NewDataPart(map[string]any{"answer": 42, "ok": true})
	data.MediaType = "application/json"

	t.emit(notes,
		t.artifact("a-raw", "bytes", raw),
		t.artifact("a-url", "link", link),
		t.artifact("a-data", "data", data),
		t.done())
}

// files describes the non-text parts of the message, one line each, so a
// client can check what its file parts looked like on the wire. Empty
// fields are written as "-" to keep the lines parseable.
func files(t *turn) {
	var lines []string
	for _, p := range t.ec.Message.Parts {
		switch content := p.Content.(type) {
		case a2a.Raw:
			lines = append(lines, fmt.Sprintf("raw %s %s %d", orDash(p.Filename), orDash(p.MediaType), len(content)))
		case a2a.URL:
			lines = append(lines, fmt.Sprintf("url %s %s %s", orDash(string(content)), orDash(p.MediaType), orDash(p.Filename)))
		case a2a.Data:
			lines = append(lines, "data "+jsonText(content.Value))
		}
	}
	if len(lines) == 0 {
		lines = []string{"no files"}
	}
	if t.start("working") {
		t.emit(t.artifact("result", "result", a2a.NewTextPart(strings.Join(lines, "\n"))), t.done())
	}
}

// answerText is the user's answer: its text parts joined by spaces, or the
// JSON of its data parts when it has no text.
func answerText(m *a2a.Message) string {
	var texts, data []string
	for _, p := range m.Parts {
		switch content := p.Content.(type) {
		case a2a.Text:
			texts = append(texts, strings.TrimSpace(string(content)))
		case a2a.Data:
			data = append(data, jsonText(content.Value))
		}
	}
	if len(texts) > 0 {
		return strings.Join(texts, " ")
	}
	return strings.Join(data, " ")
}

// intArg parses the first word of args, falling back to def and clamping.
func intArg(args string, def, lo, hi int) int {
	n := def
	if fields := strings.Fields(args); len(fields) > 0 {
		if v, err := strconv.Atoi(fields[0]); err == nil {
			n = v
		}
	}
	return min(max(n, lo), hi)
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
