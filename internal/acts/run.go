package acts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Config says what to run against.
type Config struct {
	CardURL string // the agent card; its base (without /.well-known/agent-card.json) is SUT_BASE_URL
	Binding string // jsonrpc or rest
	Token   string // sent as Authorization: Bearer on every request, raw ones too unless they set it
	// RawBase "interface" resolves raw steps' paths against the binding's interface URL instead
	// of the card's base URL (the default, as ACTS §12.4 describes baseUrl).
	RawBase string
	Vars    map[string]string // runner variables (e.g. insufficientAuthToken)
	Filter  *regexp.Regexp    // test ids to run; nil: all
	Timeout time.Duration     // default stream and request timeout
	// Client sends every request; nil is a client of Go's defaults. A caller gives its own to
	// carry what Token cannot: an API key, service parameters, its TLS settings, a wire log.
	Client *http.Client
}

// Outcome of one test.
type Outcome struct {
	Suite    string
	ID       string
	Name     string
	Level    string
	Result   string // pass, fail, skip, error
	Reason   string // skip reason, or failure message
	StepID   string
	Exchange string // the failing step's request and answer
	Duration time.Duration
}

// Run runs every test of docs against cfg, calling progress after each.
func Run(ctx context.Context, docs []*Document, cfg Config, progress func(Outcome)) ([]Outcome, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	hc := cfg.Client
	if hc == nil {
		hc = &http.Client{}
	}
	r := &runner{cfg: cfg, c: &client{http: hc, version: "1.0", token: cfg.Token}}
	if err := r.discover(ctx); err != nil {
		return nil, err
	}
	var out []Outcome
	for _, ref := range Tests(docs) {
		if cfg.Filter != nil && !cfg.Filter.MatchString(ref.Test.ID) {
			continue
		}
		start := time.Now()
		o := r.runTest(ctx, ref)
		o.Duration = time.Since(start)
		out = append(out, o)
		if progress != nil {
			progress(o)
		}
	}
	return out, nil
}

type runner struct {
	cfg      Config
	c        *client
	card     map[string]any
	base     string // card URL without /.well-known/agent-card.json
	endpoint string // the binding's interface URL
	rpcID    int
}

const wellKnown = "/.well-known/agent-card.json"

func (r *runner) discover(ctx context.Context) error {
	r.base = strings.TrimSuffix(r.cfg.CardURL, wellKnown)
	res, err := r.c.do(ctx, http.MethodGet, r.cfg.CardURL, r.c.headers(), nil)
	if err != nil {
		return err
	}
	if res.Exchange.Err != nil || res.HTTPStatus != 200 {
		return fmt.Errorf("agent card: %s", res.Exchange)
	}
	card, ok := res.Body.(map[string]any)
	if !ok {
		return fmt.Errorf("agent card is not a JSON object: %s", res.Exchange)
	}
	r.card = card
	want := bindingName(r.cfg.Binding)
	ifaces, _ := card["supportedInterfaces"].([]any)
	for _, i := range ifaces {
		m, _ := i.(map[string]any)
		b, _ := m["protocolBinding"].(string)
		v, _ := m["protocolVersion"].(string)
		u, _ := m["url"].(string)
		if strings.EqualFold(b, want) && strings.HasPrefix(v, "1.") && u != "" {
			r.endpoint = u
			break
		}
	}
	if r.endpoint == "" {
		return fmt.Errorf("the card declares no A2A 1.x %s interface", want)
	}
	return nil
}

// testCtx holds one test's captures and step responses.
type testCtx struct {
	suite    *Suite
	captured map[string]map[string]any // step id → var → value
}

