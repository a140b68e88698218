package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/acts"
)

// conformance --suite runs the official draft conformance suite (ACTS: a2aproject/A2A, branch
// conformance-spec, tests/acts) with internal/acts, its interpreter. The suite is read from the
// path given, never embedded: it is a draft that moves on its own branch, and its tests, not
// a2aport's, are what a claim of conformance rests on.

// suiteFlags are the flags of a suite run.
type suiteFlags struct {
	path     string
	run      string
	bindings string
	vars     multi
	rawBase  string
}

// suiteOnly are the flags that mean nothing without --suite, checksOnly those that mean nothing
// with it (the suite writes its own messages): either is refused rather than silently ignored.
var (
	suiteOnly  = []string{"run", "binding", "var", "raw-base"}
	checksOnly = []string{"text", "cancel-text"}
)

func (f *suiteFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.path, "suite", "", "run the ACTS suite at `path` (its suite.acts.yaml, or the tests/acts folder holding it) in place of the built-in checks")
	fs.StringVar(&f.run, "run", "", "with --suite: only the tests whose id matches this `regexp`")
	fs.StringVar(&f.bindings, "binding", "", "with --suite: the `bindings` to run each test on, comma-separated: jsonrpc, rest (default: each of them the card declares)")
	fs.Var(&f.vars, "var", "with --suite: a runner variable `NAME=VALUE` the suite's tests name (webhookUrl, insufficientAuthToken; repeatable)")
	fs.StringVar(&f.rawBase, "raw-base", "card", "with --suite: raw requests' paths are below `base`: card (the card URL without its well-known path, as ACTS says) or interface (the binding's URL)")
}

// suiteResult is one test on one binding.
type suiteResult struct {
	Binding  string `json:"binding"`
	Suite    string `json:"suite"`
	ID       string `json:"id"`
	Name     string `json:"name"`
	Level    string `json:"level"`
	Status   string `json:"status"` // pass, fail, skip or error (a test the interpreter cannot run as written)
	Reason   string `json:"reason,omitempty"`
	Step     string `json:"step,omitempty"`
	Exchange string `json:"exchange,omitempty"` // the failing step's request and answer
}

// suiteRun is what a suite run needs, checked before the agent is called.
type suiteRun struct {
	docs     []*acts.Document
	filter   *regexp.Regexp
	bindings []string // ACTS names: jsonrpc, rest
	vars     map[string]string
}

// actsBinding is a binding the interpreter speaks: its ACTS name and the card's.
type actsBinding struct{ name, card string }

// actsBindings are those bindings, in ACTS's order.
var actsBindings = []actsBinding{
	{"jsonrpc", string(a2a.TransportProtocolJSONRPC)},
	{"rest", string(a2a.TransportProtocolHTTPJSON)},
}

// mixedFlags refuses a flag of the other mode: a suite flag without --suite, a check's with it.
func (f *conformanceFlags) mixedFlags() *cliError {
	wrong, why := suiteOnly, "is a flag of --suite"
	if f.suite.path != "" {
		wrong, why = checksOnly, "is a flag of the built-in checks: the suite's tests write their own messages"
	}
	for _, name := range f.agent.givenFlags {
		if slices.Contains(wrong, name) {
			return &cliError{code: errUsage, message: "--" + name + " " + why, exit: exitUsage}
		}
	}
	return nil
}

