package facade

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"

	"github.com/a2aport/a2aport"
)

// Paths below BaseURL where the facade serves. EndpointPath is JSON-RPC for both versions, chosen
// by the A2A-Version header (none: 0.3); each version's own paths stay beside it.
const (
	CardPath     = a2asrv.WellKnownAgentCardPath
	EndpointPath = "/a2a"
	JSONRPCPath  = "/a2a/jsonrpc"
	RESTPath     = "/a2a/rest"
	V03RPCPath   = "/a2a/v03/jsonrpc"
	V03RESTPath  = "/a2a/v03/rest"
)

// Options describe the agent the facade presents.
type Options struct {
	// BaseURL is the public URL the facade is reached at; the card's interfaces are below it.
	BaseURL string
	// Name, Description, Version and Skills go on the card (Name defaults to the Port's label,
	// Version to the program's module version, else its commit).
	Name, Description, Version string
	Skills                     []a2a.AgentSkill
	// ExtendedSkills, when set, offers callers the extended card (GetExtendedAgentCard): the card
	// with the skills ExtendedSkills gives for the caller of ctx, where the public card has them all.
	ExtendedSkills func(ctx context.Context) []a2a.AgentSkill
	// LiveSkills, when set, gives the card's skills on every request of the card (in place of
	// Skills): for a Port whose abilities change, as a gateway's backends come and go.
	LiveSkills func() []a2a.AgentSkill
	// Admit decides whether a message that starts a task is taken, before the task exists: an
	// error refuses it and nothing is created (an *a2a.Error keeps its kind; use
	// a2a.ErrInvalidParams for a message that names what cannot be served). Nil: every message.
	Admit func(msg *a2a.Message, work a2aport.Work) error
	// SecuritySchemes and SecurityRequirements are declared on the card; Authenticate enforces them.
	SecuritySchemes      a2a.NamedSecuritySchemes
	SecurityRequirements a2a.SecurityRequirementsOptions
	// Authenticate names the caller of an A2A request (the card stays public), or refuses it: the
	// request is answered 401. Tasks belong to the caller it names. Nil: every caller is anonymous
	// and all share one owner.
	Authenticate func(r *http.Request) (caller string, err error)
	// Authorize, when set, decides each A2A request once its caller is authenticated and its
	// operation read, before anything is created or sent on: an error refuses it and nothing is
	// created. Wrap ErrForbidden for what the caller may not do (PERMISSION_DENIED), return a
	// *RetryLater for a limit (429 with Retry-After); any other error is invalid params. Nil: every
	// authenticated request.
	Authorize func(ctx context.Context, req Request) error
	// Cluster runs the facade on a2a-go's cluster mode: tasks, their events and the work to do
	// are shared by every process given the same (pgcluster.New). Nil: one process, in memory.
	Cluster *a2asrv.ClusterConfig
	// MessageOnly answers each message with a message and keeps no task: for Ports whose Works
	// finish without asking anything. A Work that asks is cancelled and the call fails.
	MessageOnly bool
	// Logger logs the server's warnings (nil: nothing).
	Logger *slog.Logger
	// Limits bound what a request, a task and a caller may cost (zero fields: the defaults).
	Limits Limits
	// AllowedOrigins are the origins (scheme://host[:port]) whose pages may call the facade from a
	// browser, with credentials (CORS). Nil: none; a browser's cross-origin request is refused.
	AllowedOrigins []string
	// Draining, when set, is asked of each message that would start a task: while it says true
	// (the process is stopping), such a message is answered 503 with Retry-After, so that a load
	// balancer's next try reaches another process and nothing is created here. Calls on tasks
	// that exist, and answers to their questions, are served as ever.
	Draining func() bool
	// KeepAlive is how often a stream that carries nothing gets an SSE comment, so proxies and
	// load balancers, which drop idle connections after a minute or a few, keep it open
	// (0: DefaultKeepAlive; < 0: never).
	KeepAlive time.Duration
	// CardSigning, when set, signs every card the facade serves with the operator's key, and
	// publishes the public key at CardKeysPath unless CardSigning.JKU names another place.
	CardSigning *CardSigning
	// Push, when set, offers push notifications (the card says so): callers register webhooks
	// for their tasks and the facade POSTs each task's events there (push.go). With Cluster, its
	// Store (and Outbox, if any) must be the nodes' own (pgcluster); not with MessageOnly. Nil:
	// none, and the push-config methods are PushNotificationNotSupported.
	Push *PushOptions
}

// DefaultKeepAlive is Options.KeepAlive's default.
const DefaultKeepAlive = 15 * time.Second

