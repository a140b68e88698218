package binding

import (
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// TestZeroThreeFilePartsRead: a 1.0 task whose artifact holds a file part written the 0.3 way (a
// URI, or bytes) is read whole, the part as 1.0's; a part that is still nothing known leaves the
// answer refused, as before.
func TestZeroThreeFilePartsRead(t *testing.T) {
	t.Parallel()
	task := `{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","parts":[
		{"text":"see the files"},
		{"kind":"file","file":{"uri":"https://files.example/r.pdf","mimeType":"application/pdf","name":"r.pdf"}},
		{"kind":"file","file":{"bytes":"aGVsbG8=","mimeType":"text/plain"}},
		{"text":"n: 12345678901234567890"},
		{"file":{"bytes":"aGk=","mediaType":"text/plain","name":"hi.txt"}},
		{"fileUrl":{"url":"https://files.example/s.pdf","mediaType":"application/pdf","filename":"s.pdf"}}]}]}`
	var got a2a.Task
	if err := unmarshal10([]byte(task), &got); err != nil {
		t.Fatal(err)
	}
	parts := got.Artifacts[0].Parts
	if len(parts) != 6 {
		t.Fatalf("%d parts", len(parts))
	}
	if b, ok := parts[4].Content.(a2a.Raw); !ok || string(b) != "hi" || parts[4].Filename != "hi.txt" || parts[4].MediaType != "text/plain" {
		t.Errorf("a file without its kind: %+v", parts[4])
	}
	if u, ok := parts[5].Content.(a2a.URL); !ok || u != "https://files.example/s.pdf" || parts[5].Filename != "s.pdf" {
		t.Errorf("a fileUrl part: %+v", parts[5])
	}
	if u, ok := parts[1].Content.(a2a.URL); !ok || u != "https://files.example/r.pdf" || parts[1].MediaType != "application/pdf" || parts[1].Filename != "r.pdf" {
		t.Errorf("the file by URI: %+v", parts[1])
	}
	if b, ok := parts[2].Content.(a2a.Raw); !ok || string(b) != "hello" || parts[2].MediaType != "text/plain" {
		t.Errorf("the file by bytes: %+v", parts[2])
	}
	for _, part := range []string{`{"kind":"video"}`, `{"kind":"data","file":{"uri":"https://files.example/t.pdf"}}`} {
		if err := unmarshal10([]byte(`{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","parts":[`+part+`]}]}`), &got); err == nil {
			t.Errorf("a part of no known kind was taken: %s", part)
		}
	}
}