func (r *runner) runTest(ctx context.Context, ref TestRef) Outcome {
	t := ref.Test
	o := Outcome{Suite: ref.Suite.ID, ID: t.ID, Name: t.Name, Level: t.Level}
	if p := t.problem(); p != "" {
		o.Result, o.Reason = "error", "invalid test: "+p
		return o
	}
	if len(t.Transport) > 0 {
		ok := false
		for _, b := range t.Transport {
			if bindingName(b) == bindingName(r.cfg.Binding) {
				ok = true
			}
		}
		if !ok {
			o.Result, o.Reason = "skip", fmt.Sprintf("only for binding(s) %v", t.Transport)
			return o
		}
	}
	if why := r.unmet(t.Preconditions); why != "" {
		o.Result, o.Reason = "skip", "precondition not met: "+why
		return o
	}
	for _, s := range t.Steps {
		if s.ClientResponse != nil {
			o.Result, o.Reason = "skip", "client-side parsing test (client_response): no client under test"
			return o
		}
	}
	tc := &testCtx{suite: ref.Suite, captured: map[string]map[string]any{}}
	for _, s := range t.Steps {
		if err := r.runStep(ctx, tc, s); err != nil {
			o.Result, o.StepID = "fail", s.ID
			o.Reason = err.Error()
			if se, ok := err.(*stepError); ok {
				o.Reason = se.msg
				if se.x != nil {
					o.Exchange = se.x.String()
				}
			}
			return o
		}
	}
	for _, a := range t.Assertions {
		if err := r.named(tc, a); err != nil {
			o.Result, o.StepID, o.Reason = "fail", "(test assertions)", err.Error()
			return o
		}
	}
	o.Result = "pass"
	return o
}

// unmet says why preconditions do not hold for the card, or "".
func (r *runner) unmet(p *Preconditions) string {
	if p == nil {
		return ""
	}
	caps, _ := r.card["capabilities"].(map[string]any)
	keys := make([]string, 0, len(p.Capabilities))
	for k := range p.Capabilities {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		want := p.Capabilities[k]
		got, has := caps[k]
		if !has {
			if b, ok := want.(bool); ok && !b {
				continue // an absent boolean capability is false
			}
			return fmt.Sprintf("capabilities.%s is %v on the card's side: absent", k, show(want))
		}
		if !equal(got, want) {
			return fmt.Sprintf("capabilities.%s: wanted %s, the card has %s", k, show(want), show(got))
		}
	}
	skills, _ := r.card["skills"].([]any)
	for _, s := range p.Skills {
		found := false
		for _, cs := range skills {
			if m, _ := cs.(map[string]any); m["id"] == s.ID {
				found = true
			}
		}
		if !found {
			return "skill " + s.ID + " not on the card"
		}
	}
	for _, b := range p.Transport {
		if bindingName(b) != bindingName(r.cfg.Binding) {
			return "transport " + b
		}
	}
	if len(p.Extensions) > 0 {
		caps, _ := r.card["capabilities"].(map[string]any)
		exts, _ := caps["extensions"].([]any)
		for _, want := range p.Extensions {
			found := false
			for _, e := range exts {
				if m, _ := e.(map[string]any); m["uri"] == want {
					found = true
				}
			}
			if !found {
				return "extension " + want + " not on the card"
			}
		}
	}
	return ""
}

// stepError is a step failure with the exchange that shows it.
type stepError struct {
	msg string
	x   *Exchange
}

func (e *stepError) Error() string { return e.msg }

func fail(x *Exchange, format string, args ...any) error {
	return &stepError{msg: fmt.Sprintf(format, args...), x: x}
}

