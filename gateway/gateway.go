package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"go.opentelemetry.io/otel/trace"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/facade"
)

// Backend is one entry of the catalogue.
type Backend struct {
	// Name identifies the backend in routing, skill ids and /backends: lower-case letters,
	// digits and dashes.
	Name string
	// Port serves its Works: adapter.New for a remote A2A agent, or a Port of your own.
	Port a2aport.Port
	// CardURL is where its skills are read from (an A2A agent's card); "" for a Port of your
	// own, which contributes one skill from Description.
	CardURL string
	// CardHeaders are sent when the gateway reads CardURL (the backend's static headers: an API
	// key its card's server asks for too).
	CardHeaders http.Header
	// Description is the one skill's description when the backend lists none.
	Description string
	// Disabled keeps the backend in the catalogue but serves nothing through it.
	Disabled bool
}

// Options configure a gateway.
type Options struct {
	// Facade is how the gateway is served as an A2A agent (BaseURL, name, authentication,
	// cluster, limits, origins); its LiveSkills and Admit are the gateway's.
	Facade facade.Options
	// Backends is the catalogue.
	Backends []Backend
	// Default is the backend of a message that names none ("": such a message is refused).
	Default string
	// Router, when set, chooses a message's backend before anything else does ("": let the
	// message and Default decide).
	Router func(msg *a2a.Message, work a2aport.Work) (string, error)
	// StartTimeout bounds each backend's discovery (default 10 s); a backend that fails is
	// retried with backoff from RetryMin (default 1 s) doubling to RetryMax (default 1 min).
	StartTimeout, RetryMin, RetryMax time.Duration
	// ProbeInterval is how often an available backend is checked again (its card read, or its
	// Port's Health): one that fails is unavailable, leaves the card and is retried (default 30 s;
	// negative: never).
	ProbeInterval time.Duration
	// Client reads the backends' cards for their skills (nil: http.DefaultClient). It follows a
	// redirect only to the card's own origin, whatever its CheckRedirect.
	Client *http.Client
	// Ready, when set, is asked by GET /readyz besides the backends: the store a cluster shares
	// (a PostgreSQL ping), anything the gateway cannot serve without.
	Ready func(ctx context.Context) error
	// AccessLog, when set, gets one line per request (method, path, JSON-RPC method, status,
	// duration) and one per Work (backend, task, outcome, duration); never a header or a body.
	AccessLog *slog.Logger
	// Logger gets what changes: a backend lost or back (with the reason, which may name its
	// internal address), a Work resumed from another node and how it ended (nil: Facade.Logger).
	Logger *slog.Logger
	// Tracer, when set, traces each A2A request (a server span, the child of the caller's
	// traceparent, which the Work's calls to its backend then carry as their parent); the
	// backends' adapters make the client spans with TracedTransport (tracing.go). Nil: no traces,
	// at no cost.
	Tracer trace.TracerProvider
	// SeparateAdmin serves the operations endpoints (/healthz, /readyz, /backends, /metrics)
	// only through Admin, for a listener the operator's network alone reaches; else the gateway's
	// handler serves them too (admin.go).
	SeparateAdmin bool
	// Identify, when set, names each request's caller and the claims its credentials carry (the
	// configuration's bearer tokens and JWTs), in place of Facade.Authenticate: an error is
	// answered 401. Access rules may ask for the claims.
	Identify func(r *http.Request) (Identity, error)
	// Access are the rules of who may do what (access.go); nil: every authenticated caller may do
	// everything. A caller no rule matches may do nothing.
	Access []AccessRule
	// RateLimits bound how fast each caller may call and each backend is sent messages, per
	// process (ratelimit.go).
	RateLimits RateLimits
	// release is called when the gateway stops: what Config.Options started (a JWK Set's refreshes).
	release []func()
	// Routes record which backend runs each Work. A cluster (Facade.Cluster) needs them, shared
	// by its nodes (pgcluster.Cluster.Routes): the node that takes a Work over asks its backend alone.
	// Nil: one process, whose Works are known in memory.
	Routes Routes
}

