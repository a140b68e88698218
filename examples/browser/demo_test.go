package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/a2aport/a2aport/adapter"

	"github.com/a2aport/a2aport/internal/demoagent"
)

const testTimeout = 20 * time.Second

// startDemo serves the demo on a free loopback port with a fast agent, and with a JS package
// directory and module directory made up for the test.
func startDemo(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "js", "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"js/src/index.js":      "export const ok = true;\n",
		"js/package.json":      "{}\n",
		"bin/a2aport.wasm":     "\x00asm\x01\x00\x00\x00",
		"bin/a2aport-1.0.wasm": "\x00asm\x01\x00\x00\x00", // a module of former builds: not served
		"bin/secret.txt":       "not served\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, ln, err := listen(config{addr: "127.0.0.1:0", jsDir: filepath.Join(dir, "js"), wasmDir: filepath.Join(dir, "bin"),
		pace: 2 * time.Millisecond, longPace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// newPort connects a2aport's native adapter to the card at path, as the page does in a browser.
func newPort(t *testing.T, s *server, path string, reuse bool) a2aport.Port {
	t.Helper()
	a, err := adapter.New(a2aport.Options{AgentCardURL: s.url + path, ReuseContext: reuse, Token: "demo-token"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := a.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return a
}

// recorder collects a Work's events.
type recorder struct {
	mu     sync.Mutex
	events []a2aport.Event
	seen   chan a2aport.Event
}

func newRecorder() *recorder { return &recorder{seen: make(chan a2aport.Event, 256)} }

func (r *recorder) on(ev a2aport.Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	r.seen <- ev
}

func (r *recorder) all() []a2aport.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]a2aport.Event(nil), r.events...)
}

// await returns the first event (from now on) that matches.
func (r *recorder) await(t *testing.T, ctx context.Context, match func(a2aport.Event) bool) a2aport.Event {
	t.Helper()
	for {
		select {
		case ev := <-r.seen:
			if match(ev) {
				return ev
			}
		case <-ctx.Done():
			t.Fatalf("no matching event; got %+v", r.all())
		}
	}
}

func TestReportOverEveryEndpoint(t *testing.T) {
	s := startDemo(t)
	for _, tc := range []struct{ name, card, transport, version string }{
		{"1.0 JSON-RPC", demoagent.CardPath, "JSONRPC", "1.0"},
		{"1.0 HTTP+JSON", demoagent.RESTCardPath, "HTTP+JSON", "1.0"},
		{"0.3 JSON-RPC", demoagent.V03CardPath, "JSONRPC", "0.3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			port := newPort(t, s, tc.card, false)
			if _, err := port.Start(ctx); err != nil {
				t.Fatal(err)
			}
			d := port.Describe()
			if d.Transport != tc.transport || d.ProtocolVersion != tc.version || d.Label != "a2aport demo agent" || !d.Capabilities.Streaming {
				t.Errorf("Describe() = %+v, want %s %s, streaming", d, tc.transport, tc.version)
			}
			rec := newRecorder()
			out, err := port.Submit(ctx, a2aport.Work{ID: "w1", OwnerID: "ann", Instruction: "Write a short report on ocean currents"}, a2aport.OnEvent(rec.on))
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Artifacts) != 1 || out.Artifacts[0].Name != "report.md" {
				t.Fatalf("artifacts = %+v, want report.md", out.Artifacts)
			}
			text := artifactText(out.Artifacts[0])
			wantOrder(t, text, "# Brief: Ocean currents", "## Summary", "## Key points", "## Open questions", "## Next steps")
			if !strings.Contains(text, "bearer token") {
				t.Errorf("report does not mention the bearer token:\n%s", text)
			}
			if !strings.Contains(out.Content, "Report ready: 4 sections") {
				t.Errorf("content = %q, want the final status", out.Content)
			}
			var progress []string
			for _, ev := range rec.all() {
				if ev.Type == a2aport.EventActivity && strings.HasPrefix(ev.Text, "Writing section") {
					progress = append(progress, ev.Text)
				}
			}
			if len(progress) != 4 || progress[0] != "Writing section 1 of 4: Summary" {
				t.Errorf("progress messages = %q, want 4 starting with section 1", progress)
			}
		})
	}
}