func (r *runner) runStep(ctx context.Context, tc *testCtx, s *Step) error {
	if s.DelayMS > 0 {
		time.Sleep(time.Duration(s.DelayMS) * time.Millisecond)
	}
	if s.Assertion != nil {
		return r.named(tc, s.Assertion)
	}
	attempts, delay := 1, time.Second
	if s.Repeat != nil {
		attempts = s.Repeat.MaxAttempts
		if attempts <= 0 {
			attempts = 10
		}
		if s.Repeat.DelayMS != nil {
			delay = time.Duration(*s.Repeat.DelayMS) * time.Millisecond
		}
	}
	var res *Result
	for i := 1; ; i++ {
		var err error
		res, err = r.send(ctx, tc, s)
		if err != nil {
			return err
		}
		if s.Repeat == nil {
			break
		}
		if res.Err == nil {
			ok, err := until(res.Body, s.Repeat.Until)
			if err != nil {
				return fail(res.Exchange, "%v", err)
			}
			if ok {
				break
			}
		}
		if i >= attempts {
			return fail(res.Exchange, "repeat: %q did not hold after %d attempts", s.Repeat.Until, attempts)
		}
		d := delay
		switch s.Repeat.Backoff {
		case "linear":
			d = delay * time.Duration(i)
		case "exponential":
			d = delay << (i - 1)
		}
		time.Sleep(d)
	}
	if err := r.check(tc, s, res); err != nil {
		return err
	}
	// Captures and the response, for later steps.
	vars := map[string]any{"response": res.Body}
	if res.Err != nil {
		vars["response"] = map[string]any{"error": res.Err.view()}
	}
	for name, path := range s.Capture {
		v, ok := resolveOne(res.Body, path)
		if !ok {
			return fail(res.Exchange, "capture %s: nothing at %q", name, path)
		}
		vars[name] = v
	}
	tc.captured[s.ID] = vars
	for _, a := range s.Assertions {
		if err := r.named(tc, a); err != nil {
			return fail(res.Exchange, "%v", err)
		}
	}
	return nil
}

