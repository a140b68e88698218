package facade

import (
	"encoding/base64"
	"fmt"
	"maps"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport"
)

// workOf turns the task's first message into a Work. Files go through only when the Port's input
// modes take their media type. Data parts that are objects merge, in order, into the Work's
// structured input; the message's text is the instruction, and wins over an "instruction" field.
func workOf(ec *a2asrv.ExecutorContext, inputModes []string) (a2aport.Work, error) {
	work, err := workOfMessage(ec.Message, inputModes)
	work.ID, work.OwnerID = string(ec.TaskID), ownerOf(ec)
	return work, err
}

// workOfMessage is the Work msg asks for, without the ids the task gives it.
func workOfMessage(msg *a2a.Message, inputModes []string) (a2aport.Work, error) {
	text, files := split(msg)
	input, err := structured(msg)
	if err != nil {
		return a2aport.Work{}, err
	}
	if s, ok := input["instruction"].(string); ok {
		if text == "" {
			text = s
		}
		delete(input, "instruction")
		if len(input) == 0 {
			input = nil // the instruction was all the data said
		}
	}
	if text == "" && len(files) == 0 && len(input) == 0 {
		return a2aport.Work{}, fmt.Errorf("%w: the message has no text, file or data", a2a.ErrInvalidParams)
	}
	for _, f := range files {
		if !accepts(inputModes, f.MIME) {
			return a2aport.Work{}, fmt.Errorf("%w: %s (%s) is not among the input modes %v", a2a.ErrUnsupportedContentType, orName(f.Filename), f.MIME, inputModes)
		}
	}
	return a2aport.Work{Instruction: text, InputParts: files, Input: input}, nil
}

// structured merges the message's data parts (later fields win); nil for none. A data part that
// is not an object has no field to merge: it is refused rather than dropped.
func structured(m *a2a.Message) (map[string]any, error) {
	var out map[string]any
	for i, p := range m.Parts {
		d, ok := p.Content.(a2a.Data)
		if !ok {
			continue
		}
		obj, ok := d.Value.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: data part %d is not an object", a2a.ErrInvalidParams, i)
		}
		if out == nil {
			out = map[string]any{}
		}
		maps.Copy(out, obj)
	}
	return out, nil
}

// accepts reports whether a media type is among modes (exactly, or by a "type/*" or "*/*" mode).
func accepts(modes []string, mediaType string) bool {
	major, _, _ := strings.Cut(mediaType, "/")
	for _, m := range modes {
		if m == mediaType || m == "*/*" || m == major+"/*" {
			return true
		}
	}
	return false
}

func orName(name string) string {
	if name == "" {
		return "a file"
	}
	return name
}

// split gathers a message's text and its files (raw bytes as data: URLs, links as they are).
func split(m *a2a.Message) (string, []a2aport.InputPart) {
	if m == nil {
		return "", nil
	}
	var texts []string
	var files []a2aport.InputPart
	for _, p := range m.Parts {
		switch c := p.Content.(type) {
		case a2a.Text:
			texts = append(texts, string(c))
		case a2a.Raw:
			mt := p.MediaType
			if mt == "" {
				mt = "application/octet-stream"
			}
			files = append(files, a2aport.InputPart{Type: "file", MIME: mt, Filename: p.Filename,
				URL: "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(c)})
		case a2a.URL:
			files = append(files, a2aport.InputPart{Type: "file", MIME: p.MediaType, Filename: p.Filename, URL: string(c)})
		}
	}
	return strings.Join(texts, "\n"), files
}

// messageOf is the agent's message that answers with out: its content, then the artifacts' parts
// that are not text (their text is in the content).
func messageOf(ec *a2asrv.ExecutorContext, out a2aport.Outcome) *a2a.Message {
	msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(out.Content))
	for _, art := range out.Artifacts {
		for _, p := range parts(art.Parts) {
			if _, text := p.Content.(a2a.Text); !text {
				msg.Parts = append(msg.Parts, p)
			}
		}
	}
	msg.ContextID = ec.ContextID
	return msg
}
