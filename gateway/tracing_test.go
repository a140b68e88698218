package gateway

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// Secrets of the traced test: the caller's bearer token and a header sent to the backend. Neither
// may appear in anything exported.
const (
	callerSecret  = "CALLER-SECRET-7f3a"
	backendSecret = "BACKEND-SECRET-91c2"
)

// otlpReceiver is an OTLP/HTTP trace receiver on loopback: what the gateway exports, decoded.
type otlpReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	raw   [][]byte // each export's body, decompressed
	spans []receivedSpan
	names []string // each export's service.name
}

type receivedSpan struct {
	*tracepb.Span
	attrs map[string]string
}

func startReceiver(t testing.TB) *otlpReceiver {
	t.Helper()
	rc := &otlpReceiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" {
			http.NotFound(w, r)
			return
		}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			z, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = z
		}
		raw, err := io.ReadAll(body)
		var req coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(raw, &req)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		rc.raw = append(rc.raw, raw)
		for _, rs := range req.ResourceSpans {
			rc.names = append(rc.names, attrMap(rs.GetResource().GetAttributes())["service.name"])
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					rc.spans = append(rc.spans, receivedSpan{Span: s, attrs: attrMap(s.Attributes)})
				}
			}
		}
		rc.mu.Unlock()
		answer, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(answer)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *otlpReceiver) received() ([]receivedSpan, [][]byte, []string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]receivedSpan(nil), rc.spans...), append([][]byte(nil), rc.raw...), append([]string(nil), rc.names...)
}

// attrMap is attributes as strings (ints written in decimal).
func attrMap(kvs []*commonpb.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		switch v := kv.GetValue().GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = strconv.FormatInt(v.IntValue, 10)
		default:
			m[kv.Key] = kv.GetValue().String()
		}
	}
	return m
}