// send performs the step's request.
func (r *runner) send(ctx context.Context, tc *testCtx, s *Step) (*Result, error) {
	timeout := r.cfg.Timeout
	if ms, ok := number(s.ExpectStream["timeout_ms"]); ok && ms > 0 {
		timeout = time.Duration(ms) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if s.Raw != nil {
		return r.sendRaw(ctx, tc, s.Raw)
	}
	op := s.Operation
	if a, ok := opAliases[op]; ok {
		op = a
	}
	pv, err := r.interp(tc, s.Params)
	if err != nil {
		return nil, fail(nil, "params: %v", err)
	}
	params, _ := pv.(map[string]any)
	if params == nil {
		params = map[string]any{}
	}
	if op == "get_agent_card" {
		if truthy(params["extended"]) {
			op = "get_extended_agent_card"
			delete(params, "extended")
		} else {
			res, err := r.c.do(ctx, http.MethodGet, r.cfg.CardURL, r.c.headers(), nil)
			if err == nil && res.HTTPStatus != 200 && res.Exchange.Err == nil {
				res.Err = restError(res.HTTPStatus, res.Body)
			}
			return res, err
		}
	}
	if op == "send_message" || op == "send_streaming_message" {
		params = messageParams(params)
	}
	var res *Result
	if bindingName(r.cfg.Binding) == "JSONRPC" {
		r.rpcID++
		res, err = r.c.callRPC(ctx, r.endpoint, op, params, r.rpcID)
	} else {
		res, err = r.c.callREST(ctx, r.endpoint, op, params)
	}
	if err != nil {
		return nil, fail(nil, "%v", err)
	}
	if res.Exchange.Err != nil && !res.Streamed {
		return nil, fail(res.Exchange, "no answer: %v", res.Exchange.Err)
	}
	return res, nil
}

// messageParams prepares send_message params: a messageId for a message without one (ACTS
// §4.3, §12.4), and taskId/contextId given beside the message moved into it, where A2A 1.0
// has them (Message.taskId, Message.contextId; SendMessageRequest has neither).
func messageParams(p map[string]any) map[string]any {
	msg, ok := p["message"].(map[string]any)
	if !ok {
		return p
	}
	m := map[string]any{}
	for k, v := range msg {
		m[k] = v
	}
	for _, k := range []string{"taskId", "contextId"} {
		if v, has := p[k]; has {
			if _, set := m[k]; !set {
				m[k] = v
			}
			delete(p, k)
		}
	}
	if _, has := m["messageId"]; !has {
		m["messageId"] = uuid.NewString()
	}
	p["message"] = m
	return p
}

func (r *runner) sendRaw(ctx context.Context, tc *testCtx, raw *RawRequest) (*Result, error) {
	pathV, err := r.interp(tc, raw.Path)
	if err != nil {
		return nil, fail(nil, "raw.path: %v", err)
	}
	path := fmt.Sprint(pathV)
	target := path
	if !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		base := r.base
		if r.cfg.RawBase == "interface" {
			base = r.endpoint
		}
		target = strings.TrimSuffix(base, "/") + path
		if path == "/" && r.cfg.RawBase == "interface" {
			target = base
		}
	}
	h := map[string]string{}
	for k, v := range raw.Headers {
		iv, err := r.interp(tc, v)
		if err != nil {
			return nil, fail(nil, "raw.headers.%s: %v", k, err)
		}
		h[k] = fmt.Sprint(iv)
	}
	if r.cfg.Token != "" {
		hasAuth := false
		for k := range h {
			if strings.EqualFold(k, "Authorization") {
				hasAuth = true
			}
		}
		if !hasAuth {
			h["Authorization"] = "Bearer " + r.cfg.Token
		}
	}
	var body []byte
	switch {
	case raw.BodyRaw != nil:
		body = []byte(*raw.BodyRaw)
	case raw.Body != nil:
		bv, err := r.interp(tc, raw.Body)
		if err != nil {
			return nil, fail(nil, "raw.body: %v", err)
		}
		if body, err = json.Marshal(bv); err != nil {
			return nil, err
		}
	}
	method := strings.ToUpper(raw.Method)
	if method == "" {
		method = http.MethodGet
	}
	res, err := r.c.do(ctx, method, target, h, body)
	if err != nil {
		return nil, fail(nil, "%v", err)
	}
	if res.Exchange.Err != nil && !res.Streamed {
		return nil, fail(res.Exchange, "no answer: %v", res.Exchange.Err)
	}
	// An error answer, for expect_error on raw steps.
	if m, ok := res.Body.(map[string]any); ok {
		if e, ok := m["error"].(map[string]any); ok {
			if _, isRPC := m["jsonrpc"]; isRPC {
				res.Err = rpcError(e, res.HTTPStatus, m)
			} else {
				res.Err = restError(res.HTTPStatus, m)
			}
		}
	}
	if res.Err == nil && res.HTTPStatus >= 400 {
		res.Err = restError(res.HTTPStatus, res.Body)
	}
	return res, nil
}

