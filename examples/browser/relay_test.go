package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// The relay forwards only to the origins it was started with, only the headers an A2A request
// needs, and streams the answer back with the headers the adapter reads.
func TestRelay(t *testing.T) {
	var got http.Header
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page.html" {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusTeapot)
			_, _ = io.WriteString(w, "<script>localStorage.clear()</script>")
			return
		}
		got = r.Header.Clone()
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Set-Cookie", "agent=1")
		_, _ = io.WriteString(w, "data: "+string(body)+"\n\n")
	}))
	defer agent.Close()
	rl, err := newRelay([]string{agent.URL})
	if err != nil {
		t.Fatal(err)
	}
	page := httptest.NewServer(rl)
	defer page.Close()

	req, _ := http.NewRequest(http.MethodPost, page.URL+"?to="+url.QueryEscape(agent.URL+"/a2a"), strings.NewReader(`{"x":1}`))
	req.Header.Set("Authorization", "Bearer t")
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Cookie", "page=secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "data: {\"x\":1}\n\n" || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("relayed answer: %s %q %v", resp.Status, body, resp.Header)
	}
	if resp.Header.Get("Set-Cookie") != "" || got.Get("Cookie") != "" || got.Get("Authorization") != "Bearer t" || got.Get("A2A-Version") != "1.0" {
		t.Errorf("headers: to the agent %v, to the page %v", got, resp.Header)
	}

	// What is not an A2A answer is not relayed: an agent's page would be a page of this origin.
	for _, tc := range []struct{ path, dest, mode string }{
		{"/page.html", "", ""},           // a fetch of HTML: the status, not the page
		{"/a2a", "document", "navigate"}, // a navigation, whatever it would bring
		{"/a2a", "iframe", "navigate"},
	} {
		req, _ := http.NewRequest(http.MethodGet, page.URL+"?to="+url.QueryEscape(agent.URL+tc.path), nil)
		if tc.dest != "" {
			req.Header.Set("Sec-Fetch-Dest", tc.dest)
			req.Header.Set("Sec-Fetch-Mode", tc.mode)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		wantStatus := http.StatusForbidden
		if tc.dest == "" {
			wantStatus = http.StatusTeapot
		}
		if resp.StatusCode != wantStatus || strings.Contains(string(body), "<script") ||
			resp.Header.Get("Content-Security-Policy") != "sandbox" || resp.Header.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("%s as %q: %s %v %q", tc.path, tc.dest, resp.Status, resp.Header, body)
		}
	}

	for _, to := range []string{"http://127.0.0.1:1/a2a", "file:///etc/passwd", ""} {
		resp, err := http.Post(page.URL+"?to="+url.QueryEscape(to), "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("relay to %q: %s, want 403", to, resp.Status)
		}
	}
	for _, bad := range []string{"agent.example", "https://agent.example/path", "ftp://agent.example"} {
		if _, err := newRelay([]string{bad}); err == nil {
			t.Errorf("newRelay(%q) accepted it", bad)
		}
	}
}
