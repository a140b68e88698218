package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"golang.org/x/term"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/termmd"
)

// renderer shows a Work's events. On a terminal: a live status line on stderr (spinner, state,
// elapsed time, the agent's latest status, recovery notices), and on stdout each message as it
// arrives and each artifact once complete (markdown rendered, files saved). Elsewhere: the same
// content as plain text, state changes as plain lines on stderr. With --json: one JSON object per
// event on stdout.
type renderer struct {
	mu       sync.Mutex
	stdout   io.Writer
	stderr   io.Writer
	status   *termenv.Output // nil unless stderr is a terminal that shows the status line
	st       styles          // for stdout
	errSt    styles          // for stderr: each is plain where its own writer is no terminal
	asJSON   bool
	markdown *termmd.Options // nil: print text as it is
	outDir   string

	started    time.Time
	state      string
	text       string
	frame      int
	shown      bool // the status line is on screen
	paused     bool // a prompt is being answered
	current    string
	pending    map[string]a2aport.Artifact // artifacts not printed yet, by id
	order      []string
	saveFailed bool // an artifact could not be saved: the command fails
	// titlesOnStdout: stdout is a terminal, where an artifact's title heads it; in a pipe or a
	// file stdout is the answer alone and the title goes to stderr.
	titlesOnStdout bool
	live           liveArtifact       // the artifact whose text is being written as it arrives (live.go)
	resuming       bool               // a Work of another process, asked for again: no connection broke
	rec            a2aport.WorkRecord // the agent's ids of the Work, once it named them
	stopTick       chan struct{}
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// newRenderer shows a Work: markdown and artifact titles when stdout is a terminal (elsewhere
// stdout carries the answer only, the titles go to stderr), a live status line when stderr is one
// (elsewhere state changes are lines, never an animation).
func newRenderer(stdout, stderr io.Writer, stdoutTTY, stderrTTY, asJSON bool, width int, outDir string, color colorMode) *renderer {
	r := &renderer{stdout: stdout, stderr: stderr, st: newStyles(stdout, color), errSt: newStyles(stderr, color), asJSON: asJSON, outDir: outDir,
		started: time.Now(), pending: map[string]a2aport.Artifact{}, titlesOnStdout: stdoutTTY}
	if stderrTTY && !asJSON {
		r.status = termenv.NewOutput(stderr)
		r.stopTick = make(chan struct{})
		go r.tick()
	}
	if stdoutTTY && !asJSON {
		// https://no-color.org: laid out, but without colours or emphasis codes.
		r.markdown = &termmd.Options{Width: width, Color: !color.plain()}
	}
	return r
}

// tick redraws the status line ten times a second.
func (r *renderer) tick() {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-r.stopTick:
			return
		case <-t.C:
			r.mu.Lock()
			r.frame++
			r.drawStatus()
			r.mu.Unlock()
		}
	}
}

func (r *renderer) drawStatus() {
	if r.status == nil || r.paused || (r.live.open && r.titlesOnStdout) {
		return // a prompt is being answered, or text is being written on the terminal
	}
	line := fmt.Sprintf("%s %s %s", spinner[r.frame%len(spinner)], orDefault(r.state, "starting"), r.errSt.dim.Render(time.Since(r.started).Truncate(100*time.Millisecond).String()))
	if r.current != "" {
		line += r.errSt.dim.Render(fmt.Sprintf(" · receiving %s (%s)", cleanLine(r.current), humanSize(textSize(r.pending[r.current]))))
	} else if r.text != "" {
		line += " · " + cleanLine(firstLine(r.text, 80))
	}
	r.clearStatus()
	// One line, never wrapped: a wrapped line cannot be redrawn in place and leaves stale lines
	// behind. The width is read on every draw, so a resized terminal is followed.
	fmt.Fprint(r.status, ansi.Truncate(line, r.statusWidth()-1, "…"))
	r.shown = true
}