// Gateway is the handler of the gateway and its catalogue's life.
type Gateway struct {
	opts     Options
	backends map[string]*backend
	order    []string // the names, as configured
	router   *router
	metrics  *metrics
	// perCaller and perBackend are Options.RateLimits' buckets (nil: no limit).
	perCaller, perBackend *limiter
	handler               http.Handler
	admin                 http.Handler // the operations endpoints (admin.go)
	closing               context.Context
	close                 context.CancelFunc
	drain                 drain
	mu                    sync.Mutex // orders background() against stop()
	wg                    sync.WaitGroup
}

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// New checks the catalogue and builds the gateway; nothing is discovered before Start.
func New(opts Options) (*Gateway, error) {
	if len(opts.Backends) == 0 {
		return nil, errors.New("gateway: no backends")
	}
	g := &Gateway{opts: opts, backends: map[string]*backend{}}
	for _, b := range opts.Backends {
		switch {
		case !validName.MatchString(b.Name):
			return nil, fmt.Errorf("gateway: backend name %q: use lower-case letters, digits and dashes", b.Name)
		case g.backends[b.Name] != nil:
			return nil, fmt.Errorf("gateway: two backends are named %q", b.Name)
		case b.Port == nil:
			return nil, fmt.Errorf("gateway: backend %q has no Port", b.Name)
		}
		g.backends[b.Name] = newBackend(b)
		g.order = append(g.order, b.Name)
	}
	if opts.Facade.Cluster != nil && opts.Routes == nil {
		return nil, errors.New("gateway: a cluster needs Routes shared by its nodes (pgcluster.Cluster.Routes), so that a Work taken over goes to its own backend")
	}
	if opts.Default != "" && g.backends[opts.Default] == nil {
		return nil, fmt.Errorf("gateway: Default %q is not a backend", opts.Default)
	}
	if g.opts.StartTimeout <= 0 {
		g.opts.StartTimeout = 10 * time.Second
	}
	if g.opts.RetryMin <= 0 {
		g.opts.RetryMin = time.Second
	}
	if g.opts.RetryMax < g.opts.RetryMin {
		g.opts.RetryMax = max(time.Minute, g.opts.RetryMin)
	}
	if g.opts.ProbeInterval == 0 {
		g.opts.ProbeInterval = 30 * time.Second
	}
	if g.opts.Client == nil {
		g.opts.Client = http.DefaultClient
	}
	g.opts.Client = cardClient(g.opts.Client)
	if g.opts.Logger == nil {
		g.opts.Logger = opts.Facade.Logger
	}
	if g.opts.Logger == nil {
		g.opts.Logger = slog.New(slog.DiscardHandler)
	}
	g.router = newRouter(g)
	g.metrics = newMetrics(g)
	g.perCaller, g.perBackend = newLimiter(opts.RateLimits.PerCaller), newLimiter(opts.RateLimits.PerBackend)
	if opts.Identify != nil {
		g.opts.Facade.Authenticate = authenticated
	}
	fo := g.opts.Facade
	if fo.Push != nil {
		p, then := *fo.Push, fo.Push.Observe
		p.Observe = func(o facade.PushOutcome) {
			g.metrics.push.WithLabelValues(string(o)).Inc()
			if then != nil {
				then(o)
			}
		}
		fo.Push = &p
	}
	fo.LiveSkills, fo.Admit, fo.Draining = g.skills, g.router.admit, g.Draining
	fo.Authorize = g.authorize
	if opts.Access != nil {
		fo.ExtendedSkills = g.skillsFor
	}
	if then := opts.Facade.Authorize; then != nil {
		fo.Authorize = func(ctx context.Context, req facade.Request) error {
			if err := g.authorize(ctx, req); err != nil {
				return err
			}
			return then(ctx, req)
		}
	}
	if fo.Description == "" {
		fo.Description = "a2aport gateway"
	}
	a2aHandler, err := facade.New(g.router, fo)
	if err != nil {
		return nil, err
	}
	g.admin = g.opsMux(false)
	mux := http.NewServeMux()
	if !opts.SeparateAdmin {
		mux = g.opsMux(true)
	}
	mux.Handle("/", g.drain.counting(observe(opts.AccessLog, g.metrics, newTracer(opts.Tracer), a2aHandler)))
	g.handler = identify(opts.Identify, g.opts.Logger, mux)
	g.closing, g.close = context.WithCancel(context.Background())
	return g, nil
}

// ServeHTTP implements http.Handler.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) { g.handler.ServeHTTP(w, r) }

// Start discovers every enabled backend at once and returns when each is available or has
// failed once; the failed ones are retried in the background until Close.
func (g *Gateway) Start(ctx context.Context) {
	var wg sync.WaitGroup
	for _, name := range g.order {
		b := g.backends[name]
		if b.spec.Disabled {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !g.discover(ctx, b) {
				g.background(func() { g.retry(b) })
			}
		}()
	}
	wg.Wait()
	if g.opts.ProbeInterval > 0 {
		g.background(g.probe)
	}
}

// background runs f until the gateway stops (f returns once g.closing is done); after
// that, not at all.
func (g *Gateway) background(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closing.Err() != nil {
		return
	}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

// Close stops the retries and closes every backend's Port: their running Works are cancelled.
func (g *Gateway) Close() error { return g.stop(a2aport.Port.Close) }

// Detach stops like Close but leaves running Works at their agents, recorded in the backends'
// WorkStores, for another node of a cluster to resume.
func (g *Gateway) Detach() error { return g.stop(a2aport.Port.Detach) }

func (g *Gateway) stop(end func(a2aport.Port) error) error {
	g.mu.Lock()
	g.close()
	g.mu.Unlock()
	g.wg.Wait()
	for _, release := range g.opts.release {
		release()
	}
	g.opts.release = nil
	var errs []error
	for _, name := range g.order {
		errs = append(errs, end(g.backends[name].spec.Port))
	}
	return errors.Join(errs...)
}