// prepare reads the suite and the flags that shape the run; any problem is a usage error, found
// before the agent is called.
func (f *suiteFlags) prepare(a2aVersion string) (*suiteRun, *cliError) {
	usage := func(format string, args ...any) *cliError {
		return &cliError{code: errUsage, message: fmt.Sprintf(format, args...), exit: exitUsage}
	}
	path := f.path
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "suite.acts.yaml")
	}
	docs, err := acts.Load(path)
	if err != nil {
		return nil, usage("--suite: %v", err)
	}
	r := &suiteRun{docs: docs, vars: map[string]string{}}
	if f.run != "" {
		if r.filter, err = regexp.Compile(f.run); err != nil {
			return nil, usage("--run: %v", err)
		}
		if !slices.ContainsFunc(acts.Tests(docs), func(t acts.TestRef) bool { return r.filter.MatchString(t.Test.ID) }) {
			return nil, usage("--run %q matches no test of %s", f.run, path)
		}
	}
	for _, b := range strings.Split(f.bindings, ",") {
		b = strings.ToLower(strings.TrimSpace(b))
		switch {
		case b == "":
		case !slices.ContainsFunc(actsBindings, func(k actsBinding) bool { return k.name == b }):
			return nil, usage("--binding %q: want jsonrpc or rest", b)
		case !slices.Contains(r.bindings, b):
			r.bindings = append(r.bindings, b)
		}
	}
	for _, v := range f.vars {
		name, value, ok := strings.Cut(v, "=")
		if !ok || name == "" {
			return nil, usage("--var %q: want NAME=VALUE", v)
		}
		r.vars[name] = value
	}
	if f.rawBase != "card" && f.rawBase != "interface" {
		return nil, usage("--raw-base %q: want card or interface", f.rawBase)
	}
	if a2aVersion != "" && !versionAllowed("1.0", a2aVersion) {
		return nil, usage("--a2a-version %s: the suite speaks A2A 1.0", a2aVersion)
	}
	return r, nil
}

// cardBindings are the ACTS names of the bindings the card offers at A2A 1.x, in ACTS's order.
func cardBindings(card *a2a.AgentCard) []string {
	var out []string
	for _, b := range actsBindings {
		if slices.ContainsFunc(card.SupportedInterfaces, func(i *a2a.AgentInterface) bool {
			return i != nil && string(i.ProtocolBinding) == b.card && versionAllowed(string(i.ProtocolVersion), "1")
		}) {
			out = append(out, b.name)
		}
	}
	return out
}

// runSuite runs the suite against the agent: the card read and one call made first with the
// command's own client, so that an agent out of reach (3) or credentials missing or refused (4)
// end the command as they end any other, rather than as a failure of every test.
func runSuite(ctx context.Context, ref string, f *conformanceFlags, s streams) int {
	asJSON := f.agent.output == "json"
	run, bad := f.suite.prepare(f.agent.a2aVersion)
	if bad != nil {
		return report(s, asJSON, bad)
	}
	if path, _, err := cardRef(ref); err == nil && path != "" {
		return report(s, asJSON, &cliError{code: errUsage, exit: exitUsage, message: "--suite needs the agent's card URL, not a card file",
			hint: "the suite reads the card itself and sends its raw requests below where the card is"})
	}
	creds := f.agent.hasCredentials()
	conn, err := f.agent.dial(ctx, ref, s.stderr)
	if err != nil {
		return report(s, asJSON, classify(err, nil, creds))
	}
	if e := preflight(ctx, conn, f.timeout, creds); e != nil {
		return report(s, asJSON, e)
	}
	offered := cardBindings(conn.card)
	if len(run.bindings) == 0 {
		run.bindings = offered
	}
	for _, b := range run.bindings {
		if !slices.Contains(offered, b) {
			return report(s, asJSON, &cliError{code: errUsage, exit: exitUsage, message: fmt.Sprintf("--binding %s: the card offers no A2A 1.x interface of it", b),
				hint: "a2aport card get shows its interfaces"})
		}
	}
	// The suite's requests go through the transport the preflight used: the same credentials,
	// TLS settings and wire log (numbered on). Its bearer token moves to the interpreter, which
	// leaves it out of a raw request that sets its own Authorization (a test of a wrong token),
	// where the transport would add it beside that one.
	t, token := conn.http, ""
	if tok, ok := strings.CutPrefix(t.headers.Get("Authorization"), "Bearer "); ok {
		token = tok
		t.headers.Del("Authorization")
	}
	var results []suiteResult
	for _, b := range run.bindings {
		cfg := acts.Config{CardURL: conn.ref, Binding: b, Token: token, RawBase: f.suite.rawBase, Vars: run.vars,
			Filter: run.filter, Timeout: f.timeout, Client: &http.Client{Transport: t}}
		_, err := acts.Run(ctx, run.docs, cfg, func(o acts.Outcome) {
			r := suiteResult{Binding: b, Suite: o.Suite, ID: o.ID, Name: o.Name, Level: o.Level, Status: o.Result,
				Reason: o.Reason, Step: o.StepID, Exchange: o.Exchange}
			results = append(results, r)
			if !asJSON { // as they come: a suite can take minutes
				r.print(s, f.agent.verbose)
			}
		})
		if ctx.Err() != nil {
			return report(s, asJSON, classify(ctx.Err(), nil, creds))
		}
		if err != nil { // the interpreter could not read the card or find the interface: the dial just did
			return report(s, asJSON, &cliError{code: errInternal, exit: exitError, message: b + ": " + err.Error()})
		}
	}
	return printSuite(s, asJSON, results)
}

