package gateway

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/a2aport/a2aport/facade"
)

// Traces: a server span for each A2A request the gateway serves, and a client span for each HTTP
// request to a backend, exported over OTLP/HTTP (docs/gateway.md, "Traces"). Off (Options.Tracer
// nil), nothing here runs: no exporter, no goroutine, the requests untouched.
//
// What a span says is a closed set of values and the gateway's own ids: the A2A operation, the
// HTTP status, the backend's name and host, the skill of the card, the task and context ids the
// gateway answered with. Never a header, a body, a query, a caller's name or a credential.

// TracingConfig is the configuration file's tracing.
type TracingConfig struct {
	// Exporter is "otlp" (OTLP/HTTP, where the standard OTEL_EXPORTER_OTLP_* variables say) or
	// "" / "none": no traces. OTEL_TRACES_EXPORTER, when set, wins (otlp or none), and
	// OTEL_SDK_DISABLED=true turns traces off.
	Exporter string `yaml:"exporter"`
	// ServiceName is the gateway's service.name (default "a2aport-gateway"); OTEL_SERVICE_NAME wins.
	ServiceName string `yaml:"serviceName"`
}

// DefaultServiceName is the service.name of a gateway's spans when neither the configuration
// nor OTEL_SERVICE_NAME names one.
const DefaultServiceName = "a2aport-gateway"

// check validates the file's values; the environment's are read by tracerProvider.
func (t *TracingConfig) check(fail func(field, msg string) error) error {
	switch t.Exporter {
	case "", "none", "otlp":
	default:
		return fail("tracing.exporter", "must be otlp or none")
	}
	if len(t.ServiceName) > 255 || strings.ContainsFunc(t.ServiceName, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fail("tracing.serviceName", "must be at most 255 characters, without control characters")
	}
	return nil
}

// tracerProvider is the TracerProvider t and the environment configure, or nil when traces are
// off. Its exporter sends batches over OTLP/HTTP, where the standard variables say
// (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS,
// ..._TIMEOUT, ..._COMPRESSION, ..._CERTIFICATE), sampled as OTEL_TRACES_SAMPLER says (default:
// the caller's decision, else every trace). Its owner calls Shutdown on the way out, which sends
// what is still batched.
func (t TracingConfig) tracerProvider(ctx context.Context) (trace.TracerProvider, error) {
	exporter := t.Exporter
	if env := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); env != "" {
		exporter = env
	}
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		exporter = "none"
	}
	switch exporter {
	case "", "none":
		return nil, nil
	case "otlp":
	default:
		return nil, errors.New("tracing: OTEL_TRACES_EXPORTER names an exporter the gateway does not have: use otlp or none")
	}
	variable := "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" // the exporter's own order
	protocol := os.Getenv(variable)
	if protocol == "" {
		variable = "OTEL_EXPORTER_OTLP_PROTOCOL"
		protocol = os.Getenv(variable)
	}
	if protocol != "" && protocol != "http/protobuf" && protocol != "http/json" { // grpc would be sent as HTTP
		return nil, errors.New("tracing: " + variable + ": the gateway exports over OTLP/HTTP: use http/protobuf (the default) or http/json")
	}
	name := t.ServiceName
	if name == "" {
		name = DefaultServiceName
	}
	// Later detectors win: OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME over the file.
	res, err := resource.New(ctx, resource.WithTelemetrySDK(), resource.WithAttributes(semconv.ServiceName(name)), resource.WithFromEnv())
	if err != nil { // its text would quote the variables' values
		return nil, errors.New("tracing: OTEL_RESOURCE_ATTRIBUTES must be a comma-separated list of key=value")
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, errors.New("tracing: the OTLP exporter cannot be made from the OTEL_EXPORTER_OTLP_* variables")
	}
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res)), nil
}

// instrumentation is the name of the gateway's tracer.
const instrumentation = "github.com/a2aport/a2aport/gateway"

