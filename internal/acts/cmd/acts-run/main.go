// Command acts-run runs the ACTS conformance suite against an A2A agent; see package
// github.com/a2aport/a2aport/internal/acts for what it reads and how.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/a2aport/a2aport/internal/acts"
)

type vars map[string]string

func (v vars) String() string { return fmt.Sprint(map[string]string(v)) }
func (v vars) Set(s string) error {
	k, val, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want name=value")
	}
	v[k] = val
	return nil
}

func main() {
	os.Exit(run())
}

func run() int {
	suite := flag.String("suite", "", "the ACTS file to run (suite.acts.yaml includes the others)")
	card := flag.String("card", "", "the agent card URL")
	bindings := flag.String("binding", "jsonrpc,rest", "comma-separated bindings: jsonrpc, rest")
	token := flag.String("token", "", "bearer token for every request")
	rawBase := flag.String("raw-base", "card", "raw steps' paths below: card (the card's base URL) or interface (the binding's URL)")
	filter := flag.String("run", "", "only tests whose id matches this regular expression")
	jsonDir := flag.String("json", "", "write ACTS §13 reports into this directory")
	verbose := flag.Bool("v", false, "print the request and answer of failing steps")
	timeout := flag.Duration("timeout", 30*time.Second, "per request and stream")
	vs := vars{}
	flag.Var(vs, "var", "runner variable name=value (repeatable)")
	flag.Parse()
	if *suite == "" || *card == "" {
		fmt.Fprintln(os.Stderr, "acts-run: -suite and -card are required")
		flag.Usage()
		return 2
	}
	docs, err := acts.Load(*suite)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acts-run:", err)
		return 1
	}
	var re *regexp.Regexp
	if *filter != "" {
		if re, err = regexp.Compile(*filter); err != nil {
			fmt.Fprintln(os.Stderr, "acts-run: -run:", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	status := 0
	var totals []string
	for _, b := range strings.Split(*bindings, ",") {
		b = strings.TrimSpace(b)
		cfg := acts.Config{CardURL: *card, Binding: b, Token: *token, RawBase: *rawBase, Vars: vs, Filter: re, Timeout: *timeout}
		started := time.Now()
		out, err := acts.Run(ctx, docs, cfg, func(o acts.Outcome) {
			line := fmt.Sprintf("%-5s %-8s %-18s %-6s %s", strings.ToUpper(o.Result), b, o.ID, o.Level, o.Name)
			if o.Reason != "" {
				step := ""
				if o.StepID != "" {
					step = "[" + o.StepID + "] "
				}
				line += " — " + step + o.Reason
			}
			fmt.Println(line)
			if *verbose && o.Exchange != "" {
				fmt.Println("      " + o.Exchange)
			}
		})
		if err != nil {
			fmt.Fprintf(os.Stderr, "acts-run: %s: %v\n", b, err)
			status = 1
			continue
		}
		totals = append(totals, summary(b, out))
		if *jsonDir != "" {
			if err := writeReport(*jsonDir, b, docs, out, time.Since(started)); err != nil {
				fmt.Fprintln(os.Stderr, "acts-run:", err)
				status = 1
			}
		}
	}
	fmt.Println()
	for _, t := range totals {
		fmt.Println(t)
	}
	return status
}

func summary(binding string, out []acts.Outcome) string {
	count := map[string]map[string]int{}
	for _, lvl := range []string{"all", "must", "should", "may"} {
		count[lvl] = map[string]int{}
	}
	for _, o := range out {
		count["all"][o.Result]++
		count[o.Level][o.Result]++
	}
	var b strings.Builder
	c := count["all"]
	fmt.Fprintf(&b, "%s: %d passed, %d failed, %d skipped, %d errors (of %d)", binding, c["pass"], c["fail"], c["skip"], c["error"], len(out))
	for _, lvl := range []string{"must", "should", "may"} {
		c := count[lvl]
		fmt.Fprintf(&b, "\n  %-6s %d passed, %d failed, %d skipped, %d errors", strings.ToUpper(lvl)+":", c["pass"], c["fail"], c["skip"], c["error"])
	}
	return b.String()
}

// writeReport writes the ACTS §13 JSON report of one binding.
func writeReport(dir, binding string, docs []*acts.Document, out []acts.Outcome, d time.Duration) error {
	type failure struct {
		Message string `json:"message"`
		StepID  string `json:"step_id,omitempty"`
		Actual  string `json:"actual,omitempty"`
	}
	type testResult struct {
		ID         string   `json:"id"`
		Name       string   `json:"name"`
		Level      string   `json:"level"`
		Result     string   `json:"result"`
		DurationMS int64    `json:"duration_ms"`
		SkipReason string   `json:"skip_reason,omitempty"`
		Failure    *failure `json:"failure,omitempty"`
	}
	type suiteResult struct {
		ID    string       `json:"id"`
		Name  string       `json:"name"`
		Tests []testResult `json:"tests"`
	}
	type levelSummary struct {
		Total, Passed, Failed, Skipped, Errors int
	}
	lv := func(l *levelSummary) map[string]int {
		return map[string]int{"total": l.Total, "passed": l.Passed, "failed": l.Failed, "skipped": l.Skipped, "errors": l.Errors}
	}
	byLevel := map[string]*levelSummary{"must": {}, "should": {}, "may": {}}
	all := &levelSummary{}
	names := map[string]string{}
	for _, doc := range docs {
		for _, s := range doc.Suites {
			names[s.ID] = s.Name
		}
	}
	var suites []*suiteResult
	index := map[string]*suiteResult{}
	for _, o := range out {
		sr := index[o.Suite]
		if sr == nil {
			sr = &suiteResult{ID: o.Suite, Name: names[o.Suite]}
			index[o.Suite] = sr
			suites = append(suites, sr)
		}
		tr := testResult{ID: o.ID, Name: o.Name, Level: o.Level, Result: o.Result, DurationMS: o.Duration.Milliseconds()}
		for _, l := range []*levelSummary{all, byLevel[o.Level]} {
			if l == nil {
				continue
			}
			l.Total++
			switch o.Result {
			case "pass":
				l.Passed++
			case "fail":
				l.Failed++
			case "skip":
				l.Skipped++
			default:
				l.Errors++
			}
		}
		switch o.Result {
		case "skip":
			tr.SkipReason = o.Reason
		case "fail", "error":
			tr.Failure = &failure{Message: o.Reason, StepID: o.StepID, Actual: o.Exchange}
		}
		sr.Tests = append(sr.Tests, tr)
	}
	transport := binding
	if transport == "http+json" {
		transport = "rest"
	}
	report := map[string]any{
		"acts_version": "1.0",
		"spec_version": "1.0",
		"generated_at": time.Now().UTC().Format(time.RFC3339),
		"sdk":          map[string]string{"name": "a2aport", "version": "dev", "language": "go"},
		"transport":    transport,
		"summary": map[string]any{
			"total": all.Total, "passed": all.Passed, "failed": all.Failed, "skipped": all.Skipped, "errors": all.Errors,
			"duration_ms": d.Milliseconds(),
			"by_level":    map[string]any{"must": lv(byLevel["must"]), "should": lv(byLevel["should"]), "may": lv(byLevel["may"])},
		},
		"suites": suites,
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "acts-report-a2aport-"+transport+".json"), data, 0o644)
}
