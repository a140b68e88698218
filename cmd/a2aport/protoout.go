package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// The output of the specification's commands (SPEC.md §11): -o json is the protocol's own
// objects, one document, or one per line with --stream; text is "Label: value" lines, the same
// labels every time, content the agent wrote in blocks (a Label: line, the content, a blank line),
// nothing that drives a terminal (clean.go).
//
// Text has two levels of detail (§6.5, §7.2 --verbose). Concise, the default, is what a caller
// acts on: the task's ids and state, its status message and its artifacts, each part rendered
// (text as text, data as JSON, a file by name, media type and size) and consecutive text parts
// joined, as a streamed answer reads. --verbose shows all that was exchanged, part by part: each
// part's place, kind, media type, file name and metadata, the artifacts' descriptions and
// metadata, the status's time, the message sent (send), and the task's history.

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(jsonSafe(line)))
	return err
}

// shortState is a task state as the text shows it: COMPLETED for TASK_STATE_COMPLETED, and
// UNSPECIFIED for none (reported as received, never as a neighbouring state: §9.1).
func shortState(s a2a.TaskState) string {
	if s == a2a.TaskStateUnspecified {
		return "UNSPECIFIED"
	}
	return strings.TrimPrefix(string(s), "TASK_STATE_")
}

// field writes one Label: value line.
func field(w io.Writer, label, value string) {
	fmt.Fprintf(w, "%s: %s\n", label, cleanLine(value))
}

// block writes content under its label, closed by a blank line.
func block(w io.Writer, label, content string) {
	fmt.Fprintf(w, "%s:\n%s\n\n", label, strings.TrimRight(clean(content), "\n"))
}

// textOut writes the protocol's objects as text, concise or verbose.
type textOut struct {
	w       io.Writer
	verbose bool
	history bool // task get --history asked for it: shown when concise too
}

// task is a task: its ids and state, its status message, its artifacts (verbose: its metadata
// and history too; concise shows the history only when task get --history asked for it).
func (o textOut) task(t *a2a.Task) {
	field(o.w, "Task", string(t.ID))
	field(o.w, "Context", t.ContextID)
	field(o.w, "State", shortState(t.Status.State))
	if o.verbose && t.Status.Timestamp != nil {
		field(o.w, "Updated", t.Status.Timestamp.UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	o.metadata("Metadata", t.Metadata)
	if t.Status.Message != nil {
		o.statusMessage(t.Status.Message)
	}
	for _, a := range t.Artifacts {
		o.artifact(a)
	}
	if !o.verbose && !o.history {
		return
	}
	field(o.w, "History", strconv.Itoa(len(t.History))+" messages")
	for _, m := range t.History {
		o.historyMessage(m)
	}
}

// statusMessage is the message of a status: its parts under Status (verbose: its id and each
// part on its own).
func (o textOut) statusMessage(m *a2a.Message) {
	if !o.verbose {
		o.parts("Status", m.Parts)
		return
	}
	field(o.w, "Status message", m.ID)
	o.parts("Status", m.Parts)
	o.metadata("Status metadata", m.Metadata)
}

// historyMessage is one message of a task's history (verbose: its id and metadata too).
func (o textOut) historyMessage(m *a2a.Message) {
	if m == nil {
		return
	}
	if o.verbose {
		field(o.w, "History message", m.ID+" ("+role(m.Role)+")")
	}
	o.metadata("Message metadata", m.Metadata)
	o.parts("History "+role(m.Role), m.Parts)
}

// sent is the message send sent (verbose only): what went to the agent.
func (o textOut) sent(m *a2a.Message) {
	if !o.verbose {
		return
	}
	field(o.w, "Sent message", m.ID)
	o.metadata("Sent metadata", m.Metadata)
	o.parts("Sent", m.Parts)
}

// role is a message's role as the text shows it: user or agent.
func role(r a2a.MessageRole) string {
	return strings.ToLower(strings.TrimPrefix(string(r), "ROLE_"))
}

// message is a message reply (no task).
func (o textOut) message(m *a2a.Message) {
	field(o.w, "Message", m.ID)
	field(o.w, "Context", m.ContextID)
	if m.TaskID != "" {
		field(o.w, "Task", string(m.TaskID))
	}
	if o.verbose {
		field(o.w, "Role", role(m.Role))
	}
	o.metadata("Metadata", m.Metadata)
	o.parts("Text", m.Parts)
}

// artifact is an artifact: its name and id, then its parts (verbose: its description and
// metadata before them).
func (o textOut) artifact(a *a2a.Artifact) {
	field(o.w, "Artifact", strings.TrimSpace(a.Name+" ("+string(a.ID)+")"))
	if o.verbose && a.Description != "" {
		field(o.w, "Description", a.Description)
	}
	o.metadata("Artifact metadata", a.Metadata)
	o.parts("Content", a.Parts)
}

// metadata is a metadata object on one line of JSON, verbose only.
func (o textOut) metadata(label string, m map[string]any) {
	if !o.verbose || len(m) == 0 {
		return
	}
	line, err := json.Marshal(m)
	if err != nil {
		line = []byte(err.Error())
	}
	field(o.w, label, string(line))
}

// parts writes every part, none left out (§10.2): concise joins consecutive text parts under
// label, verbose writes each part on its own.
func (o textOut) parts(label string, parts a2a.ContentParts) {
	if o.verbose {
		o.eachPart(label, parts)
		return
	}
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			block(o.w, label, text.String())
			text.Reset()
		}
	}
	for _, p := range parts {
		if p == nil {
			continue
		}
		if t, ok := p.Content.(a2a.Text); ok {
			text.WriteString(string(t))
			continue
		}
		flush()
		o.content(p)
	}
	flush()
}

