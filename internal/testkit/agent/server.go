package agent

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"

	"github.com/a2aport/a2aport/internal/a2asrvx"
	"github.com/a2aport/a2aport/internal/cors"
	"github.com/a2aproject/a2a-go/v2/log"
)

// closeTimeout bounds each shutdown step of Close.
const closeTimeout = 2 * time.Second

// quiet discards a2asrv's logs: the scenarios provoke warnings on purpose.
var quiet = slog.New(slog.DiscardHandler)

// Server is a running test agent serving every [Variant].
type Server struct {
	url      string
	http     *http.Server
	exec     *executor
	requests requestLog
	oauth    oauthServer
	variants map[string]Variant // by prefix

	closing   chan struct{}
	closeOnce sync.Once
}

// Start serves the test agent on a free port of 127.0.0.1.
func Start() (*Server, error) {
	return StartAt("127.0.0.1:0")
}

// StartAt serves the test agent on addr, which must be a loopback address
// such as "127.0.0.1:8080"; port 0 picks a free port.
func StartAt(addr string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("test agent address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("test agent address %q: host must be a loopback IP", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("test agent: %w", err)
	}

	s := &Server{
		url:      "http://" + ln.Addr().String(),
		variants: make(map[string]Variant),
		closing:  make(chan struct{}),
	}
	s.exec = newExecutor(s.closing)

	mux := http.NewServeMux()
	for _, v := range append(Variants(), PushVariants()...) {
		s.variants[v.prefix()] = v
		h := s.variantHandler(v)
		mux.Handle(v.prefix(), h) // else ServeMux redirects JSON-RPC POSTs to prefix/
		mux.Handle(v.prefix()+"/", h)
	}
	for name, h := range specialCards(s.url) {
		mux.Handle("/cards/"+name+".json", h)
	}
	secureAPI := s.variantAPI(Variant{Version: version10, Binding: bindingJSONRPC, Streaming: true})
	for _, name := range securedCards {
		mux.Handle(securedPath(name), s.oauth.secured(name, secureAPI))
	}
	mux.Handle("/oauth/", &s.oauth)
	s.http = &http.Server{
		Handler:           s.record(cors.AllowAny(mux)),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(quiet.Handler(), slog.LevelError),
		BaseContext: func(net.Listener) context.Context {
			return log.AttachLogger(context.Background(), quiet)
		},
	}
	go func() { _ = s.http.Serve(ln) }()
	return s, nil
}

// variantHandler serves the card and the A2A endpoint of v, below its prefix.
func (s *Server) variantHandler(v Variant) http.Handler {
	api := s.variantAPI(v)
	card := cardHandler(variantCard(v, endpoint(s.url, v)), v.Version)
	return http.StripPrefix(v.prefix(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == a2asrv.WellKnownAgentCardPath {
			card.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	}))
}

// variantAPI serves the A2A endpoint of v (faults included) at any path.
func (s *Server) variantAPI(v Variant) http.Handler {
	options := []a2asrv.RequestHandlerOption{
		// Every endpoint can give an extended card; only CardExtended's card says so.
		a2asrv.WithCapabilityChecks(&a2a.AgentCapabilities{Streaming: v.Streaming, PushNotifications: v.Push, ExtendedAgentCard: true}),
		a2asrv.WithExtendedAgentCard(extendedCard(variantCard(v, endpoint(s.url, v)))),
		a2asrv.WithLogger(quiet),
	}
	if v.Push {
		// Webhooks of tests are on loopback, which a2a-go's sender refuses by default.
		options = append(options, a2asrv.WithPushNotifications(push.NewInMemoryStore(),
			push.NewHTTPPushSender(&push.HTTPSenderConfig{Timeout: 5 * time.Second, AllowPrivateNetworks: true})))
	}
	var handler a2asrv.RequestHandler = a2asrv.NewHandler(s.exec, options...)
	handler = &authHandler{RequestHandler: a2asrvx.Patient(handler), gate: s.exec.auth, streaming: v.Streaming}

	var transport http.Handler
	switch {
	case v.Version == version03 && v.Binding == bindingJSONRPC:
		transport = a2av0.NewJSONRPCHandler(handler)
	case v.Version == version03:
		transport = a2av0.NewRESTHandler(handler)
	case v.Binding == bindingJSONRPC:
		transport = a2asrv.NewJSONRPCHandler(handler)
	default:
		transport = a2asrv.NewRESTHandler(handler)
	}
	return faults(transport, v)
}

// variantOf finds the variant whose prefix path starts with, and the path
// below that prefix.
func (s *Server) variantOf(path string) (Variant, string, bool) {
	for prefix, v := range s.variants {
		if path == prefix || strings.HasPrefix(path, prefix+"/") {
			return v, strings.TrimPrefix(path, prefix), true
		}
	}
	return Variant{}, "", false
}

// URL returns the server's base URL, http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.url }

// NoKeepAlives makes the server close each connection after its answer, so that once the server
// is closed a client's next request meets a refused connection, never a kept one that breaks.
func (s *Server) NoKeepAlives() { s.http.SetKeepAlivesEnabled(false) }

// CardURL returns the complete agent card URL of v. The card declares a
// single interface: the variant's endpoint at URL()+"/v1/jsonrpc/stream"
// and the like.
func (s *Server) CardURL(v Variant) string {
	return s.url + v.prefix() + a2asrv.WellKnownAgentCardPath
}

// SpecialCardURL returns the URL of a special card: [CardGRPCOnly],
// [CardMixed] or [CardV03First]. Other names give a URL that answers 404.
func (s *Server) SpecialCardURL(name string) string {
	return s.url + "/cards/" + name + ".json"
}

// Requests returns every HTTP request received so far, oldest first.
func (s *Server) Requests() []Request { return s.requests.all() }

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() { s.requests.reset() }

// Cancels returns the ids of the tasks whose cancelation reached the agent
// (its executor's Cancel ran), in order.
func (s *Server) Cancels() []string {
	var ids []string
	for _, c := range s.exec.cancelled() {
		ids = append(ids, c.taskID)
	}
	return ids
}

// Cancelled reports whether a cancelation reached the agent for a task
// whose first message's first text part equals instruction. It spares
// clients that never see the remote task id from tracking it.
func (s *Server) Cancelled(instruction string) bool {
	for _, c := range s.exec.cancelled() {
		if c.instruction == instruction {
			return true
		}
	}
	return false
}

// CancelConfirmed reports whether the task whose first message's first text part equals
// instruction is cancelled at the agent: an execution or cancelation stored it CANCELED.
// Cancelled says only that a cancelation reached the executor, which a2a-go's server can still
// refuse (a turn that resolved to INPUT_REQUIRED first).
func (s *Server) CancelConfirmed(instruction string) bool {
	return s.EndedAs(instruction) == a2a.TaskStateCanceled
}

// EndedAs is how instruction's task ended (CANCELED, COMPLETED ...), else the state its last
// execution stored ("" when none has returned).
func (s *Server) EndedAs(instruction string) a2a.TaskState { return s.exec.endedAs(instruction) }

// WaitStarted returns once an execution has started for a task whose first
// message's first text part equals instruction, including executions that
// started before the call. It fails when ctx ends or the server closes.
func (s *Server) WaitStarted(ctx context.Context, instruction string) error {
	return s.exec.starts.wait(ctx, s.closing, instruction)
}

// Close stops the server. Held executions are released first (they fail
// with "server closed") so that open streams receive a final event.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.exec.drain(closeTimeout)
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		defer cancel()
		if s.http.Shutdown(ctx) != nil {
			_ = s.http.Close()
		}
	})
}