// check applies the step's expectations to its result.
func (r *runner) check(tc *testCtx, s *Step, res *Result) error {
	x := res.Exchange
	exp, err := r.interpMap(tc, s.Expect)
	if err != nil {
		return fail(x, "expect: %v", err)
	}
	expErr, err := r.interpMap(tc, s.ExpectError)
	if err != nil {
		return fail(x, "expect_error: %v", err)
	}
	// ACTS §6.1 puts assertions under expect.status and expect.body. Some tests put them
	// at expect's top level (expect: {task: ...}, expect: {error: {exists: true}},
	// expect: {status: error, error: ...}): read those as the body, and an "error" key or
	// status "error" as an expected error.
	var status, body any
	hasStatus, hasBody := false, false
	if exp != nil {
		status, hasStatus = exp["status"]
		body, hasBody = exp["body"]
		loose := map[string]any{}
		for k, v := range exp {
			if k != "status" && k != "body" {
				loose[k] = v
			}
		}
		if st, ok := status.(string); ok && st == "error" {
			hasStatus = false
			if expErr == nil {
				expErr = map[string]any{}
			}
		}
		if len(loose) > 0 && !hasBody {
			if ev, ok := loose["error"]; ok && s.Raw == nil {
				if expErr == nil {
					expErr = map[string]any{}
				}
				if m, ok := ev.(map[string]any); ok && truthy(m["exists"]) && len(m) == 1 {
					// any error
				} else {
					expErr["__error"] = ev
				}
				delete(loose, "error")
			}
			if len(loose) > 0 {
				body, hasBody = loose, true
			}
		}
	}
	if expErr != nil && s.Raw == nil {
		if res.Err == nil {
			return fail(x, "expected an error (%s), got a success answer", show(expErr))
		}
		view := res.Err.view()
		for k, v := range expErr {
			switch k {
			case "__error":
				if m := Match(view, true, v, "error"); m != nil {
					return fail(x, "%v", m)
				}
			case "error_type", "code":
				if m := Match(view["code"], view["code"] != "", normalizeTypes(v), "error.type"); m != nil {
					return fail(x, "%v (JSON-RPC code %v, HTTP %d, reason %q)", m, view["rpc_code"], res.Err.HTTPStatus, res.Err.Reason)
				}
			default:
				got, has := view[k]
				if m := Match(got, has, v, "error."+k); m != nil {
					return fail(x, "%v", m)
				}
			}
		}
		return nil
	}
	if s.Raw != nil && expErr != nil {
		if res.Err == nil {
			return fail(x, "expected an error (%s), got a success answer", show(expErr))
		}
		view := res.Err.view()
		for k, v := range expErr {
			key := k
			if k == "error_type" {
				key = "code"
			}
			got, has := view[key]
			if m := Match(got, has, normalizeTypes(v), "error."+k); m != nil {
				return fail(x, "%v", m)
			}
		}
	}
	if s.Raw == nil && res.Err != nil {
		return fail(x, "unexpected error answer: %s %q (JSON-RPC code %d, HTTP %d, reason %q)",
			res.Err.Type, res.Err.Message, res.Err.RPCCode, res.Err.HTTPStatus, res.Err.Reason)
	}
	if hasStatus {
		if m := Match(float64(res.HTTPStatus), true, status, "HTTP status"); m != nil {
			return fail(x, "%v", m)
		}
	}
	if hasBody {
		root := res.Body
		if m := Match(root, root != nil || !res.Streamed, body, ""); m != nil {
			return fail(x, "%v", m)
		}
	}
	if s.ExpectStream != nil {
		es, err := r.interpMap(tc, s.ExpectStream)
		if err != nil {
			return fail(x, "expect_stream: %v", err)
		}
		if !res.Streamed {
			return fail(x, "expected an SSE stream, got HTTP %d %s", res.HTTPStatus, x.ContentType)
		}
		if err := checkStream(res.Events, es, s.Raw != nil); err != nil {
			return fail(x, "%v", err)
		}
	}
	return nil
}

func normalizeTypes(v any) any {
	switch t := v.(type) {
	case string:
		if a, ok := typeAliases[t]; ok {
			return a
		}
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			out[k] = normalizeTypes(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normalizeTypes(x)
		}
		return out
	}
	return v
}

// eventView is what stream assertions see of a StreamResponse: the object itself, the ACTS
// names status_update and artifact_update for statusUpdate and artifactUpdate, and the
// payload's own fields (status, artifact, id, ...) at the top, so final_event: {status: ...}
// reads a task and a status update alike.
func eventView(ev any, raw bool) any {
	m, ok := ev.(map[string]any)
	if !ok || raw {
		return ev
	}
	v := map[string]any{}
	for k, x := range m {
		v[k] = x
	}
	for wire, alias := range map[string]string{"statusUpdate": "status_update", "artifactUpdate": "artifact_update", "task": "task", "message": "message"} {
		inner, ok := m[wire].(map[string]any)
		if !ok {
			continue
		}
		v[alias] = inner
		for k, x := range inner {
			if _, taken := v[k]; !taken {
				v[k] = x
			}
		}
	}
	return v
}