func TestChunksStreamInOrder(t *testing.T) {
	s := startDemo(t)
	ctx := testContext(t)
	card, err := agentcard.DefaultResolver.Resolve(ctx, s.url)
	if err != nil {
		t.Fatal(err)
	}
	client, err := a2aclient.NewFromCard(ctx, card)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := client.Destroy(); err != nil {
			t.Errorf("Destroy: %v", err)
		}
	})
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Compare tea and coffee"))
	var chunks []*a2a.TaskArtifactUpdateEvent
	var last a2a.TaskState
	for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case *a2a.TaskArtifactUpdateEvent:
			chunks = append(chunks, e)
		case *a2a.TaskStatusUpdateEvent:
			last = e.Status.State
		}
	}
	if last != a2a.TaskStateCompleted || len(chunks) != 4 {
		t.Fatalf("stream: %d chunks, last state %s; want 4 chunks, COMPLETED", len(chunks), last)
	}
	var text strings.Builder
	for i, c := range chunks {
		if c.Append != (i > 0) || c.LastChunk != (i == len(chunks)-1) || c.Artifact.ID != "report" {
			t.Errorf("chunk %d: append %v, last %v, id %s", i, c.Append, c.LastChunk, c.Artifact.ID)
		}
		text.WriteString(c.Artifact.Parts[0].Text())
	}
	wantOrder(t, text.String(), "# Tea vs coffee", "## What is compared", "## Criteria", "## Scoring sheet", "```", "## How to decide")
}

func TestAsksWhenAmbiguous(t *testing.T) {
	s := startDemo(t)
	for _, tc := range []struct {
		instruction, prompt string
		unusable            string // an answer that gets the question again, reworded; "" for none
		answer, want        string
	}{
		{"Please compare these", demoagent.AskPair, "no idea", "trains vs planes", "# Trains vs planes"},
		{"hello", demoagent.AskTopic, "", "the history of the web", "# Brief: History of the web"},
	} {
		t.Run(tc.instruction, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			port := newPort(t, s, demoagent.CardPath, false)
			rec := newRecorder()
			type result struct {
				out a2aport.Outcome
				err error
			}
			done := make(chan result, 1)
			go func() {
				out, err := port.Submit(ctx, a2aport.Work{ID: "w", OwnerID: "ann", Instruction: tc.instruction}, a2aport.OnEvent(rec.on))
				done <- result{out, err}
			}()
			isQuestion := func(ev a2aport.Event) bool { return ev.Type == a2aport.EventInputRequested }
			asked := rec.await(t, ctx, isQuestion)
			if asked.Input.Prompt != tc.prompt {
				t.Errorf("prompt = %q, want %q", asked.Input.Prompt, tc.prompt)
			}
			// Every answer goes out at once, racing a2asrv's release of the turn (see settle.go).
			if tc.unusable != "" {
				if err := port.RespondInput(ctx, "w", "ann", asked.Input.InputRequestID, a2aport.InputResponse{Text: tc.unusable}); err != nil {
					t.Fatal(err)
				}
				asked = rec.await(t, ctx, isQuestion)
				if !strings.HasPrefix(asked.Input.Prompt, "I still need") {
					t.Errorf("second prompt = %q, want it reworded", asked.Input.Prompt)
				}
			}
			if err := port.RespondInput(ctx, "w", "ann", asked.Input.InputRequestID, a2aport.InputResponse{Text: tc.answer}); err != nil {
				t.Fatal(err)
			}
			r := <-done
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := artifactText(r.out.Artifacts[0]); !strings.HasPrefix(got, tc.want) {
				t.Errorf("report starts %q, want %q", firstLine(got), tc.want)
			}
		})
	}
}

func TestCancelSlowReport(t *testing.T) {
	s := startDemo(t)
	ctx := testContext(t)
	port := newPort(t, s, demoagent.CardPath, false)
	rec := newRecorder()
	done := make(chan error, 1)
	go func() {
		_, err := port.Submit(ctx, a2aport.Work{ID: "slow", OwnerID: "ann", Instruction: "Write a long report about rivers"}, a2aport.OnEvent(rec.on))
		done <- err
	}()
	rec.await(t, ctx, func(ev a2aport.Event) bool { return ev.Type == a2aport.EventArtifact })
	res, err := port.Cancel(ctx, "slow", "ann")
	if err != nil || res.State != a2aport.StateCancelled {
		t.Fatalf("Cancel = %+v, %v; want cancelled", res, err)
	}
	if err := <-done; !errors.Is(err, a2aport.ErrWorkCancelled) {
		t.Fatalf("Submit error = %v, want WORK_CANCELLED", err)
	}
}

