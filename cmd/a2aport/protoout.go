package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// The output of the specification's commands (SPEC.md §11): -o json is the protocol's own
// objects, one document, or one per line with --stream; text is "Label: value" lines, the same
// labels every time, content the agent wrote in blocks (a Label: line, the content, a blank line),
// nothing that drives a terminal (clean.go).

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

// writeTaskText is a task: its ids and state, its status message, its artifacts.
func writeTaskText(w io.Writer, t *a2a.Task) {
	field(w, "Task", string(t.ID))
	field(w, "Context", t.ContextID)
	field(w, "State", shortState(t.Status.State))
	if t.Status.Message != nil {
		writePartsText(w, "Status", t.Status.Message.Parts)
	}
	for _, a := range t.Artifacts {
		writeArtifactText(w, a)
	}
	for _, m := range t.History {
		writePartsText(w, "History "+strings.ToLower(strings.TrimPrefix(string(m.Role), "ROLE_")), m.Parts)
	}
}

// writeMessageText is a message reply (no task).
func writeMessageText(w io.Writer, m *a2a.Message) {
	field(w, "Message", m.ID)
	field(w, "Context", m.ContextID)
	if m.TaskID != "" {
		field(w, "Task", string(m.TaskID))
	}
	writePartsText(w, "Text", m.Parts)
}

// writeArtifactText is an artifact: its name and id, then each part.
func writeArtifactText(w io.Writer, a *a2a.Artifact) {
	field(w, "Artifact", strings.TrimSpace(a.Name+" ("+string(a.ID)+")"))
	writePartsText(w, "Content", a.Parts)
}

// writePartsText writes every part, none left out (§10.2): text as text, data as indented JSON,
// a file by its name, media type and size (its bytes are written only by task download).
func writePartsText(w io.Writer, label string, parts a2a.ContentParts) {
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			block(w, label, text.String())
			text.Reset()
		}
	}
	for _, p := range parts {
		if p == nil {
			continue
		}
		switch c := p.Content.(type) {
		case a2a.Text:
			text.WriteString(string(c))
		case a2a.Data:
			flush()
			data, _ := json.MarshalIndent(c.Value, "", "  ")
			block(w, "Data", string(data))
		case a2a.Raw:
			flush()
			field(w, "File", fmt.Sprintf("%s, %s, %d bytes", orDefault(p.Filename, "(no name)"), orDefault(p.MediaType, "application/octet-stream"), len(c)))
		case a2a.URL:
			flush()
			field(w, "File", fmt.Sprintf("%s, %s, at %s", orDefault(p.Filename, "(no name)"), orDefault(p.MediaType, "application/octet-stream"), string(c)))
		default:
			flush()
			field(w, "Part", fmt.Sprintf("%T", c))
		}
	}
	flush()
}

// writeEventText is one event of a stream, in the same fields and blocks.
func writeEventText(w io.Writer, ev a2a.Event) {
	switch e := ev.(type) {
	case *a2a.Task:
		writeTaskText(w, e)
	case *a2a.Message:
		writeMessageText(w, e)
	case *a2a.TaskStatusUpdateEvent:
		field(w, "Task", string(e.TaskID))
		field(w, "Context", e.ContextID)
		field(w, "State", shortState(e.Status.State))
		if e.Status.Message != nil {
			writePartsText(w, "Status", e.Status.Message.Parts)
		}
	case *a2a.TaskArtifactUpdateEvent:
		field(w, "Task", string(e.TaskID))
		if e.Artifact != nil {
			writeArtifactText(w, e.Artifact)
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
