package demoagent

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image"
	_ "image/gif" // registers GIF for image.DecodeConfig
	_ "image/jpeg"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// attachment is what the agent found out about one file the user sent.
type attachment struct {
	name  string
	mime  string
	size  int    // bytes; -1 for a link
	url   string // for a link
	kind  string // "image", "text", "file" or "link"
	note  string
	thumb []byte // a PNG thumbnail of an image, when one could be made
}

// Limits on what the agent decodes: thumbnails only for images up to maxPixels, at most
// thumbSize pixels on their longer side.
const (
	maxPixels = 4096 * 4096
	thumbSize = 160
)

// describeFiles looks at the raw and URL parts the user sent; it never fetches a URL.
func describeFiles(parts []*a2a.Part) []attachment {
	var out []attachment
	for i, p := range parts {
		a := attachment{name: p.Filename, mime: p.MediaType}
		if a.name == "" {
			a.name = "attachment " + strconv.Itoa(i+1)
		}
		switch content := p.Content.(type) {
		case a2a.Raw:
			describeRaw(&a, content)
		case a2a.URL:
			a.kind, a.size, a.url = "link", -1, string(content)
			a.note = "A link; the demo agent does not download links."
			if strings.HasPrefix(a.mime, "image/") {
				a.note = "A link to an image; the demo agent does not download links, your browser shows it below."
			}
		case a2a.Data:
			a.kind, a.size = "file", len(jsonText(content.Value))
			a.note = "Structured data (JSON)."
		default:
			continue
		}
		if a.mime == "" {
			a.mime = "unknown"
		}
		out = append(out, a)
	}
	return out
}

func describeRaw(a *attachment, raw []byte) {
	a.size = len(raw)
	sniffed := http.DetectContentType(raw)
	switch {
	case strings.HasPrefix(a.mime, "image/") || strings.HasPrefix(sniffed, "image/"):
		a.kind = "image"
		describeImage(a, raw)
	case isText(a.mime, sniffed, raw):
		a.kind = "text"
		text := string(raw)
		lines := strings.Count(text, "\n")
		if !strings.HasSuffix(text, "\n") && text != "" {
			lines++
		}
		first, _, _ := strings.Cut(strings.TrimLeft(text, "\r\n"), "\n")
		a.note = fmt.Sprintf("A text file of %s; it begins “%s”.", plural(lines, "line"), oneLine(strings.TrimSpace(first)))
	default:
		a.kind = "file"
		a.note = "Binary content, first bytes `" + hexPrefix(raw, 4) + "`."
		if a.mime == "" || a.mime == "application/octet-stream" {
			if base, _, _ := strings.Cut(sniffed, ";"); base != "application/octet-stream" {
				a.note += " It looks like " + base + "."
			}
		}
	}
}

// describeImage reads the image header and makes a thumbnail of images of a sensible size.
func describeImage(a *attachment, raw []byte) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		a.note = "An image, but not one I can read: I understand PNG, JPEG and GIF."
		return
	}
	a.note = fmt.Sprintf("A %s image, %d × %d pixels.", strings.ToUpper(format), cfg.Width, cfg.Height)
	if cfg.Width*cfg.Height > maxPixels {
		a.note += " Too large for a thumbnail."
		return
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		a.note += " Its pixel data is damaged, so there is no thumbnail."
		return
	}
	var buf bytes.Buffer
	if png.Encode(&buf, shrink(img, thumbSize)) == nil {
		a.thumb = buf.Bytes()
		a.note += " A thumbnail is attached."
	}
}

// shrink scales img down (nearest neighbour) to fit a size × size box; smaller images stay as they are.
func shrink(img image.Image, size int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= size && h <= size {
		return img
	}
	tw, th := size, max(1, h*size/w)
	if h > w {
		tw, th = max(1, w*size/h), size
	}
	out := image.NewRGBA(image.Rect(0, 0, tw, th))
	for y := range th {
		for x := range tw {
			out.Set(x, y, img.At(b.Min.X+x*w/tw, b.Min.Y+y*h/th))
		}
	}
	return out
}

func isText(mime, sniffed string, raw []byte) bool {
	switch {
	case strings.HasPrefix(mime, "text/"), mime == "application/json", strings.HasSuffix(mime, "+json"),
		mime == "application/xml", strings.HasSuffix(mime, "+xml"):
		return utf8.Valid(raw)
	case mime == "" || mime == "application/octet-stream":
		return strings.HasPrefix(sniffed, "text/plain") && utf8.Valid(raw)
	}
	return false
}

func hexPrefix(raw []byte, n int) string {
	var parts []string
	for _, c := range raw[:min(n, len(raw))] {
		parts = append(parts, fmt.Sprintf("%02x", c))
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, " ")
}

// attachmentSection is the markdown of one attachment in the review.
func attachmentSection(i int, a attachment) section {
	lines := []string{"- **Type**: " + a.mime}
	if a.size >= 0 {
		lines = append(lines, "- **Size**: "+humanSize(a.size))
	}
	if a.url != "" {
		lines = append(lines, "- **Link**: `"+oneLine(a.url)+"`")
	}
	lines = append(lines, "- **Note**: "+a.note)
	return section{title: fmt.Sprintf("%d. %s", i+1, a.name), body: strings.Join(lines, "\n")}
}

// filesReport reviews the attachments, one section each.
func filesReport(j job, c conversation, files []attachment) report {
	r := report{title: "Attachments", intro: fmt.Sprintf("_%s received", plural(len(files), "file"))}
	if j.topic != "" {
		r.intro += " with the note “" + oneLine(j.topic) + "”"
	}
	r.intro += "._"
	if c.bearer {
		r.intro += "\n\n_The request carried a bearer token (this demo agent accepts any)._"
	}
	for i, a := range files {
		r.sections = append(r.sections, attachmentSection(i, a))
	}
	return r
}

// filesCSV is the review as a spreadsheet: name, type, size, kind, note.
func filesCSV(files []attachment) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	rows := [][]string{{"name", "type", "bytes", "kind", "note"}}
	for _, a := range files {
		size := ""
		if a.size >= 0 {
			size = strconv.Itoa(a.size)
		}
		rows = append(rows, []string{a.name, a.mime, size, a.kind, a.note})
	}
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// filesSummary is the final status text: how many files of which kind.
func filesSummary(files []attachment) string {
	counts := map[string]int{}
	for _, a := range files {
		counts[a.kind]++
	}
	var parts []string
	for _, k := range []struct{ kind, noun string }{{"image", "image"}, {"text", "text file"}, {"file", "other file"}, {"link", "link"}} {
		if n := counts[k.kind]; n > 0 {
			parts = append(parts, plural(n, k.noun))
		}
	}
	return fmt.Sprintf("Reviewed %s: %s.", plural(len(files), "attachment"), strings.Join(parts, ", "))
}

// humanSize is "1.2 KB (1,234 bytes)", or "120 bytes" for small sizes.
func humanSize(n int) string {
	exact := plural(n, "byte")
	if n < 1000 {
		return exact
	}
	v, unit := float64(n)/1000, "KB"
	if v >= 1000 {
		v, unit = v/1000, "MB"
	}
	return fmt.Sprintf("%.1f %s (%s)", v, unit, grouped(n)+" bytes")
}

func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
