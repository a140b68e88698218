package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var taskDownloadCommand = &subcommand{
	name: "task download", args: "TASK_ID", summary: "save a task's artifacts as files in a folder",
	about: `Asks the agent for the task (GetTask) and saves each of its artifacts' parts as a file in --dir:
a file part's bytes as they are, a data part as indented JSON, consecutive text parts as one text
file. A file is named as the agent named the part, made safe (no folder, no "..", no control
character, no leading dot, no name a file system reserves), else after the artifact
(notes.txt, data-2.json). A part that is a URL is not fetched (the agent's URL could point
anywhere): it is listed with its URL. Nothing is written unless all of it fits in --max-size
and no file of those names exists in --dir (--overwrite replaces them); nothing is ever written
outside --dir. -o json prints what was saved, one document.`,
	examples: `$ a2aport task download -a http://127.0.0.1:8080 01a236ef-233c-7cb4-bb2c-3e9be8a1cd34
$ a2aport task download -a https://agent.example 01a236ef-… --dir ./out --overwrite
$ a2aport task download -a https://agent.example 01a236ef-… -o json | jq -r '.files[].path'`,
	groups:   []flagGroup{{"Download", []string{"dir", "overwrite", "max-size"}}, agentFlagGroup},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(downloadFlags).register(fs) },
	run:      interruptible(runTaskDownload),
}

type downloadFlags struct {
	agent     agentFlags
	dir       string
	overwrite bool
	maxSize   byteSize
}

func (f *downloadFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	f.maxSize = 100 << 20
	fs.StringVar(&f.dir, "dir", ".", "the `folder` to save the files in (made when missing)")
	fs.BoolVar(&f.overwrite, "overwrite", false, "replace files of the same names in --dir (default: refuse, and write nothing)")
	fs.Var(&f.maxSize, "max-size", "write nothing when the files would take more than this `size` together")
}

// saved is one part of an artifact and the file it goes to (or why it does not).
type saved struct {
	Path         string `json:"path,omitempty"`
	ArtifactID   string `json:"artifactId"`
	ArtifactName string `json:"artifactName,omitempty"`
	Part         int    `json:"part"` // the first part of the file, from 1
	Kind         string `json:"kind"` // text, data, file (bytes), file (url)
	MediaType    string `json:"mediaType,omitempty"`
	Bytes        int    `json:"bytes"`
	URL          string `json:"url,omitempty"`
	NotSaved     string `json:"notSaved,omitempty"` // why not
	name         string
	data         []byte
}

// downloadResult is -o json's document: the task, and each of its artifacts' files.
type downloadResult struct {
	TaskID    string  `json:"taskId"`
	ContextID string  `json:"contextId"`
	State     string  `json:"state"`
	Dir       string  `json:"dir"`
	Files     []saved `json:"files"`
}

// runTaskDownload saves the task's artifacts.
func runTaskDownload(ctx context.Context, args []string, s streams) int {
	var f downloadFlags
	conn, id, code, ok := openTask(ctx, "task download", args, s, &f.agent, f.register, nil)
	if !ok {
		return code
	}
	asJSON := f.agent.output == "json"
	task, err := conn.GetTask(ctx, &a2a.GetTaskRequest{ID: a2a.TaskID(id)})
	if err != nil {
		return report(s, asJSON, classify(err, conn, f.agent.hasCredentials()))
	}
	files := planDownload(task)
	if err := writeDownload(f.dir, files, f.overwrite, int64(f.maxSize)); err != nil {
		return report(s, asJSON, err)
	}
	if asJSON {
		_ = writeJSON(s.stdout, downloadResult{TaskID: string(task.ID), ContextID: task.ContextID, State: string(task.Status.State), Dir: f.dir, Files: files})
	} else {
		writeDownloadText(s, task, files)
	}
	if !task.Status.State.Terminal() && !interrupted(task.Status.State) {
		fmt.Fprintf(s.stderr, "Warning: task %s is %s: its artifacts may not be whole yet (a2aport task get --wait first)\n", cleanLine(string(task.ID)), shortState(task.Status.State))
	}
	outcomeWarning(s.stderr, task.Status.State, task.ID, replyCommand(conn.ref, task.ID))
	return exitOK
}

// writeDownloadText is the text of a download: the task's ids and state, then a line per file.
func writeDownloadText(s streams, task *a2a.Task, files []saved) {
	field(s.stdout, "Task", string(task.ID))
	field(s.stdout, "Context", task.ContextID)
	field(s.stdout, "State", shortState(task.Status.State))
	field(s.stdout, "Artifacts", strconv.Itoa(len(task.Artifacts)))
	for _, f := range files {
		what := fmt.Sprintf("artifact %s part %d, %s", orDefault(f.ArtifactName, f.ArtifactID), f.Part, f.Kind)
		if f.MediaType != "" {
			what += ", " + f.MediaType
		}
		if f.NotSaved != "" {
			field(s.stdout, "Not saved", fmt.Sprintf("%s (%s), at %s: %s", f.name, what, f.URL, f.NotSaved))
			continue
		}
		field(s.stdout, "Saved", fmt.Sprintf("%s (%s, %d bytes)", f.Path, what, f.Bytes))
	}
}