func TestFailsOnRequest(t *testing.T) {
	s := startDemo(t)
	ctx := testContext(t)
	port := newPort(t, s, demoagent.V03CardPath, false)
	_, err := port.Submit(ctx, a2aport.Work{ID: "f", OwnerID: "ann", Instruction: "Please fail this task"})
	if !errors.Is(err, a2aport.ErrTaskFailed) || !strings.Contains(err.Error(), "asked me to fail") {
		t.Fatalf("Submit error = %v, want A2A_TASK_FAILED with the agent's reason", err)
	}
}

func TestDescribesAttachments(t *testing.T) {
	s := startDemo(t)
	ctx := testContext(t)
	port := newPort(t, s, demoagent.CardPath, false)
	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	for y := range 480 {
		for x := range 640 {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, img); err != nil {
		t.Fatal(err)
	}
	work := a2aport.Work{ID: "files", OwnerID: "ann", Instruction: "What are these?", InputParts: []a2aport.InputPart{
		{Type: "file", MIME: "image/png", Filename: "photo.png", URL: "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes.Bytes())},
		{Type: "file", MIME: "text/plain", Filename: "notes.txt", URL: "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("first line\nsecond\nthird\n"))},
		{Type: "file", MIME: "image/jpeg", Filename: "remote.jpg", URL: "https://example.com/remote.jpg"},
	}}
	out, err := port.Submit(ctx, work)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]a2aport.Artifact{}
	for _, a := range out.Artifacts {
		byName[a.Name] = a
	}
	review := artifactText(byName["attachments.md"])
	for _, want := range []string{"## 1. photo.png", "A PNG image, 640 × 480 pixels. A thumbnail is attached.", "image/png",
		"## 2. notes.txt", "A text file of 3 lines; it begins “first line”.", "24 bytes",
		"## 3. remote.jpg", "does not download links", "`https://example.com/remote.jpg`"} {
		if !strings.Contains(review, want) {
			t.Errorf("review lacks %q:\n%s", want, review)
		}
	}
	thumb := byName["Image: photo.png"]
	if len(thumb.Parts) != 1 || thumb.Parts[0].MediaType != "image/png" {
		t.Fatalf("thumbnail artifact = %+v", thumb)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(thumb.Parts[0].Raw))
	if err != nil || cfg.Width != 160 || cfg.Height != 120 {
		t.Errorf("thumbnail = %dx%d, %v; want 160x120", cfg.Width, cfg.Height, err)
	}
	if link := byName["Image: remote.jpg"]; len(link.Parts) != 1 || link.Parts[0].URL != "https://example.com/remote.jpg" {
		t.Errorf("linked image artifact = %+v", link)
	}
	csv := byName["attachments.csv"]
	if len(csv.Parts) != 1 || csv.Parts[0].Filename != "attachments.csv" || !strings.HasPrefix(string(csv.Parts[0].Raw), "name,type,bytes,kind,note\nphoto.png,image/png,") {
		t.Errorf("csv artifact = %+v", csv)
	}
	if out.Content == "" || !strings.Contains(out.Content, "Reviewed 3 attachments: 1 image, 1 text file, 1 link.") {
		t.Errorf("content = %q", out.Content)
	}
}

func TestContinuity(t *testing.T) {
	s := startDemo(t)
	ctx := testContext(t)
	port := newPort(t, s, demoagent.CardPath, true)
	if _, err := port.Submit(ctx, a2aport.Work{ID: "1", OwnerID: "ann", Instruction: "Write a report on glaciers"}); err != nil {
		t.Fatal(err)
	}
	out, err := port.Submit(ctx, a2aport.Work{ID: "2", OwnerID: "ann", Instruction: "more"})
	if err != nil {
		t.Fatal(err)
	}
	if got := artifactText(out.Artifacts[0]); !strings.HasPrefix(got, "# More on glaciers") || !strings.Contains(got, "## Background") {
		t.Errorf("follow-up report:\n%s", got)
	}
	// Another owner has no conversation yet: "more" is too short to act on.
	rec := newRecorder()
	go func() {
		_, _ = port.Submit(ctx, a2aport.Work{ID: "3", OwnerID: "bob", Instruction: "more"}, a2aport.OnEvent(rec.on))
	}()
	asked := rec.await(t, ctx, func(ev a2aport.Event) bool { return ev.Type == a2aport.EventInputRequested })
	if asked.Input.Prompt != demoagent.AskTopic {
		t.Errorf("prompt = %q, want %q", asked.Input.Prompt, demoagent.AskTopic)
	}
	if _, err := port.Cancel(ctx, "3", "bob"); err != nil {
		t.Fatal(err)
	}
}

func TestServesPageAndPackage(t *testing.T) {
	s := startDemo(t)
	for _, tc := range []struct {
		path, status, contentType, contains string
	}{
		{"/", "200", "text/html", "<html"},
		{"/app.js", "200", "text/javascript", "/a2aport/src/index.js"},
		{"/style.css", "200", "text/css", ""},
		{"/a2aport/src/index.js", "200", "text/javascript", "export const ok"},
		{"/a2aport/a2aport.wasm", "200", "application/wasm", "asm"},
		{"/a2aport/a2aport-1.0.wasm", "404", "text/plain", "404 page not found"}, // one module: only a2aport.wasm is served
		{"/a2aport/other.wasm", "404", "text/plain", "404 page not found"},
		{"/a2aport/secret.txt", "404", "", ""},
		{"/a2aport/package.json", "404", "", ""},
		{"/a2aport/src/", "404", "", ""},
		{"/a2aport/src/../package.json", "404", "", ""},
		{demoagent.CardPath, "200", "application/json", `"name":"a2aport demo agent"`},
		{demoagent.V03CardPath, "200", "application/json", `"protocolVersion": "0.3"`},
	} {
		resp, err := http.Get(s.url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Fields(resp.Status)[0]
		if got != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.contentType) || !strings.Contains(string(body), tc.contains) {
			t.Errorf("GET %s = %s %q %.80q; want %s %q containing %q", tc.path, got, resp.Header.Get("Content-Type"), body, tc.status, tc.contentType, tc.contains)
		}
		if tc.path == "/" && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "'wasm-unsafe-eval'") {
			t.Errorf("GET / has no CSP allowing WebAssembly: %q", resp.Header.Get("Content-Security-Policy"))
		}
	}
	// Preflight for the agent, as a cross-origin page with a token sends it.
	req, err := http.NewRequest(http.MethodOptions, s.url+"/a2a/jsonrpc", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "http://localhost:9999")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		resp.Header.Get("Access-Control-Allow-Headers") != "authorization, content-type" {
		t.Errorf("preflight = %s %v", resp.Status, resp.Header)
	}
}

func artifactText(a a2aport.Artifact) string {
	var b strings.Builder
	for _, p := range a.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// wantOrder checks that text contains each of parts, in that order.
func wantOrder(t *testing.T, text string, parts ...string) {
	t.Helper()
	rest := text
	for _, p := range parts {
		i := strings.Index(rest, p)
		if i < 0 {
			t.Errorf("%q missing or out of order in:\n%s", p, text)
			return
		}
		rest = rest[i+len(p):]
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	var out, errs strings.Builder
	if err := run(context.Background(), []string{"-addr", "0.0.0.0:0"}, &out, &errs); err == nil || !strings.Contains(err.Error(), "loopback only") {
		t.Errorf("run -addr 0.0.0.0:0 = %v, want a loopback-only error", err)
	}
	if err := run(context.Background(), []string{"-lifetime", "-1s"}, &out, &errs); err == nil {
		t.Error("run -lifetime -1s succeeded")
	}
	dir := t.TempDir()
	args := []string{"-addr", "localhost:0", "-lifetime", "100ms", "-js-dir", dir, "-wasm-dir", dir}
	if err := run(context.Background(), args, &out, &errs); err != nil {
		t.Fatalf("run %q: %v", args, err)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if !strings.HasPrefix(first, "a2aport demo: open http://127.0.0.1:") || !strings.HasSuffix(first, "/") {
		t.Errorf("first line = %q, want the page URL", first)
	}
	if !strings.Contains(out.String(), "/v03/.well-known/agent-card.json") {
		t.Errorf("output lacks the 0.3 card URL:\n%s", out.String())
	}
	if !strings.Contains(errs.String(), "make build.wasm") || !strings.Contains(errs.String(), "src/index.js") {
		t.Errorf("stderr does not say what is missing: %q", errs.String())
	}
}
