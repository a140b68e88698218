package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkStartToFirstRequest measures what a user waits for before `a2aport send` reaches the
// agent: from exec to the first request (the card). With --native; with the module (its compiled
// code cached on disk, as from the second run on) either embedded in the binary (decompressed at
// start) or read from a folder (bin/, as `make build.cli` installs it); and `a2aport card`, which
// reads the card itself first.
func BenchmarkStartToFirstRequest(b *testing.B) {
	first := make(chan time.Time, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case first <- time.Now():
		default:
		}
		http.NotFound(w, r) // the command then fails; only the time to here is measured
	}))
	defer srv.Close()
	for _, mode := range []struct {
		name string
		args []string
	}{
		{"card", []string{"card", srv.URL}},
		{"send native", []string{"send", "--native", srv.URL, "hello"}},
		{"send module embedded", []string{"send", srv.URL, "hello"}},
		{"send module from bin", []string{"send", "--wasm-dir", "../../bin", srv.URL, "hello"}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			var total time.Duration
			for range b.N {
				for len(first) > 0 {
					<-first
				}
				cmd := command(b, mode.args...)
				cmd.Env = append(cmd.Env, "A2APORT_WASM_DIR=") // no folder unless --wasm-dir names one
				start := time.Now()
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				select {
				case at := <-first:
					total += at.Sub(start)
				case <-time.After(30 * time.Second):
					b.Fatal("no request")
				}
				_ = cmd.Wait()
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-first-request")
		})
	}
}