// statusWidth is the width of the terminal stderr is (80 when it cannot be read).
func (r *renderer) statusWidth() int {
	if f, ok := r.stderr.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 1 {
			return w
		}
	}
	return 80
}

func (r *renderer) clearStatus() {
	if r.status != nil && r.shown {
		r.status.ClearLine()
		fmt.Fprint(r.status, "\r")
		r.shown = false
	}
}

// print writes content to stdout with the status line out of the way.
func (r *renderer) print(s string) {
	r.clearStatus()
	fmt.Fprint(r.stdout, s)
	if !strings.HasSuffix(s, "\n") {
		fmt.Fprintln(r.stdout)
	}
}

// notice writes a line to stderr with the status line out of the way; what the agent said in it
// is made inert (clean.go).
func (r *renderer) notice(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearStatus()
	fmt.Fprintln(r.stderr, clean(s))
}

// task says which task and context of the agent the Work is, once the agent named them.
func (r *renderer) task(w a2aport.WorkRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rec = w
	if r.asJSON {
		line, _ := json.Marshal(map[string]string{"type": "task", "workId": w.WorkID, "remoteTaskId": w.RemoteTaskID, "remoteContextId": w.RemoteContextID})
		fmt.Fprintln(r.stdout, string(jsonSafe(line)))
		return
	}
	r.clearStatus()
	line := "task " + cleanLine(w.RemoteTaskID)
	if w.RemoteContextID != "" {
		line += " · context " + cleanLine(w.RemoteContextID)
	}
	fmt.Fprintln(r.stderr, r.errSt.dim.Render(line))
}

