package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sentTask sends text to the agent of card (-o json, and flags: --async returns at once) and
// returns the task it made.
func sentTask(t *testing.T, env []string, card, text string, flags ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, env, append([]string{"send", "-a", card, "-o", "json", text}, flags...)...)
	id, _ := dig(one(t, out), "task", "id").(string)
	if code != exitOK || id == "" {
		t.Fatalf("send %q %v: exit %d\n%s%s", text, flags, code, out, errOut)
	}
	return id
}

// names is the names of the entries of dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestSpecTaskDownload: DOWNLOAD_001: a task's text, data and file parts saved as files, a URL
// part listed and not fetched; nothing overwritten without --overwrite, nothing written past
// --max-size; an unknown task is the agent's TaskNotFoundError, an unreachable agent 3.
func TestSpecTaskDownload(t *testing.T) {
	t.Parallel()
	card := server.CardURL(stream)
	id := sentTask(t, nil, card, "artifacts to download")
	dir := filepath.Join(t.TempDir(), "out")
	out, errOut, code := runCLI(t, nil, "task", "download", "-a", card, id, "--dir", dir)
	if code != exitOK || !strings.Contains(out, "Task: "+id+"\n") || !strings.Contains(out, "State: COMPLETED\n") ||
		!strings.Contains(out, "Not saved: report.pdf") || !strings.Contains(out, "https://example.com/report.pdf") {
		t.Fatalf("task download: exit %d\n%s%s", code, out, errOut)
	}
	if got, want := names(t, dir), []string{"bytes.bin", "data.json", "notes.txt"}; !slices.Equal(got, want) {
		t.Fatalf("saved %v, want %v", got, want)
	}
	read := func(name string) []byte { b, _ := os.ReadFile(filepath.Join(dir, name)); return b }
	var data map[string]any
	if !bytes.Equal(read("bytes.bin"), []byte{0, 1, 2, 3, 255}) || string(read("notes.txt")) != "hello artifacts" ||
		json.Unmarshal(read("data.json"), &data) != nil || data["answer"] != 42.0 {
		t.Errorf("the files' contents: %q %q %q", read("bytes.bin"), read("notes.txt"), read("data.json"))
	}

	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, nil, "task", "download", "-a", card, id, "--dir", dir, "-o", "json")
	if e := one(t, out); code != exitError || dig(e, "error", "code") != errInternal || !strings.Contains(dig(e, "error", "hint").(string), "--overwrite") ||
		string(read("notes.txt")) != "mine" {
		t.Errorf("a second download without --overwrite: exit %d, %v, notes.txt %q", code, e, read("notes.txt"))
	}
	out, errOut, code = runCLI(t, nil, "task", "download", "-a", card, id, "--dir", dir, "--overwrite", "-o", "json")
	doc := one(t, out)
	files, _ := doc["files"].([]any)
	if code != exitOK || string(read("notes.txt")) != "hello artifacts" || len(files) != 4 || doc["state"] != "TASK_STATE_COMPLETED" ||
		dig(files[2], "url") != "https://example.com/report.pdf" || dig(files[2], "path") != nil || dig(files[1], "path") != filepath.Join(dir, "bytes.bin") {
		t.Errorf("--overwrite -o json: exit %d\n%s%s", code, out, errOut)
	}

	small := filepath.Join(t.TempDir(), "small")
	if _, errOut, code := runCLI(t, nil, "task", "download", "-a", card, id, "--dir", small, "--max-size", "4"); code != exitError ||
		!strings.Contains(errOut, "--max-size") || exists(filepath.Join(small, "notes.txt")) {
		t.Errorf("past --max-size: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runCLI(t, nil, "task", "download", "-a", card, id, "--max-size", "lots"); code != exitUsage {
		t.Errorf("a --max-size that is no size: exit %d\n%s", code, errOut)
	}
	out, _, code = runCLI(t, nil, "task", "download", "-a", card, "no-such-task", "--dir", small, "-o", "json")
	if e := one(t, out); code != exitError || dig(e, "error", "code") != "TaskNotFoundError" {
		t.Errorf("an unknown task: exit %d, %v", code, e)
	}
	if _, errOut, code := runCLI(t, nil, "task", "download", "-a", "http://127.0.0.1:1", id, "--dir", small); code != exitUnreachable {
		t.Errorf("an unreachable agent: exit %d\n%s", code, errOut)
	}
}

// TestSpecTaskDownloadHostileNames: DOWNLOAD_001: whatever an agent names its files (a path up
// or absolute, "..", NUL, a device, a hidden name, a link planted in the folder), every file is
// written in --dir, under a safe name, and nothing outside it.
func TestSpecTaskDownloadHostileNames(t *testing.T) {
	t.Parallel()
	card := startLooseAgent(t, hostileFiles{}, nil)
	id := sentTask(t, nil, card, "hostile names")
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b", "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "target")
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runCLI(t, nil, "task", "download", "-a", card, id, "--dir", dir); code != exitError || !strings.Contains(errOut, "link.txt") {
		t.Errorf("a planted link without --overwrite: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := runCLI(t, nil, "task", "download", "-a", card, id, "--dir", dir, "--overwrite")
	if code != exitOK {
		t.Fatalf("--overwrite: exit %d\n%s%s", code, out, errOut)
	}
	want := []string{"_CON", "_COM9.log", "_bashrc", "_nul.txt", "ab.txt", "art-1.txt", "art-11.bin", "art-4.bin", "escape-2.txt", "escape.txt",
		"link.txt", "passwd", "win.txt", "x"}
	slices.Sort(want)
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("saved %v\nwant  %v\n%s", got, want, out)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("link.txt is not a file of its own: %v", err)
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Error("the planted link was written through")
	}
	err := filepath.WalkDir(base, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Dir(path) != dir {
			t.Errorf("written outside --dir: %s", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