// tracingEnv points the OTLP exporter at rc and clears what the machine's environment might set.
func tracingEnv(t *testing.T, endpoint string) {
	for _, name := range []string{"OTEL_TRACES_EXPORTER", "OTEL_SDK_DISABLED", "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES",
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
		"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG"} {
		t.Setenv(name, "")
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
	t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
}

// tracedGateway serves a gateway with tracer tp (nil: off) in front of the a2a-go test agent on
// loopback, its one backend "agent" built as the configuration builds it; callers authenticate
// with callerSecret, and the backend is sent backendSecret in a header.
func tracedGateway(t testing.TB, tp trace.TracerProvider) (base string, backend *agent.Server) {
	t.Helper()
	backend, err := agent.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(backend.Close)
	card := backend.CardURL(agent.Variants()[0]) // A2A 1.0, JSON-RPC, streaming
	port, err := adapter.New(a2aport.Options{AgentCardURL: card, Label: "agent",
		Headers: http.Header{"X-Api-Key": {backendSecret}}, Transport: TracedTransport(tp, "agent", nil)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	base = "http://" + srv.Listener.Addr().String()
	g, err := New(Options{
		Facade: facade.Options{BaseURL: base, Authenticate: func(r *http.Request) (string, error) {
			if r.Header.Get("Authorization") != "Bearer "+callerSecret {
				return "", errors.New("unknown token")
			}
			return "alice", nil
		}},
		Backends: []Backend{{Name: "agent", Port: port, CardURL: card}},
		Default:  "agent",
		Tracer:   tp,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g.Start(ctx)
	srv.Config.Handler = g
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		_ = g.Close()
	})
	return base, backend
}

// rpc posts an A2A 1.0 JSON-RPC call as the authenticated caller, with traceparent (when given),
// and returns the answer's result.
func rpc(t testing.TB, base, traceparent, method, params string) json.RawMessage {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequest(http.MethodPost, base+facade.EndpointPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Authorization", "Bearer "+callerSecret)
	if traceparent != "" {
		req.Header.Set("traceparent", traceparent)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	var answer struct{ Result json.RawMessage }
	if err := json.Unmarshal(raw, &answer); err != nil || len(answer.Result) == 0 {
		t.Fatalf("%s answered %d %s", method, resp.StatusCode, raw)
	}
	return answer.Result
}

type taskAnswer struct {
	ID        string `json:"id"`
	ContextID string `json:"contextId"`
	Status    struct{ State string }
}

// sendMessage sends text naming the skill agent/scenarios (returnImmediately: the answer is the
// submitted task) and returns the task.
func sendMessage(t testing.TB, base, traceparent, text string, returnImmediately bool) taskAnswer {
	t.Helper()
	config := ""
	if returnImmediately {
		config = `,"configuration":{"returnImmediately":true}`
	}
	result := rpc(t, base, traceparent, "SendMessage", `{"message":{"messageId":"m-`+strconv.FormatInt(time.Now().UnixNano(), 36)+
		`","role":"ROLE_USER","parts":[{"text":"`+text+`"}],"metadata":{"skill":"agent/scenarios"}}`+config+`}`)
	var answer struct{ Task taskAnswer }
	if err := json.Unmarshal(result, &answer); err != nil || answer.Task.ID == "" {
		t.Fatalf("SendMessage answered %s", result)
	}
	return answer.Task
}

// send sends text and returns its completed task's id and context id.
func send(t testing.TB, base, traceparent, text string) (taskID, contextID string) {
	t.Helper()
	task := sendMessage(t, base, traceparent, text, false)
	if task.Status.State != "TASK_STATE_COMPLETED" {
		t.Fatalf("task %s ended %s", task.ID, task.Status.State)
	}
	return task.ID, task.ContextID
}

// flushUntil flushes tp until the receiver holds spans that found accepts, or 10 s pass.
func flushUntil(t *testing.T, tp *sdktrace.TracerProvider, rc *otlpReceiver, found func([]receivedSpan) bool) []receivedSpan {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_ = tp.ForceFlush(context.Background())
		spans, _, _ := rc.received()
		if found(spans) || time.Now().After(deadline) {
			return spans
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tracedGatewayOn is a gateway with traces on, exporting to a receiver of the test's own.
func tracedGatewayOn(t *testing.T) (rc *otlpReceiver, sdk *sdktrace.TracerProvider, base string, backend *agent.Server) {
	t.Helper()
	rc = startReceiver(t)
	tracingEnv(t, rc.URL)
	tp, err := TracingConfig{Exporter: "otlp"}.tracerProvider(context.Background())
	if err != nil || tp == nil {
		t.Fatalf("tracerProvider = %v, %v", tp, err)
	}
	sdk = tp.(*sdktrace.TracerProvider)
	t.Cleanup(func() { _ = sdk.Shutdown(context.Background()) })
	base, backend = tracedGateway(t, tp)
	return rc, sdk, base, backend
}

// TestTracesOfAMessage: a message sent through a gateway with traces on, under a caller's
// traceparent, is exported to an OTLP/HTTP receiver as a server span, the child of the caller's
// span in the caller's trace, naming the operation, the task and the context, and client spans
// for the calls to the backend, the server span's children, naming the backend, its host, the
// task and the skill; the backend receives the client span's traceparent. Nothing exported holds
// the caller's token or the backend's secret header, or any header at all.
func TestTracesOfAMessage(t *testing.T) {
	rc, sdk, base, backend := tracedGatewayOn(t)

	const traceID, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	taskID, contextID := send(t, base, "00-"+traceID+"-"+callerSpan+"-01", "complete traced")

	// The server span ends once its answer is written: flush until it is there.
	var server *receivedSpan
	var clients []receivedSpan
	spans := flushUntil(t, sdk, rc, func(spans []receivedSpan) bool {
		server, clients = nil, nil
		for i, s := range spans {
			switch {
			case s.Kind == tracepb.Span_SPAN_KIND_SERVER && s.attrs["a2a.operation"] == "SendMessage":
				server = &spans[i]
			case s.Kind == tracepb.Span_SPAN_KIND_CLIENT && s.attrs["a2a.task.id"] == taskID:
				clients = append(clients, s)
			}
		}
		return server != nil && len(clients) > 0
	})
	if server == nil {
		t.Fatalf("no server span of SendMessage among %d spans exported", len(spans))
	}
	if got := hex.EncodeToString(server.TraceId); got != traceID {
		t.Errorf("server span's trace id %s, want the caller's %s", got, traceID)
	}
	if got := hex.EncodeToString(server.ParentSpanId); got != callerSpan {
		t.Errorf("server span's parent %s, want the caller's span %s", got, callerSpan)
	}
	for key, want := range map[string]string{"a2a.task.id": taskID, "a2a.context.id": contextID, "http.response.status_code": "200", "http.request.method": "POST"} {
		if got := server.attrs[key]; got != want {
			t.Errorf("server span %s = %q, want %q", key, got, want)
		}
	}
	if server.Name != "SendMessage" {
		t.Errorf("server span named %q, want SendMessage", server.Name)
	}
	if len(clients) == 0 {
		t.Fatalf("no client span of task %s among %d spans exported", taskID, len(spans))
	}
	clientIDs := map[string]bool{}
	for _, c := range clients {
		clientIDs[hex.EncodeToString(c.SpanId)] = true
		if got := hex.EncodeToString(c.TraceId); got != traceID {
			t.Errorf("client span's trace id %s, want %s", got, traceID)
		}
		if !bytes.Equal(c.ParentSpanId, server.SpanId) {
			t.Errorf("client span's parent %x, want the server span %x", c.ParentSpanId, server.SpanId)
		}
		for key, want := range map[string]string{"a2aport.backend": "agent", "a2aport.skill": "agent/scenarios", "server.address": "127.0.0.1",
			"http.request.method": "POST", "http.response.status_code": "200"} {
			if got := c.attrs[key]; got != want {
				t.Errorf("client span %s = %q, want %q", key, got, want)
			}
		}
	}
	// The backend got the client span's traceparent, in the caller's trace.
	seen := false
	for _, r := range backend.Requests() {
		parts := strings.Split(r.Header.Get("traceparent"), "-")
		if len(parts) == 4 && parts[1] == traceID && clientIDs[parts[2]] {
			seen = true
		}
		if r.Header.Get("traceparent") != "" && len(parts) == 4 && parts[2] == callerSpan {
			t.Errorf("the backend got the caller's own span as parent: %s %s", r.A2AMethod, r.Header.Get("traceparent"))
		}
	}
	if !seen {
		t.Error("no request to the backend carried a client span's traceparent")
	}
	// Nothing exported holds a secret, a header's name or the caller's name.
	_, raws, names := rc.received()
	for _, raw := range raws {
		for _, secret := range []string{callerSecret, backendSecret, "Bearer", "X-Api-Key", "alice"} {
			if bytes.Contains(raw, []byte(secret)) {
				t.Errorf("an export holds %q", secret)
			}
		}
	}
	for _, s := range spans {
		for key := range s.attrs {
			if k := strings.ToLower(key); strings.Contains(k, "header") || strings.Contains(k, "authorization") || strings.Contains(k, "url.full") || strings.Contains(k, "url.query") {
				t.Errorf("span %q has attribute %s", s.Name, key)
			}
		}
	}
	for _, name := range names {
		if name != DefaultServiceName {
			t.Errorf("service.name %q, want %q", name, DefaultServiceName)
		}
	}
}

// TestTracesWithoutACallersTrace: a caller that sends no traceparent gets a server span that
// starts a trace of its own, whose client spans are its children.
func TestTracesWithoutACallersTrace(t *testing.T) {
	rc := startReceiver(t)
	tracingEnv(t, rc.URL)
	t.Setenv("OTEL_SERVICE_NAME", "gw-from-env")
	tp, err := TracingConfig{Exporter: "otlp", ServiceName: "gw-from-file"}.tracerProvider(context.Background())
	if err != nil || tp == nil {
		t.Fatalf("tracerProvider = %v, %v", tp, err)
	}
	sdk := tp.(*sdktrace.TracerProvider)
	t.Cleanup(func() { _ = sdk.Shutdown(context.Background()) })
	base, _ := tracedGateway(t, tp)
	taskID, _ := send(t, base, "", "complete untraced")
	var server, client *receivedSpan
	spans := flushUntil(t, sdk, rc, func(spans []receivedSpan) bool {
		for i, s := range spans {
			if s.Kind == tracepb.Span_SPAN_KIND_SERVER && s.attrs["a2a.task.id"] == taskID {
				server = &spans[i]
			}
			if s.Kind == tracepb.Span_SPAN_KIND_CLIENT && s.attrs["a2a.task.id"] == taskID {
				client = &spans[i]
			}
		}
		return server != nil && client != nil
	})
	if server == nil || client == nil {
		t.Fatalf("no server and client span of task %s among %d spans", taskID, len(spans))
	}
	if len(server.ParentSpanId) != 0 {
		t.Errorf("server span of a request without traceparent has parent %x", server.ParentSpanId)
	}
	if !bytes.Equal(client.ParentSpanId, server.SpanId) || !bytes.Equal(client.TraceId, server.TraceId) {
		t.Errorf("client span %x/%x is not the server span's %x/%x child", client.TraceId, client.ParentSpanId, server.TraceId, server.SpanId)
	}
	if _, _, names := rc.received(); names[0] != "gw-from-env" {
		t.Errorf("service.name %q, want OTEL_SERVICE_NAME's over the file's", names[0])
	}
}

// TestTracingOffByDefault: with no tracing configured, OTLP variables alone turn nothing on: no
// TracerProvider, no exporter, no OpenTelemetry goroutine; a message through the gateway sends
// nothing to the receiver, and the caller's traceparent reaches the backend as it came.
func TestTracingOffByDefault(t *testing.T) {
	rc := startReceiver(t)
	tracingEnv(t, rc.URL)
	tp, err := TracingConfig{}.tracerProvider(context.Background())
	if err != nil || tp != nil {
		t.Fatalf("tracerProvider of an empty configuration = %v, %v; want nil, nil", tp, err)
	}
	if TracedTransport(nil, "agent", nil) != nil {
		t.Error("TracedTransport without a tracer wraps the transport")
	}
	before := otelGoroutines()
	base, backend := tracedGateway(t, nil)
	const tp1 = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	send(t, base, tp1, "complete off")
	found := false
	for _, r := range backend.Requests() {
		if r.A2AMethod == "SendStreamingMessage" || r.A2AMethod == "SendMessage" {
			found = found || r.Header.Get("traceparent") == tp1
		}
	}
	if !found {
		t.Error("the caller's traceparent did not reach the backend unchanged")
	}
	if after := otelGoroutines(); after > before {
		t.Errorf("%d OpenTelemetry goroutines started with tracing off", after-before)
	}
	if spans, raws, _ := rc.received(); len(spans) > 0 || len(raws) > 0 {
		t.Errorf("%d exports with tracing off", len(raws))
	}
}

// otelGoroutines counts the goroutines running OpenTelemetry's code (another test's provider
// may still be shutting down).
func otelGoroutines() int {
	buf := make([]byte, 4<<20)
	n := 0
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "go.opentelemetry.io/") {
			n++
		}
	}
	return n
}

// TestTracingConfig: the file's exporter and the environment's, which wins; what is refused.
func TestTracingConfig(t *testing.T) {
	rc := startReceiver(t)
	for _, c := range []struct {
		name, exporter string
		env            map[string]string
		on             bool
		err            string
	}{
		{"file otlp", "otlp", nil, true, ""},
		{"file none", "none", nil, false, ""},
		{"environment otlp", "", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true, ""},
		{"environment none over the file", "otlp", map[string]string{"OTEL_TRACES_EXPORTER": "none"}, false, ""},
		{"SDK disabled", "otlp", map[string]string{"OTEL_SDK_DISABLED": "true"}, false, ""},
		{"another exporter", "", map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, false, "OTEL_TRACES_EXPORTER"},
		{"gRPC", "otlp", map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, false, "OTEL_EXPORTER_OTLP_PROTOCOL"},
		{"traces' protocol first", "otlp", map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf"}, true, ""},
		{"bad resource attributes", "otlp", map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "team=a,secret-without-value"}, false, "OTEL_RESOURCE_ATTRIBUTES"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tracingEnv(t, rc.URL)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			tp, err := TracingConfig{Exporter: c.exporter}.tracerProvider(context.Background())
			if tp != nil {
				_ = tp.(*sdktrace.TracerProvider).Shutdown(context.Background())
			}
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("error %v, want one naming %s", err, c.err)
			case c.err == "" && err != nil:
				t.Errorf("error %v", err)
			case (tp != nil) != c.on:
				t.Errorf("on = %v, want %v", tp != nil, c.on)
			}
		})
	}
	fail := func(field, msg string) error { return errors.New(field + ": " + msg) }
	if err := (&TracingConfig{Exporter: "jaeger"}).check(fail); err == nil || !strings.HasPrefix(err.Error(), "tracing.exporter") {
		t.Errorf("check of exporter jaeger = %v", err)
	}
	if err := (&TracingConfig{Exporter: "otlp", ServiceName: "gw"}).check(fail); err != nil {
		t.Errorf("check of a valid configuration = %v", err)
	}
}

// BenchmarkTracing: what traces cost. server-span and client-span are the wrappers alone (off:
// Options.Tracer nil; on: the SDK, sampled, its batches dropped by a no-op exporter) around a
// request and a transport that do nothing; message is an A2A SendMessage through a gateway to the
// a2a-go test agent on loopback, off and on (the spans exported to an OTLP receiver on loopback,
// which runs on the same cores).
func BenchmarkTracing(b *testing.B) {
	rc := startReceiver(b)
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rc.URL)
	b.Setenv("OTEL_TRACES_EXPORTER", "")
	tp, err := TracingConfig{Exporter: "otlp"}.tracerProvider(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer shutdownTracer(tp)
	quiet := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	defer shutdownTracer(quiet)
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, on := range []bool{false, true} {
		var t *tracer
		var provider, micro trace.TracerProvider
		name := "off"
		if on {
			t, provider, micro, name = newTracer(quiet), tp, quiet, "on"
		}
		b.Run("server-span/"+name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodPost, "/a2a", nil)
			req.Header.Set("traceparent", parent)
			call := &facade.Call{Operation: "SendMessage"}
			b.ReportAllocs()
			for b.Loop() {
				r, span := t.serverSpan(req)
				t.endServerSpan(span, r, call, http.StatusOK)
			}
		})
		b.Run("client-span/"+name, func(b *testing.B) {
			base := roundTripper(func(*http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}, nil
			})
			rt := TracedTransport(micro, "agent", base)
			if rt == nil {
				rt = base
			}
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:9/a2a", nil)
			req.Header.Set("traceparent", parent)
			b.ReportAllocs()
			for b.Loop() {
				resp, _ := rt.RoundTrip(req)
				_ = resp.Body.Close()
			}
		})
		b.Run("message/"+name, func(b *testing.B) {
			base, _ := tracedGateway(b, provider)
			b.ReportAllocs()
			for b.Loop() {
				send(b, base, parent, "complete")
			}
		})
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestTracesOfACancel: a caller's CancelTask is a server span naming the task, and the gateway's
// cancel at the backend its child client span, naming the backend and the task.
func TestTracesOfACancel(t *testing.T) {
	rc, sdk, base, backend := tracedGatewayOn(t)
	task := sendMessage(t, base, "", "hold cancel me", true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := backend.WaitStarted(ctx, "hold cancel me"); err != nil {
		t.Fatal(err)
	}
	const traceID = "0af7651916cd43dd8448eb211c80319c"
	rpc(t, base, "00-"+traceID+"-b7ad6b7169203331-01", "CancelTask", `{"id":"`+task.ID+`"}`)
	var server *receivedSpan
	spans := flushUntil(t, sdk, rc, func(spans []receivedSpan) bool {
		server = nil
		for i, s := range spans {
			if s.Kind == tracepb.Span_SPAN_KIND_SERVER && s.Name == "CancelTask" {
				server = &spans[i]
			}
		}
		if server == nil {
			return false
		}
		for _, s := range spans {
			if s.Kind == tracepb.Span_SPAN_KIND_CLIENT && bytes.Equal(s.ParentSpanId, server.SpanId) {
				return true
			}
		}
		return false
	})
	if server == nil {
		t.Fatalf("no server span of CancelTask among %d spans", len(spans))
	}
	if got := hex.EncodeToString(server.TraceId); got != traceID || server.attrs["a2a.task.id"] != task.ID {
		t.Errorf("CancelTask's span: trace %s, task %q; want %s, %s", got, server.attrs["a2a.task.id"], traceID, task.ID)
	}
	children := 0
	for _, s := range spans {
		if s.Kind == tracepb.Span_SPAN_KIND_CLIENT && bytes.Equal(s.ParentSpanId, server.SpanId) {
			children++
			if s.attrs["a2aport.backend"] != "agent" || s.attrs["a2a.task.id"] != task.ID {
				t.Errorf("cancel's client span says backend %q, task %q", s.attrs["a2aport.backend"], s.attrs["a2a.task.id"])
			}
		}
	}
	if children == 0 {
		t.Errorf("the cancel at the backend is not a child of CancelTask's span (%d spans)", len(spans))
	}
}