// detached says that the command left a Work running at the agent, and how to find it again.
func (r *renderer) detached(work a2aport.Work) int {
	if r.stopTick != nil {
		close(r.stopTick)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asJSON {
		line, _ := json.Marshal(map[string]any{"type": "detached", "workId": work.ID, "exitCode": exitOK})
		fmt.Fprintln(r.stdout, string(jsonSafe(line)))
		return exitOK
	}
	r.flushArtifacts("")
	r.clearStatus()
	fmt.Fprintf(r.stderr, "%s the task goes on at the agent: a2aport status|resume|cancel %s\n", r.errSt.ok.Render("↗ detached:"), work.ID)
	return exitOK
}

// waiting says that the agent's task waits for an answer nobody here could give (no terminal, no
// --answer left), left as it is at the agent, and the command that answers it (SPEC.md §8.2).
func (r *renderer) waiting(work a2aport.Work, card string) int {
	if r.stopTick != nil {
		close(r.stopTick)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	hint := fmt.Sprintf("a2aport send %s --task-id %s \"<reply>\"", card, cleanLine(r.rec.RemoteTaskID))
	if r.asJSON {
		line, _ := json.Marshal(map[string]any{"type": "input_required", "code": "INPUT_UNANSWERED", "workId": work.ID, "remoteTaskId": r.rec.RemoteTaskID,
			"remoteContextId": r.rec.RemoteContextID, "resume": hint, "exitCode": exitOK})
		fmt.Fprintln(r.stdout, string(jsonSafe(line)))
		return exitOK
	}
	r.flushArtifacts("")
	r.clearStatus()
	fmt.Fprintf(r.stderr, "%s the task waits for an answer at the agent (no terminal, no --answer left)\nTask: %s\nContext: %s\nState: input_required\nResume: %s\n",
		r.errSt.bad.Render("!"), cleanLine(r.rec.RemoteTaskID), cleanLine(r.rec.RemoteContextID), hint)
	return exitOK
}

// interrupt writes a line to stderr at once, without the renderer's lock: the signal path must
// never wait for a renderer that is busy (clean.go, markdown.go).
func (r *renderer) interrupt(s string) {
	fmt.Fprintln(r.stderr, "\r"+s)
}

// event shows one event of the Work.
func (r *renderer) event(ev a2aport.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asJSON {
		var view any = ev
		if ev.Delta != nil && ev.Artifact != nil {
			// What this event added, not the artifact so far: JSON lines grow with the answer,
			// not with its square. The artifact keeps its identity; the outcome has it whole.
			view = struct {
				a2aport.Event
				Artifact artifactHead `json:"artifact"`
			}{ev, artifactHead{ID: ev.Artifact.ID, Name: ev.Artifact.Name, Description: ev.Artifact.Description}}
		}
		line, _ := json.Marshal(view)
		fmt.Fprintln(r.stdout, string(jsonSafe(line)))
		return
	}
	switch ev.Type {
	case a2aport.EventActivity:
		if ev.Reconnecting || ev.Reconnected {
			r.clearStatus()
			note := "the connection to the agent broke; reconnecting…"
			switch {
			case r.resuming && ev.Reconnected:
				note, r.resuming = "following the task again", false
			case r.resuming:
				note = "asking the agent for the task…"
			case ev.Reconnected:
				note = "reconnected"
			}
			fmt.Fprintln(r.stderr, r.errSt.dim.Render(note))
			return
		}
		changed := string(ev.State) != r.state || ev.Text != r.text
		r.state, r.text = orDefault(string(ev.State), r.state), ev.Text
		ended := ev.State == a2aport.StateFailed || ev.State == a2aport.StateRejected || ev.State == a2aport.StateCancelled
		if r.status == nil && changed && ev.State != "" && !ended { // finish says how the Work ended, once
			line := string(ev.State)
			if ev.Text != "" {
				line += ": " + clean(ev.Text)
			}
			fmt.Fprintln(r.stderr, line)
		}
	case a2aport.EventMessage:
		r.flushArtifacts("")
		r.print(r.st.bold.Render("agent: ") + r.render(ev.Text, ""))
	case a2aport.EventArtifact:
		if ev.Artifact == nil {
			return
		}
		if r.current != "" && r.current != ev.Artifact.ID {
			r.flushArtifacts(ev.Artifact.ID) // the agent moved on: the previous one is complete
		}
		prev, seen := r.pending[ev.Artifact.ID]
		if !seen {
			r.order = append(r.order, ev.Artifact.ID)
		}
		r.pending[ev.Artifact.ID] = *ev.Artifact
		r.current = ev.Artifact.ID
		r.showLive(ev, prev)
	}
	r.drawStatus()
}

// flushArtifacts prints every pending artifact but keep.
func (r *renderer) flushArtifacts(keep string) {
	var rest []string
	for _, id := range r.order {
		if id == keep {
			rest = append(rest, id)
			continue
		}
		if id == r.live.id {
			r.endLive(r.pending[id])
		} else {
			r.printArtifact(r.pending[id])
		}
		delete(r.pending, id)
	}
	r.order = rest
	if r.current != keep {
		r.current = ""
	}
}

func (r *renderer) printArtifact(a a2aport.Artifact) {
	r.printTitle(a)
	r.printParts(a, 0)
}

// printTitle heads an artifact: on stdout when it is a terminal, else on stderr (stdout is the
// answer alone).
func (r *renderer) printTitle(a a2aport.Artifact) {
	title := cleanLine(orDefault(a.Name, a.ID))
	if r.titlesOnStdout {
		r.print(r.st.heading.Render(title))
	} else {
		r.clearStatus()
		fmt.Fprintln(r.stderr, "artifact "+title)
	}
}

// printParts prints a's parts from the one at index from on.
func (r *renderer) printParts(a a2aport.Artifact, from int) {
	for i := from; i < len(a.Parts); i++ {
		switch p := a.Parts[i]; p.Type {
		case a2aport.PartText:
			r.print(r.render(p.Text, p.MediaType))
		case a2aport.PartURL:
			r.print(cleanLine(p.URL))
		case a2aport.PartData:
			data, _ := json.MarshalIndent(p.Data, "", "  ")
			r.print(string(jsonSafe(data)))
		case a2aport.PartRaw:
			r.print(r.save(a, i, p))
		}
	}
}

// render shows text made inert, as markdown on a terminal when it is or looks like markdown and
// can be rendered within bounds (markdown.go).
func (r *renderer) render(text, mediaType string) string {
	text = clean(text)
	if r.markdown == nil || (mediaType != "text/markdown" && !looksLikeMarkdown.MatchString(text)) {
		return text
	}
	if out, ok := renderMarkdown(*r.markdown, text); ok {
		return strings.Trim(out, "\n")
	}
	return text
}

var looksLikeMarkdown = regexp.MustCompile(`(?m)^(#{1,6} |[-*] |\d+\. |` + "```" + `)|\*\*[^*]+\*\*`)

// save writes a binary part as a new file in the output directory (save.go) and says where; a
// save that fails is reported, and makes the command fail.
func (r *renderer) save(a a2aport.Artifact, i int, p a2aport.Part) string {
	fallback := safeName(fallbackName(a, i, p.MediaType), fmt.Sprintf("artifact-%d", i+1))
	name := safeName(p.Filename, fallback)
	path, err := saveFile(r.outDir, name, p.Raw)
	if err != nil {
		r.saveFailed = true
		return r.st.bad.Render(fmt.Sprintf("could not save %s: %v", name, err))
	}
	return fmt.Sprintf("saved %s (%s, %s)", path, cleanLine(orDefault(p.MediaType, "bytes")), humanSize(len(p.Raw)))
}

// finish prints what is left and how the Work ended, and returns the exit code: code, or
// exitError when an artifact could not be saved.
func (r *renderer) finish(out a2aport.Outcome, err error, code int) int {
	if r.stopTick != nil {
		close(r.stopTick)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asJSON {
		end := map[string]any{"type": "outcome", "exitCode": code}
		if err != nil {
			end["type"], end["code"], end["message"] = "error", jsonCode(err), err.Error()
		} else {
			end["outcome"] = out
		}
		line, _ := json.Marshal(end)
		fmt.Fprintln(r.stdout, string(jsonSafe(line)))
		return code
	}
	r.flushArtifacts("")
	if err == nil && len(out.Artifacts) == 0 && out.Content != "" {
		r.print(r.render(out.Content, ""))
	}
	r.clearStatus()
	elapsed := time.Since(r.started).Truncate(time.Millisecond)
	if err != nil {
		code := a2aport.CodeOf(err)
		fmt.Fprintln(r.stderr, r.errSt.bad.Render(fmt.Sprintf("✗ %s after %s: %s", orDefault(string(code), "error"), elapsed, clean(err.Error()))))
	} else {
		fmt.Fprintln(r.stderr, r.errSt.ok.Render(fmt.Sprintf("✓ completed in %s", elapsed)))
	}
	if r.saveFailed && code == exitOK {
		fmt.Fprintln(r.stderr, r.errSt.bad.Render("✗ an artifact could not be saved (above)"))
		return exitError
	}
	return code
}

// pause stops the status line while a question is answered.
func (r *renderer) pause(p bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paused = p
	if p {
		r.clearStatus()
	}
}

func textSize(a a2aport.Artifact) int {
	n := 0
	for _, p := range a.Parts {
		n += len(p.Text) + len(p.Raw)
	}
	return n
}

func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// jsonCode is the code of a failed Work in --json's last line: a2aport's error code, or the
// command's own (INPUT_UNANSWERED: no terminal and no --answer left; CLI_ERROR otherwise).
func jsonCode(err error) string {
	if code := a2aport.CodeOf(err); code != "" {
		return string(code)
	}
	if errors.Is(err, errUnanswered) {
		return "INPUT_UNANSWERED"
	}
	return "CLI_ERROR"
}

// artifactHead is an artifact without its parts, as --json shows it beside a delta.
type artifactHead struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}