var terminal = map[string]bool{"TASK_STATE_COMPLETED": true, "TASK_STATE_FAILED": true, "TASK_STATE_CANCELED": true, "TASK_STATE_REJECTED": true}

func eventState(ev any) string {
	v, _ := eventView(ev, false).(map[string]any)
	st, _ := v["status"].(map[string]any)
	s, _ := st["state"].(string)
	return s
}

// checkStream applies expect_stream (ACTS §7).
func checkStream(events []any, es map[string]any, raw bool) error {
	n := len(events)
	if v, ok := number(es["min_count"]); ok && float64(n) < v {
		return fmt.Errorf("stream: %d event(s), expected at least %v: %s", n, v, show(events))
	}
	if v, ok := number(es["max_count"]); ok && float64(n) > v {
		return fmt.Errorf("stream: %d event(s), expected at most %v", n, v)
	}
	if o, _ := es["ordering"].(string); o == "monotonic_state" {
		prev := ""
		for i, ev := range events {
			s := eventState(ev)
			if s == "" {
				continue
			}
			if prev != "" && terminal[prev] && s != prev {
				return fmt.Errorf("stream: event %d moves from terminal %s to %s", i, prev, s)
			}
			if prev != "" && s == "TASK_STATE_SUBMITTED" && prev != s {
				return fmt.Errorf("stream: event %d goes back to SUBMITTED from %s", i, prev)
			}
			prev = s
		}
	}
	if each, ok := es["each_event"].(map[string]any); ok {
		for i, ev := range events {
			if m := Match(eventView(ev, raw), true, each, fmt.Sprintf("event[%d]", i)); m != nil {
				return m
			}
		}
	}
	if list, ok := es["events"].([]any); ok {
		for i, ea := range list {
			m, _ := ea.(map[string]any)
			assertion := map[string]any{}
			for k, v := range m {
				if k != "description" && k != "match" && k != "index" {
					assertion[k] = v
				}
			}
			desc, _ := m["description"].(string)
			if idx, ok := number(m["index"]); ok {
				if int(idx) >= n {
					return fmt.Errorf("stream: no event %d (%s); %d event(s)", int(idx), desc, n)
				}
				if mm := Match(eventView(events[int(idx)], raw), true, assertion, fmt.Sprintf("event[%d]", int(idx))); mm != nil {
					return fmt.Errorf("%s: %v", desc, mm)
				}
				continue
			}
			if mode, _ := m["match"].(string); mode == "any_position" {
				found := false
				for _, ev := range events {
					if Match(eventView(ev, raw), true, assertion, "") == nil {
						found = true
						break
					}
				}
				if !found {
					return fmt.Errorf("stream: no event matches %q %s; events %s", desc, show(assertion), show(events))
				}
				continue
			}
			if i >= n {
				return fmt.Errorf("stream: no event %d (%s)", i, desc)
			}
			if mm := Match(eventView(events[i], raw), true, assertion, fmt.Sprintf("event[%d]", i)); mm != nil {
				return fmt.Errorf("%s: %v", desc, mm)
			}
		}
	}
	if fe, ok := es["final_event"]; ok {
		if n == 0 {
			return fmt.Errorf("stream: no events, expected a final event %s", show(fe))
		}
		if m := Match(eventView(events[n-1], raw), true, fe, "final_event"); m != nil {
			return fmt.Errorf("%v (final event %s)", m, show(events[n-1]))
		}
	}
	return nil
}