// preflight asks for a task no one made: any answer, TaskNotFoundError or another, shows the
// agent reachable and the credentials taken; the suite's tests judge the rest.
func preflight(ctx context.Context, conn *agentConn, timeout time.Duration, creds bool) *cliError {
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := conn.GetTask(pctx, &a2a.GetTaskRequest{ID: a2a.TaskID("a2aport-conformance-" + randomID())})
	if err == nil {
		return nil
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return &cliError{code: errTimeout, exit: exitTimeout, message: "the agent did not answer GetTask within --timeout",
			hint: "a longer --timeout, or --debug to see what went on the wire"}
	}
	switch e := classify(err, conn, creds); e.exit {
	case exitUnreachable, exitAuth, exitInterrupted:
		return e
	}
	return nil
}

// print writes one result as a Label: value line, and with --verbose the exchange that failed.
func (r suiteResult) print(s streams, verbose bool) {
	line := strings.ToUpper(r.Status) + " " + r.Binding + " " + r.ID + " " + r.Level
	if r.Reason != "" {
		step := ""
		if r.Step != "" {
			step = "[" + r.Step + "] "
		}
		line += ": " + step + r.Reason
	}
	field(s.stdout, "Test", line)
	if verbose && r.Exchange != "" {
		field(s.stdout, "Exchange", r.Exchange)
	}
}

// printSuite writes the totals (-o json: the list of results) and returns the exit status: 1
// when a MUST test that ran did not pass (it failed, or could not be run as written).
func printSuite(s streams, asJSON bool, results []suiteResult) int {
	count := map[string]map[string]int{}
	mustRan, mustBad := 0, 0
	for _, r := range results {
		if count[r.Status] == nil {
			count[r.Status] = map[string]int{}
		}
		count[r.Status][r.Level]++
		if r.Level == "must" && r.Status != "skip" {
			mustRan++
			if r.Status != "pass" {
				mustBad++
			}
		}
	}
	if asJSON {
		if results == nil {
			results = []suiteResult{}
		}
		_ = writeJSON(s.stdout, results)
	} else {
		for _, st := range []struct{ label, status string }{{"Passed", "pass"}, {"Failed", "fail"}, {"Skipped", "skip"}, {"Errors", "error"}} {
			c := count[st.status]
			field(s.stdout, st.label, fmt.Sprintf("%d (must %d, should %d, may %d)", c["must"]+c["should"]+c["may"], c["must"], c["should"], c["may"]))
		}
	}
	if mustBad > 0 {
		fmt.Fprintf(s.stderr, "a2aport conformance: %d of the %d MUST tests that ran did not pass\n", mustBad, mustRan)
		return exitError
	}
	return exitOK
}
