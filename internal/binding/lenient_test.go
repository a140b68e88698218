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
		{"text":"n: 12345678901234567890"}]}]}`
	var got a2a.Task
	if err := unmarshal10([]byte(task), &got); err != nil {
		t.Fatal(err)
	}
	parts := got.Artifacts[0].Parts
	if len(parts) != 4 {
		t.Fatalf("%d parts", len(parts))
	}
	if u, ok := parts[1].Content.(a2a.URL); !ok || u != "https://files.example/r.pdf" || parts[1].MediaType != "application/pdf" || parts[1].Filename != "r.pdf" {
		t.Errorf("the file by URI: %+v", parts[1])
	}
	if b, ok := parts[2].Content.(a2a.Raw); !ok || string(b) != "hello" || parts[2].MediaType != "text/plain" {
		t.Errorf("the file by bytes: %+v", parts[2])
	}
	if err := unmarshal10([]byte(`{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","parts":[{"kind":"video"}]}]}`), &got); err == nil {
		t.Error("a part of no known kind was taken")
	}
}
