package a2aclient

import (
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	long := strings.Repeat("word ", 100)
	for _, c := range []struct{ name, body, want string }{
		{"plain text", "agent exploded\n", "agent exploded"},
		{"json", `{"error": "nope"}`, `{"error": "nope"}`},
		{"python's error page", "<!DOCTYPE HTML>\n<html lang=\"en\">\n    <head>\n        <meta charset=\"utf-8\">\n        <title>Error response</title>\n    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: 404</p>\n", "Error response"},
		{"nginx", "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n", "502 Bad Gateway"},
		{"heading, entities", "<html><body><h1 class=x>Not &amp; <b>found</b></h1><p>more</p>", "Not & found"},
		{"empty title", "<html><head><title> </title><style>p{}</style></head><body><p>Only   this</p><script>x()</script></body>", "Only this"},
		{"cut inside a tag", "<html><body><p>Gone</p><a href=\"http://exa", "Gone"},
		{"long text", long, strings.TrimSpace(long)[:maxSummary-1] + "…"},
		{"cut character", "caf\xc3", "caf"},
	} {
		if got := summarize([]byte(c.body)); got != c.want {
			t.Errorf("%s: summarize() = %q, want %q", c.name, got, c.want)
		}
	}
}