// eachPart is parts, verbose: a Part line for each (its place, kind, media type, file name),
// its metadata, then its content.
func (o textOut) eachPart(label string, parts a2a.ContentParts) {
	for i, p := range parts {
		if p == nil {
			continue
		}
		desc := []string{fmt.Sprintf("%s %d of %d", label, i+1, len(parts)), partKind(p)}
		if p.MediaType != "" {
			desc = append(desc, p.MediaType)
		}
		if p.Filename != "" {
			desc = append(desc, p.Filename)
		}
		field(o.w, "Part", strings.Join(desc, ", "))
		o.metadata("Part metadata", p.Metadata)
		if t, ok := p.Content.(a2a.Text); ok {
			block(o.w, label, string(t))
			continue
		}
		o.content(p)
	}
}

// partKind is a part's kind: text, data, file (bytes) or file (url).
func partKind(p *a2a.Part) string {
	switch p.Content.(type) {
	case a2a.Text:
		return "text"
	case a2a.Data:
		return "data"
	case a2a.Raw:
		return "file (bytes)"
	case a2a.URL:
		return "file (url)"
	}
	return fmt.Sprintf("%T", p.Content)
}

// content is a part that is not text: data as indented JSON, a file by its name, media type and
// size or URL (its bytes are written only by task download).
func (o textOut) content(p *a2a.Part) {
	switch c := p.Content.(type) {
	case a2a.Text:
		block(o.w, "Text", string(c))
	case a2a.Data:
		data, _ := json.MarshalIndent(c.Value, "", "  ")
		block(o.w, "Data", string(data))
	case a2a.Raw:
		field(o.w, "File", fmt.Sprintf("%s, %s, %d bytes", orDefault(p.Filename, "(no name)"), orDefault(p.MediaType, "application/octet-stream"), len(c)))
	case a2a.URL:
		field(o.w, "File", fmt.Sprintf("%s, %s, at %s", orDefault(p.Filename, "(no name)"), orDefault(p.MediaType, "application/octet-stream"), string(c)))
	default:
		field(o.w, "Part", fmt.Sprintf("%T", c))
	}
}

// event is one event of a stream, in the same fields and blocks.
func (o textOut) event(ev a2a.Event) {
	switch e := ev.(type) {
	case *a2a.Task:
		o.task(e)
	case *a2a.Message:
		o.message(e)
	case *a2a.TaskStatusUpdateEvent:
		field(o.w, "Task", string(e.TaskID))
		field(o.w, "Context", e.ContextID)
		field(o.w, "State", shortState(e.Status.State))
		o.metadata("Event metadata", e.Metadata)
		if e.Status.Message != nil {
			o.statusMessage(e.Status.Message)
		}
	case *a2a.TaskArtifactUpdateEvent:
		field(o.w, "Task", string(e.TaskID))
		if o.verbose {
			field(o.w, "Append", yesNo(e.Append))
			field(o.w, "Last chunk", yesNo(e.LastChunk))
		}
		o.metadata("Event metadata", e.Metadata)
		if e.Artifact != nil {
			o.artifact(e.Artifact)
		}
	}
}

// outcomeWarning names, on stderr, a task that did not complete: the exit status is 0 for any
// turn the command conducted (SPEC.md §6.6), so this is where a person reads it.
func outcomeWarning(w io.Writer, state a2a.TaskState, task a2a.TaskID, resume string) {
	switch state {
	case a2a.TaskStateCompleted, a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateUnspecified:
		return
	case a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		fmt.Fprintf(w, "Warning: task %s waits: %s\nResume: %s\n", cleanLine(string(task)), shortState(state), resume)
		return
	}
	fmt.Fprintf(w, "Warning: task %s ended %s\n", cleanLine(string(task)), shortState(state))
}