// Span attributes of the gateway's own (the HTTP ones are OpenTelemetry's semantic conventions).
const (
	attrOperation = attribute.Key("a2a.operation")  // the A2A 1.0 operation: SendMessage, GetTask, ...
	attrTask      = attribute.Key("a2a.task.id")    // the gateway's task id (a backend's own is not shown)
	attrContext   = attribute.Key("a2a.context.id") // the gateway's context id
	attrBackend   = attribute.Key("a2aport.backend")
	attrSkill     = attribute.Key("a2aport.skill") // the card's skill id the message named: weather/forecast
)

// maxSpanID bounds an id on a span (the gateway makes UUIDs; a context id may be the caller's
// choice, as A2A allows).
const maxSpanID = 128

// traceContext reads and writes W3C traceparent and tracestate headers.
var traceContext propagation.TraceContext

// tracer makes the gateway's server spans; nil when traces are off, and then its methods return
// at once.
type tracer struct{ t trace.Tracer }

func newTracer(tp trace.TracerProvider) *tracer {
	if tp == nil {
		return nil
	}
	return &tracer{t: tp.Tracer(instrumentation)}
}

// serverSpan starts the span of one A2A request: the child of the caller's traceparent, when it
// sent a valid one (the trace id kept), else the root of a new trace. The request goes on with
// this span's traceparent in place of the caller's, which the facade gives the Work: the calls
// to the backend are this span's children, on whichever node of a cluster runs the Work (a2a-go
// hands the request's headers on with it).
func (t *tracer) serverSpan(r *http.Request) (*http.Request, trace.Span) {
	if t == nil {
		return r, nil
	}
	ctx := traceContext.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	ctx, span := t.t.Start(ctx, "a2a", trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(methodAttr(r.Method)))
	r = r.WithContext(ctx)
	r.Header = r.Header.Clone() // the caller's request is not changed under it
	r.Header.Del("Traceparent")
	r.Header.Del("Tracestate")
	traceContext.Inject(ctx, propagation.HeaderCarrier(r.Header))
	return r, span
}

// endServerSpan names the span by the request's operation (a closed set: observe's metric label)
// and ends it with the status answered and the task and context the answer named.
func (t *tracer) endServerSpan(span trace.Span, r *http.Request, call *facade.Call, status int) {
	if span == nil {
		return
	}
	if span.IsRecording() {
		span.SetName(operationLabel(r, call))
		attrs := []attribute.KeyValue{semconv.HTTPResponseStatusCode(status)}
		if call.Operation != "" {
			attrs = append(attrs, attrOperation.String(call.Operation))
		}
		if task, conversation := call.Task(); task != "" || conversation != "" {
			attrs = append(attrs, attrTask.String(printable(task, maxSpanID)), attrContext.String(printable(conversation, maxSpanID)))
		}
		if status >= 500 {
			attrs = append(attrs, semconv.ErrorTypeKey.String(strconv.Itoa(status)))
			span.SetStatus(codes.Error, "")
		}
		span.SetAttributes(attrs...)
	}
	span.End()
}

// methodAttr is http.request.method, from a closed set.
func methodAttr(method string) attribute.KeyValue {
	switch method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodOptions, http.MethodPatch:
		return semconv.HTTPRequestMethodKey.String(method)
	}
	return semconv.HTTPRequestMethodOther
}

// workKey carries, in a Work's context, what its client spans say of it (router.traced).
type workKey struct{}

type workSpan struct{ task, skill string }

// traced is ctx carrying what the client spans of the Work workID say: its id and the skill it
// was sent to (""), when traces are on.
func (r *router) traced(ctx context.Context, workID, skill string) context.Context {
	if r.g.opts.Tracer == nil {
		return ctx
	}
	return context.WithValue(ctx, workKey{}, workSpan{task: workID, skill: skill})
}

