package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A message's parts, as send's flags give them (SPEC.md §10.2): --text, --file and --data add one
// each, in the order given, and --media-type names the media type of the part flag just before
// it, which is inferred only when it names none.

// partSpec is one part as its flag gave it.
type partSpec struct {
	kind      string // text, file or data
	value     string
	mediaType string
}

// partList is the ordered parts of a message.
type partList struct{ parts []partSpec }

// partFlag is --text, --file or --data: each use adds a part.
type partFlag struct {
	list *partList
	kind string
}

func (p partFlag) String() string { return "" }

func (p partFlag) Set(v string) error {
	p.list.parts = append(p.list.parts, partSpec{kind: p.kind, value: v})
	return nil
}

// mediaTypeFlag is --media-type, bound to the part before it.
type mediaTypeFlag struct{ list *partList }

func (m mediaTypeFlag) String() string { return "" }

func (m mediaTypeFlag) Set(v string) error {
	if len(m.list.parts) == 0 {
		return errors.New("--media-type names the media type of the --text, --file or --data before it, and none came before")
	}
	last := &m.list.parts[len(m.list.parts)-1]
	if last.mediaType != "" {
		return fmt.Errorf("a second --media-type for the %s part %q", last.kind, last.value)
	}
	last.mediaType = v
	return nil
}

// files are the paths of the --file parts (a2aport's own send takes files only).
func (l *partList) files() []string {
	var out []string
	for _, p := range l.parts {
		if p.kind == "file" {
			out = append(out, p.value)
		}
	}
	return out
}

// only says every part is a --file.
func (l *partList) only(kind string) bool {
	for _, p := range l.parts {
		if p.kind != kind {
			return false
		}
	}
	return true
}

// build makes the A2A parts: a text part as it is; a local file as its bytes, a URL as a
// reference the agent fetches (never fetched here); data from a JSON file, or stdin for "-".
func (l *partList) build(stdin io.Reader) ([]*a2a.Part, error) {
	out := make([]*a2a.Part, 0, len(l.parts))
	for _, p := range l.parts {
		var part *a2a.Part
		switch p.kind {
		case "text":
			part = a2a.NewTextPart(p.value)
		case "file":
			if strings.HasPrefix(p.value, "http://") || strings.HasPrefix(p.value, "https://") {
				part = a2a.NewFileURLPart(a2a.URL(p.value), p.mediaType)
				part.Filename = filepath.Base(p.value)
				break
			}
			data, err := os.ReadFile(p.value)
			if err != nil {
				return nil, err
			}
			part = a2a.NewRawPart(data)
			part.Filename = filepath.Base(p.value)
			if part.MediaType = p.mediaType; part.MediaType == "" {
				part.MediaType = inferMediaType(p.value, data)
			}
		case "data":
			var raw []byte
			var err error
			if p.value == "-" {
				raw, err = io.ReadAll(stdin)
			} else {
				raw, err = os.ReadFile(p.value)
			}
			if err != nil {
				return nil, err
			}
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, fmt.Errorf("--data %s: not JSON: %w", p.value, err)
			}
			part = a2a.NewDataPart(v)
		}
		if p.mediaType != "" {
			part.MediaType = p.mediaType
		}
		out = append(out, part)
	}
	return out, nil
}

// inferMediaType is a file's media type by its extension, else by its first bytes.
func inferMediaType(path string, data []byte) string {
	mt := mime.TypeByExtension(filepath.Ext(path))
	if mt == "" {
		mt = http.DetectContentType(data)
	}
	mt, _, _ = strings.Cut(mt, ";")
	return mt
}