// planDownload is the files of the task's artifacts: one per file or data part, one per run of
// text parts, each under a safe name no other file of the task takes.
func planDownload(task *a2a.Task) []saved {
	var files []saved
	for ai, a := range task.Artifacts {
		if a == nil {
			continue
		}
		first := len(files)
		for i := 0; i < len(a.Parts); i++ {
			p := a.Parts[i]
			if p == nil {
				continue
			}
			f := saved{ArtifactID: string(a.ID), ArtifactName: a.Name, Part: i + 1, Kind: partKind(p), MediaType: p.MediaType, name: p.Filename}
			switch c := p.Content.(type) {
			case a2a.Text:
				text := string(c)
				for i+1 < len(a.Parts) && a.Parts[i+1] != nil && isText(a.Parts[i+1]) {
					i++
					text += string(a.Parts[i].Content.(a2a.Text))
				}
				f.data = []byte(text)
			case a2a.Data:
				f.data, _ = json.MarshalIndent(c.Value, "", "  ")
				f.data = append(f.data, '\n')
			case a2a.Raw:
				f.data = c
			case a2a.URL:
				f.URL, f.NotSaved = string(c), "a URL is not fetched: fetch it yourself if you trust it"
			default:
				f.NotSaved = "a part of a kind a2aport does not know"
			}
			f.Bytes = len(f.data)
			files = append(files, f)
		}
		stem := orDefault(a.Name, orDefault(string(a.ID), fmt.Sprintf("artifact-%d", ai+1)))
		for i := first; i < len(files); i++ {
			fallback := stem
			if len(files)-first > 1 {
				fallback = fmt.Sprintf("%s-%d", stem, files[i].Part)
			}
			fallback = safeName(fallback+fileExtension(files[i]), fmt.Sprintf("artifact-%d-%d%s", ai+1, files[i].Part, fileExtension(files[i])))
			files[i].name = safeName(files[i].name, fallback)
		}
	}
	taken := map[string]bool{}
	for i := range files {
		files[i].name = freeName(files[i].name, taken)
	}
	return files
}

func isText(p *a2a.Part) bool { _, ok := p.Content.(a2a.Text); return ok }

// fileExtension is the extension a file without a name takes: its media type's, else its kind's.
func fileExtension(f saved) string {
	mediaType, _, _ := mime.ParseMediaType(f.MediaType)
	switch {
	case mediaType == "text/plain":
		return ".txt"
	case mediaType == "text/markdown":
		return ".md"
	case mediaType == "application/json" || f.Kind == "data":
		return ".json"
	}
	if exts, _ := mime.ExtensionsByType(mediaType); len(exts) > 0 {
		return exts[0]
	}
	if f.Kind == "text" {
		return ".txt"
	}
	return ".bin"
}

// freeName is name, or name-2.ext, name-3.ext, … when another file of the download has it (as a
// case-insensitive file system would see it).
func freeName(name string, taken map[string]bool) string {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	candidate := name
	for n := 2; taken[strings.ToLower(candidate)]; n++ {
		candidate = shorten(fmt.Sprintf("%s-%d", stem, n), maxNameBytes-len(ext)) + ext
	}
	taken[strings.ToLower(candidate)] = true
	return candidate
}

// writeDownload writes the files into dir, all or none of them as far as it can tell before
// writing: their size together within max, and no name taken unless overwrite. Every file is
// opened through an os.Root of dir, so no name, link or race takes a write outside it; a new
// file is created exclusively, a replaced one written aside and renamed over the old.
func writeDownload(dir string, files []saved, overwrite bool, max int64) *cliError {
	fail := func(msg, hint string) *cliError {
		return &cliError{code: errInternal, message: msg, hint: hint, exit: exitError}
	}
	var total int64
	for _, f := range files {
		total += int64(f.Bytes)
	}
	if total > max {
		return fail(fmt.Sprintf("the artifacts take %d bytes, more than --max-size %d: nothing was written", total, max), "raise --max-size if you expect that much")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err.Error(), "")
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fail(err.Error(), "")
	}
	defer func() { _ = root.Close() }()
	if !overwrite {
		var taken []string
		for _, f := range files {
			if _, err := root.Lstat(f.name); f.NotSaved == "" && err == nil {
				taken = append(taken, f.name)
			}
		}
		if len(taken) > 0 {
			return fail(fmt.Sprintf("%s already holds %s: nothing was written", dir, strings.Join(taken, ", ")), "--overwrite replaces them; --dir saves elsewhere")
		}
	}
	for i, f := range files {
		if f.NotSaved != "" {
			continue
		}
		if err := writeOne(root, f.name, f.data, overwrite); err != nil {
			return fail(fmt.Sprintf("%s: %v (%d of the files were written before it)", f.name, err, i), "")
		}
		files[i].Path = filepath.Join(dir, f.name)
	}
	return nil
}

// writeOne writes data as name in root: a new file, or with overwrite a file written aside and
// renamed over name (a link of that name is replaced, never written through).
func writeOne(root *os.Root, name string, data []byte, overwrite bool) error {
	target := name
	if overwrite {
		var suffix [6]byte
		_, _ = rand.Read(suffix[:])
		target = "_a2aport-" + hex.EncodeToString(suffix[:]) + ".part"
	}
	f, err := root.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("it appeared while writing, and is left as it is")
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && overwrite {
		err = root.Rename(target, name)
	}
	if err != nil {
		_ = root.Remove(target) // a partial file is no save
	}
	return err
}
