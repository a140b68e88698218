package main

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/a2acli"
)

// peakRSS runs cmd once more under a small python3 parent and returns the most memory it held
// (MiB). Not from the test process itself: a child forked from it counts the test's own memory,
// which it shares until exec, in its peak.
func peakRSS(b *testing.B, cmd *exec.Cmd, bin string) float64 {
	path, args := cmd.Path, cmd.Args[1:]
	if bin != "" {
		path = bin
	}
	measure := exec.Command("python3", append([]string{"-c", `import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)`, path}, args...)...)
	measure.Env = cmd.Env
	out, err := measure.Output()
	if err != nil {
		b.Fatalf("measuring memory: %v", err)
	}
	kib, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		b.Fatal(err)
	}
	return kib / 1024
}

// BenchmarkStartToFirstRequest measures what a user waits for before `a2aport send` reaches the
// agent: from exec to the first request (the card), and the process's peak memory (max RSS). The
// default (the Go client); with --module (its compiled code cached on disk, as from the second run
// on) either embedded in the binary (decompressed at start) or read from a folder (bin/, as `make
// build.cli` installs it); `a2aport card`; and a2a-go's own command-line client, the baseline,
// which the others are also given as ratios of (the issue of the terminal client asks for at most
// 1.5× its time and 2× its memory by default).
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
	var baseline struct{ ms, peak float64 } // a2a-go's, measured first
	for i, mode := range []struct {
		name string
		bin  string // "": a2aport
		args []string
	}{
		{"a2a-go's a2a send (baseline)", a2acli.Build(b), []string{"send", srv.URL, "hello"}},
		{"card", "", []string{"card", srv.URL}},
		{"send (default)", "", []string{"send", srv.URL, "hello"}},
		{"send --module embedded", "", []string{"send", "--module", srv.URL, "hello"}},
		{"send --module from bin", "", []string{"send", "--module", "--wasm-dir", "../../bin", srv.URL, "hello"}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			var total time.Duration
			var peak float64
			for range b.N {
				for len(first) > 0 {
					<-first
				}
				cmd := command(b, mode.args...)
				if mode.bin != "" {
					cmd.Path, cmd.Args = mode.bin, append([]string{mode.bin}, mode.args...)
				}
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
			peak = peakRSS(b, command(b, mode.args...), mode.bin)
			ms := float64(total.Microseconds()) / 1000 / float64(b.N)
			b.ReportMetric(ms, "ms-to-first-request")
			b.ReportMetric(peak, "MiB-peak-RSS")
			if i == 0 { // the first mode is the baseline
				baseline.ms, baseline.peak = ms, peak
				return
			}
			b.ReportMetric(ms/baseline.ms, "x-baseline-time")
			b.ReportMetric(peak/baseline.peak, "x-baseline-RSS")
		})
	}
}