// TracedTransport is base (nil: http.DefaultTransport) with a client span for each request it
// makes to the backend named backend; tp nil: base itself. Give it to a backend's adapter
// (a2aport.Options.Transport): the span's parent is the traceparent the adapter sends (the
// Work's, which the gateway's server span set), else the span of the request's context (a
// cancel); a request with neither (discovery, a probe) gets no span. The request goes out with
// the client span's traceparent. The span says the backend, the HTTP method, the URL's host and
// port (no path, no query, no user info), the status answered, and the Work's id and skill;
// never a header. A streamed answer's span ends with the stream.
func TracedTransport(tp trace.TracerProvider, backend string, base http.RoundTripper) http.RoundTripper {
	if tp == nil {
		return base
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return &clientSpans{tracer: tp.Tracer(instrumentation), backend: backend, base: base}
}

type clientSpans struct {
	tracer  trace.Tracer
	backend string
	base    http.RoundTripper
}

func (c *clientSpans) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := traceContext.Extract(req.Context(), propagation.HeaderCarrier(req.Header))
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return c.base.RoundTrip(req)
	}
	attrs := []attribute.KeyValue{attrBackend.String(c.backend), methodAttr(req.Method)}
	if req.URL != nil {
		host, port := req.URL.Hostname(), req.URL.Port()
		if port == "" && req.URL.Scheme == "https" {
			port = "443"
		} else if port == "" {
			port = "80"
		}
		attrs = append(attrs, semconv.ServerAddress(host))
		if n, err := strconv.Atoi(port); err == nil {
			attrs = append(attrs, semconv.ServerPort(n))
		}
	}
	if w, ok := req.Context().Value(workKey{}).(workSpan); ok {
		attrs = append(attrs, attrTask.String(w.task))
		if w.skill != "" {
			attrs = append(attrs, attrSkill.String(w.skill))
		}
	}
	ctx, span := c.tracer.Start(ctx, "backend "+c.backend, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	out := req.Clone(ctx) // a RoundTripper must not change the request it was given
	out.Header.Del("Traceparent")
	out.Header.Del("Tracestate")
	traceContext.Inject(ctx, propagation.HeaderCarrier(out.Header))
	resp, err := c.base.RoundTrip(out)
	if err != nil {
		span.SetAttributes(semconv.ErrorTypeKey.String(errorKind(err)))
		span.SetStatus(codes.Error, "") // the error's text may name the URL: not on the span
		span.End()
		return resp, err
	}
	span.SetAttributes(semconv.HTTPResponseStatusCode(resp.StatusCode))
	if resp.StatusCode >= 400 {
		span.SetAttributes(semconv.ErrorTypeKey.String(strconv.Itoa(resp.StatusCode)))
		span.SetStatus(codes.Error, "")
	}
	if resp.Body == nil {
		span.End()
		return resp, nil
	}
	resp.Body = &spanBody{ReadCloser: resp.Body, span: span}
	return resp, nil
}

// errorKind is a failed request's error.type, from a closed set.
func errorKind(err error) string {
	var timeout interface{ Timeout() bool }
	var op *net.OpError
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeout) && timeout.Timeout():
		return "timeout"
	case errors.As(err, &op) && op.Op == "dial":
		return "connection"
	}
	return "_OTHER"
}

// spanBody ends the client span when the answer has been read, or closed.
type spanBody struct {
	io.ReadCloser
	span trace.Span
	once sync.Once
}

func (b *spanBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.once.Do(func() { b.span.End() })
	}
	return n, err
}

func (b *spanBody) Close() error {
	b.once.Do(func() { b.span.End() })
	return b.ReadCloser.Close()
}

// skillOf is the card's skill msg named, when it is one of backend's and traces are on ("" else).
func (r *router) skillOf(msg *a2a.Message, backend string) string {
	if r.g.opts.Tracer == nil || msg == nil {
		return ""
	}
	skill, _ := msg.Metadata["skill"].(string)
	if name, _, _ := strings.Cut(skill, "/"); name != backend || !r.g.hasSkill(name, skill) {
		return ""
	}
	return skill
}

// shutdownTracer sends what tp still batches and stops it, when it is the SDK's (Config.Options
// calls it when it fails after making one).
func shutdownTracer(tp trace.TracerProvider) {
	if sdk, ok := tp.(interface{ Shutdown(context.Context) error }); ok {
		_ = sdk.Shutdown(context.Background())
	}
}