// named runs a named or inline assertion (ACTS §5.5).
func (r *runner) named(tc *testCtx, a map[string]any) error {
	srcRaw, _ := a["source"].(string)
	src, err := r.interp(tc, srcRaw)
	if err != nil {
		return err
	}
	if p, ok := a["path"].(string); ok && p != "" {
		v, found := resolveOne(src, p)
		if !found {
			return fmt.Errorf("assertion: nothing at %q", p)
		}
		src = v
	}
	if m, ok := a["match"]; ok {
		mv, err := r.interp(tc, m)
		if err != nil {
			return err
		}
		if mm := Match(src, true, mv, ""); mm != nil {
			return mm
		}
	}
	for _, mode := range []string{"any", "all", "none"} {
		cm, ok := a[mode].(map[string]any)
		if !ok {
			continue
		}
		p, _ := cm["path"].(string)
		elems, err := Resolve(src, p)
		if err != nil {
			return err
		}
		mv, err := r.interp(tc, cm["match"])
		if err != nil {
			return err
		}
		hits := 0
		var first *Mismatch
		for _, el := range elems {
			if mm := Match(el, true, mv, p); mm == nil {
				hits++
			} else if first == nil {
				first = mm
			}
		}
		switch {
		case mode == "any" && hits == 0:
			return fmt.Errorf("no element at %q matches %s (%d element(s); first mismatch: %v)", p, show(mv), len(elems), first)
		case mode == "all" && hits != len(elems):
			return fmt.Errorf("not every element at %q matches: %v", p, first)
		case mode == "none" && hits > 0:
			return fmt.Errorf("%d element(s) at %q match %s", hits, p, show(mv))
		}
	}
	return nil
}

var varRef = regexp.MustCompile(`\{\{\s*([^{}]+?)\s*\}\}`)

func (r *runner) interpMap(tc *testCtx, m map[string]any) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	v, err := r.interp(tc, m)
	if err != nil {
		return nil, err
	}
	out, _ := v.(map[string]any)
	return out, nil
}

// interp replaces {{...}} references (ACTS §8.1, §12.2) everywhere in v. A string that is
// exactly one reference takes the referenced value as it is (an object, a number).
func (r *runner) interp(tc *testCtx, v any) (any, error) {
	switch t := v.(type) {
	case string:
		if m := varRef.FindStringSubmatch(t); m != nil && m[0] == strings.TrimSpace(t) {
			return r.lookup(tc, m[1], 0)
		}
		var firstErr error
		out := varRef.ReplaceAllStringFunc(t, func(ref string) string {
			name := varRef.FindStringSubmatch(ref)[1]
			val, err := r.lookup(tc, name, 0)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return ref
			}
			if s, ok := val.(string); ok {
				return s
			}
			return show(val)
		})
		return out, firstErr
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			y, err := r.interp(tc, x)
			if err != nil {
				return nil, err
			}
			out[k] = y
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			y, err := r.interp(tc, x)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	}
	return v, nil
}

func (r *runner) lookup(tc *testCtx, name string, depth int) (any, error) {
	if depth > 8 {
		return nil, fmt.Errorf("variable %q: references too deep", name)
	}
	if step, field, ok := strings.Cut(name, "."); ok && step != "env" {
		if vars, has := tc.captured[step]; has {
			if v, has := vars[field]; has {
				return v, nil
			}
			return nil, fmt.Errorf("variable {{%s}}: step %s captured no %q", name, step, field)
		}
	}
	if tc.suite != nil && tc.suite.Doc != nil {
		if v, has := tc.suite.Doc.Variables[name]; has {
			iv, err := r.interp(&testCtx{captured: tc.captured}, v)
			if err == nil {
				return iv, nil
			}
		}
	}
	if name == "SUT_BASE_URL" || name == "baseUrl" {
		return r.base, nil
	}
	if v, has := r.cfg.Vars[name]; has {
		return v, nil
	}
	if env, ok := strings.CutPrefix(name, "env."); ok {
		if v, has := os.LookupEnv(env); has {
			return v, nil
		}
		return nil, fmt.Errorf("variable {{%s}}: environment variable %s is not set", name, env)
	}
	if name == "$uuid" {
		return uuid.NewString(), nil
	}
	return nil, fmt.Errorf("variable {{%s}} cannot be resolved", name)
}
