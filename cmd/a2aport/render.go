package main

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/glamour"
	"github.com/muesli/termenv"

	"github.com/a2aport/a2aport/adapter"
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
	st       styles
	asJSON   bool
	markdown *glamour.TermRenderer // nil: print text as it is
	outDir   string

	started  time.Time
	state    string
	text     string
	frame    int
	shown    bool // the status line is on screen
	paused   bool // a prompt is being answered
	current  string
	pending  map[string]adapter.Artifact // artifacts not printed yet, by id
	order    []string
	saved    map[string]bool // file names used
	stopTick chan struct{}
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func newRenderer(stdout, stderr io.Writer, live, asJSON bool, width int, outDir string) *renderer {
	r := &renderer{stdout: stdout, stderr: stderr, st: newStyles(stdout), asJSON: asJSON, outDir: outDir,
		started: time.Now(), pending: map[string]adapter.Artifact{}, saved: map[string]bool{}}
	if live && !asJSON {
		r.status = termenv.NewOutput(stderr)
		if md, err := glamour.NewTermRenderer(glamour.WithStandardStyle("dark"), glamour.WithWordWrap(width)); err == nil {
			r.markdown = md
		}
		r.stopTick = make(chan struct{})
		go r.tick()
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
	if r.status == nil || r.paused {
		return
	}
	line := fmt.Sprintf("%s %s %s", spinner[r.frame%len(spinner)], orDefault(r.state, "starting"), r.st.dim.Render(time.Since(r.started).Truncate(100*time.Millisecond).String()))
	if r.current != "" {
		line += r.st.dim.Render(fmt.Sprintf(" · receiving %s (%s)", r.current, humanSize(textSize(r.pending[r.current]))))
	} else if r.text != "" {
		line += " · " + firstLine(r.text, 80)
	}
	r.clearStatus()
	fmt.Fprint(r.status, line)
	r.shown = true
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

// notice writes a line to stderr with the status line out of the way.
func (r *renderer) notice(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearStatus()
	fmt.Fprintln(r.stderr, s)
}

// event shows one event of the Work.
func (r *renderer) event(ev adapter.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asJSON {
		line, _ := json.Marshal(ev)
		fmt.Fprintln(r.stdout, string(line))
		return
	}
	switch ev.Type {
	case adapter.EventActivity:
		if ev.Reconnecting || ev.Reconnected {
			r.clearStatus()
			note := "the connection to the agent broke; reconnecting…"
			if ev.Reconnected {
				note = "reconnected"
			}
			fmt.Fprintln(r.stderr, r.st.dim.Render(note))
			return
		}
		changed := string(ev.State) != r.state || ev.Text != r.text
		r.state, r.text = orDefault(string(ev.State), r.state), ev.Text
		if r.status == nil && changed && ev.State != "" {
			line := string(ev.State)
			if ev.Text != "" {
				line += ": " + ev.Text
			}
			fmt.Fprintln(r.stderr, line)
		}
	case adapter.EventMessage:
		r.flushArtifacts("")
		r.print(r.st.bold.Render("agent: ") + r.render(ev.Text, ""))
	case adapter.EventArtifact:
		if ev.Artifact == nil {
			return
		}
		if r.current != "" && r.current != ev.Artifact.ID {
			r.flushArtifacts(ev.Artifact.ID) // the agent moved on: the previous one is complete
		}
		if _, seen := r.pending[ev.Artifact.ID]; !seen {
			r.order = append(r.order, ev.Artifact.ID)
		}
		r.pending[ev.Artifact.ID] = *ev.Artifact
		r.current = ev.Artifact.ID
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
		r.printArtifact(r.pending[id])
		delete(r.pending, id)
	}
	r.order = rest
	if r.current != keep {
		r.current = ""
	}
}

func (r *renderer) printArtifact(a adapter.Artifact) {
	title := orDefault(a.Name, a.ID)
	r.print(r.st.heading.Render(title))
	for i, p := range a.Parts {
		switch {
		case p.Type == adapter.PartText:
			r.print(r.render(p.Text, p.MediaType))
		case p.Type == adapter.PartURL:
			r.print(p.URL)
		case p.Type == adapter.PartData:
			data, _ := json.MarshalIndent(p.Data, "", "  ")
			r.print(string(data))
		case p.Type == adapter.PartRaw:
			r.print(r.save(a, i, p))
		}
	}
}

// render shows text, as markdown on a terminal when it is or looks like markdown.
func (r *renderer) render(text, mediaType string) string {
	if r.markdown == nil || (mediaType != "text/markdown" && !looksLikeMarkdown.MatchString(text)) {
		return text
	}
	out, err := r.markdown.Render(text)
	if err != nil {
		return text
	}
	return strings.Trim(out, "\n")
}

var looksLikeMarkdown = regexp.MustCompile(`(?m)^(#{1,6} |[-*] |\d+\. |` + "```" + `)|\*\*[^*]+\*\*`)

// save writes a binary part to the output directory under its file name (or one made from the
// artifact's), never over an existing file, and says where.
func (r *renderer) save(a adapter.Artifact, i int, p adapter.Part) string {
	name := filepath.Base(p.Filename)
	if name == "." || name == "/" || name == "" {
		ext := ""
		if exts, _ := mime.ExtensionsByType(p.MediaType); len(exts) > 0 {
			ext = exts[0]
		}
		name = fmt.Sprintf("%s-%d%s", orDefault(a.Name, a.ID), i+1, ext)
	}
	name = strings.Map(func(c rune) rune {
		if c == '/' || c == '\\' || c < 0x20 {
			return '_'
		}
		return c
	}, name)
	path := filepath.Join(r.outDir, name)
	for n := 2; r.saved[path] || exists(path); n++ {
		ext := filepath.Ext(name)
		path = filepath.Join(r.outDir, fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext))
	}
	r.saved[path] = true
	if err := os.WriteFile(path, p.Raw, 0o644); err != nil {
		return r.st.bad.Render(fmt.Sprintf("could not save %s: %v", name, err))
	}
	return fmt.Sprintf("saved %s (%s, %s)", path, orDefault(p.MediaType, "bytes"), humanSize(len(p.Raw)))
}

// finish prints what is left and how the Work ended.
func (r *renderer) finish(out adapter.Outcome, err error, code int) {
	if r.stopTick != nil {
		close(r.stopTick)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asJSON {
		end := map[string]any{"type": "outcome", "exitCode": code}
		if err != nil {
			end["type"], end["code"], end["message"] = "error", string(adapter.CodeOf(err)), err.Error()
		} else {
			end["outcome"] = out
		}
		line, _ := json.Marshal(end)
		fmt.Fprintln(r.stdout, string(line))
		return
	}
	r.flushArtifacts("")
	if err == nil && len(out.Artifacts) == 0 && out.Content != "" {
		r.print(r.render(out.Content, ""))
	}
	r.clearStatus()
	elapsed := time.Since(r.started).Truncate(time.Millisecond)
	if err != nil {
		code := adapter.CodeOf(err)
		fmt.Fprintln(r.stderr, r.st.bad.Render(fmt.Sprintf("✗ %s after %s: %s", orDefault(string(code), "error"), elapsed, err)))
		return
	}
	fmt.Fprintln(r.stderr, r.st.ok.Render(fmt.Sprintf("✓ completed in %s", elapsed)))
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

func textSize(a adapter.Artifact) int {
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
