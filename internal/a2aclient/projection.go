package a2aclient

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

const defaultMIME = "application/octet-stream"

// projectWork checks a Work before anything is sent and projects its input once: the parts of
// the outgoing message. Bad input loses nothing: no request is made.
func projectWork(w a2aport.Work) ([]*a2a.Part, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	var parts []*a2a.Part
	if strings.TrimSpace(w.Instruction) != "" {
		parts = append(parts, a2a.NewTextPart(w.Instruction))
	}
	for i, p := range w.InputParts {
		part, err := filePart(p)
		if err != nil {
			return nil, newError(a2aport.CodeInvalidWork, "work %q: input part %d: %s", w.ID, i, err.Error())
		}
		parts = append(parts, part)
	}
	if len(w.Input) > 0 {
		parts = append(parts, a2a.NewDataPart(w.Input))
	}
	return parts, nil
}

// outgoingMessage is the user Message of DESIGN.md §3: the instruction as one text part, then the
// files, then the structured input as one data part (projectWork's parts). Nothing else of the frontend (history, ids, routing) is sent.
func outgoingMessage(parts []*a2a.Part, contextID string) *a2a.Message {
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	msg.ContextID = contextID
	return msg
}

type partError string

func (e partError) Error() string { return string(e) }

// filePart turns an input file into a raw part (data: URLs) or a URL part.
func filePart(p a2aport.InputPart) (*a2a.Part, error) {
	if p.Type != "" && p.Type != "file" {
		return nil, partError("type must be \"file\", got " + strconv.Quote(p.Type))
	}
	if p.URL == "" {
		return nil, partError("url is required")
	}
	mime := p.MIME
	if strings.HasPrefix(p.URL, "data:") {
		data, dataMIME, err := decodeDataURL(p.URL)
		if err != nil {
			return nil, err
		}
		if mime == "" {
			mime = dataMIME
		}
		if mime == "" {
			mime = defaultMIME
		}
		part := a2a.NewRawPart(data)
		part.MediaType, part.Filename = mime, p.Filename
		return part, nil
	}
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, partError("url must be a data: URL or an absolute http(s) URL")
	}
	if mime == "" {
		mime = defaultMIME
	}
	part := a2a.NewFileURLPart(a2a.URL(p.URL), mime)
	part.Filename = p.Filename
	return part, nil
}

// decodeDataURL decodes RFC 2397 data: URLs, base64 or percent-encoded.
func decodeDataURL(raw string) ([]byte, string, error) {
	header, payload, ok := strings.Cut(strings.TrimPrefix(raw, "data:"), ",")
	if !ok {
		return nil, "", partError("data: URL has no comma")
	}
	isBase64 := strings.HasSuffix(header, ";base64")
	mime := strings.TrimSuffix(header, ";base64")
	if i := strings.IndexByte(mime, ';'); i >= 0 && !strings.Contains(mime[:i], "=") {
		mime = mime[:i] // drop parameters such as ;charset=
	}
	if isBase64 {
		data, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			if data, err = base64.RawStdEncoding.DecodeString(payload); err != nil {
				return nil, "", partError("data: URL has invalid base64")
			}
		}
		return data, mime, nil
	}
	text, err := url.PathUnescape(payload)
	if err != nil {
		return nil, "", partError("data: URL has invalid percent-encoding")
	}
	return []byte(text), mime, nil
}

// answerMessage continues the remote task with the user's answer to an input request.
func answerMessage(task a2a.TaskID, contextID string, resp a2aport.InputResponse, defaultText string) *a2a.Message {
	text := resp.Text
	if text == "" && len(resp.Values) == 0 {
		text = defaultText
	}
	var parts []*a2a.Part
	if text != "" {
		parts = append(parts, a2a.NewTextPart(text))
	}
	if len(resp.Values) > 0 {
		parts = append(parts, a2a.NewDataPart(resp.Values))
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	msg.TaskID, msg.ContextID = task, contextID
	return msg
}

// workState maps an A2A task state to a Work state (DESIGN.md §3); unknown states count as working.
func workState(s a2a.TaskState) a2aport.WorkState {
	switch s {
	case a2a.TaskStateSubmitted:
		return a2aport.StateSubmitted
	case a2a.TaskStateInputRequired:
		return a2aport.StateInputRequired
	case a2a.TaskStateAuthRequired:
		return a2aport.StateAuthRequired
	case a2a.TaskStateCompleted:
		return a2aport.StateCompleted
	case a2a.TaskStateFailed:
		return a2aport.StateFailed
	case a2a.TaskStateRejected:
		return a2aport.StateRejected
	case a2a.TaskStateCanceled:
		return a2aport.StateCancelled
	default:
		return a2aport.StateWorking
	}
}

// messageText joins the text parts of m.
func messageText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	return partsText(m.Parts)
}

func partsText(parts []*a2a.Part) string {
	var b strings.Builder
	for _, p := range parts {
		if p == nil {
			continue
		}
		if t, ok := p.Content.(a2a.Text); ok {
			b.WriteString(string(t))
		}
	}
	return b.String()
}

// convertPart projects an A2A part; nil content (malformed) is skipped by the caller.
func convertPart(p *a2a.Part) (a2aport.Part, bool) {
	if p == nil {
		return a2aport.Part{}, false
	}
	out := a2aport.Part{MediaType: p.MediaType, Filename: p.Filename}
	switch c := p.Content.(type) {
	case a2a.Text:
		out.Type, out.Text = a2aport.PartText, string(c)
	case a2a.Raw:
		out.Type, out.Raw = a2aport.PartRaw, append([]byte(nil), c...)
	case a2a.URL:
		out.Type, out.URL = a2aport.PartURL, string(c)
	case a2a.Data:
		out.Type, out.Data = a2aport.PartData, c.Value
	default:
		return a2aport.Part{}, false
	}
	return out, true
}

func convertParts(parts []*a2a.Part) []a2aport.Part {
	out := make([]a2aport.Part, 0, len(parts))
	for _, p := range parts {
		if c, ok := convertPart(p); ok {
			out = append(out, c)
		}
	}
	return out
}