// New serves port as an A2A agent.
func New(port a2aport.Port, opts Options) (http.Handler, error) {
	if port == nil {
		return nil, errors.New("facade: port is nil")
	}
	base, err := url.Parse(opts.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, errors.New("facade: BaseURL must be an absolute http(s) URL")
	}
	if err := validOrigins(opts.AllowedOrigins); err != nil {
		return nil, err
	}
	root := strings.TrimSuffix(base.String(), "/")
	signing, err := newCardSigner(opts.CardSigning, root)
	if err != nil {
		return nil, err
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	card := newCard(port, opts, root)
	limits := opts.Limits.withDefaults()
	exec := newExecutor(port)
	exec.messageOnly, exec.maxTaskBytes, exec.admit = opts.MessageOnly, limits.MaxTaskBytes, opts.Admit
	var tasks taskstore.Store
	options := []a2asrv.RequestHandlerOption{a2asrv.WithCapabilityChecks(&card.Capabilities), a2asrv.WithLogger(logger)}
	var pushing *pushes
	switch {
	case opts.Push != nil && opts.MessageOnly:
		return nil, errors.New("facade: Push needs tasks: not with MessageOnly")
	case opts.Push != nil && opts.Cluster != nil && opts.Push.Store == nil:
		return nil, errors.New("facade: Push with Cluster needs Push.Store shared by the nodes (pgcluster.Cluster.PushConfigs): another node would not know the webhooks")
	case opts.Push != nil && opts.Push.Outbox != nil && opts.Push.Store == nil:
		return nil, errors.New("facade: Push.Outbox needs Push.Store shared by the nodes (pgcluster.Cluster.PushConfigs): the node that adopts a delivery reads its webhook there")
	}
	if opts.Cluster != nil {
		tasks, exec.events = opts.Cluster.TaskStore, opts.Cluster.QueueManager
		options = append(options, a2asrv.WithClusterMode(*opts.Cluster))
	} else {
		tasks = newMemStore(limits)
		options = append(options, a2asrv.WithTaskStore(tasks))
	}
	if opts.Push != nil {
		signer, err := newPushSigner(opts.Push.Sign, signing, root)
		if err != nil {
			return nil, err
		}
		if pushing, err = newPushes(opts.Push, tasks, signer, logger); err != nil {
			return nil, err
		}
		card.Capabilities.PushNotifications = true
		options = append(options, a2asrv.WithPushNotifications(pushing.configs, pushing.queue))
	}
	if opts.ExtendedSkills != nil {
		card.Capabilities.ExtendedAgentCard = true
		options = append(options, a2asrv.WithExtendedAgentCardProducer(signing.extended(extendedCard{card: card, skills: opts.ExtendedSkills})))
	}
	options = append(options, a2asrv.WithCallInterceptors(callers{tasks: tasks, pushes: card.Capabilities.PushNotifications}, historyLength{}, blockingSends{}))
	if pushing != nil {
		options = append(options, a2asrv.WithCallInterceptors(pushChecks{p: pushing})) // after callers: whose task first
	}
	handler := subscriptions{RequestHandler: a2asrv.NewHandler(exec, options...), tasks: tasks}
	checks := &admission{limits: limits, draining: opts.Draining, authorizeFn: opts.Authorize, exec: exec, streams: &callerCounts{}, tasks: tasks}
	guard := func(rpc bool, version string, h http.Handler) http.Handler {
		return acceptOnlyJSON(rpc, opts.AllowedOrigins, authenticate(opts.Authenticate, rpc, checks.admit(rpc, version, h)))
	}
	mux := http.NewServeMux()
	served, err := unionCard(card)
	if err != nil {
		return nil, err
	}
	var producer a2asrv.AgentCardProducer = served
	maxAge := CardMaxAge
	if opts.LiveSkills != nil {
		producer, maxAge = liveCard{card: card, skills: opts.LiveSkills}, LiveCardMaxAge
	}
	if producer, err = signing.serve(mux, producer); err != nil {
		return nil, err
	}
	mux.Handle(CardPath, cacheableCard(a2asrv.NewAgentCardHandler(producer), maxAge))
	keepAlive := opts.KeepAlive
	if keepAlive == 0 {
		keepAlive = DefaultKeepAlive
	}
	keepAlives := a2asrv.WithTransportKeepAlive(keepAlive) // a negative interval: none
	rpc10, rpc03 := a2asrv.NewJSONRPCHandler(handler, keepAlives), legacyCalls(a2av0.NewJSONRPCHandler(handler, keepAlives))
	endpoint := guard(true, "", byVersion(rpc10, rpc03))
	mux.Handle(EndpointPath, endpoint)
	mux.Handle(EndpointPath+"/{$}", endpoint) // clients that join a base URL and "/" (httpx: the TCK) post here
	mux.Handle(JSONRPCPath, guard(true, version10, onlyVersion(version10, true, rpc10)))
	mux.Handle(RESTPath+"/", a2aJSON(guard(false, version10, onlyVersion(version10, false, http.StripPrefix(RESTPath, a2asrv.NewRESTHandler(handler, keepAlives))))))
	mux.Handle(V03RPCPath, guard(true, version03, onlyVersion(version03, true, rpc03)))
	mux.Handle(V03RESTPath+"/", guard(false, version03, onlyVersion(version03, false, http.StripPrefix(V03RESTPath, legacyCalls(a2av0.NewRESTHandler(handler, keepAlives))))))
	if pushing != nil {
		pushing.queue.start() // last: New cannot fail any more, and leave it running
	}
	return allowOrigins(opts.AllowedOrigins, mux), nil
}
