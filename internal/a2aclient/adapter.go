package a2aclient

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/binding"
	"github.com/a2aport/a2aport/internal/credentials"
	"github.com/a2aport/a2aport/internal/park"
)

// Adapter is the native implementation of Port on a2a-go's client.
type Adapter struct {
	s     *settings
	creds *credentials.Transport
	http  *binding.Client
	auth  atomic.Pointer[authState] // of the card in use: what each request to the agent carries
	cont  *continuity

	// closing ends every request of the adapter on Close.
	closing context.Context
	close   context.CancelCauseFunc

	startMu       sync.Mutex
	discovery     chan struct{}           // non-nil while a discovery runs; closed when it ends
	stopDiscovery context.CancelCauseFunc // ends the running discovery (Close, Detach)
	conn          *connection             // set once discovery succeeded
	lastErr       error                   // of the last failed discovery

	mu        sync.Mutex
	closed    bool
	runs      map[string]*run
	listeners map[int]func(a2aport.Event)
	nextID    int
}

// connection is what discovery produced.
type connection struct {
	card      *a2a.AgentCard
	notes     []string // parts of the card that were ignored
	iface     *a2a.AgentInterface
	client    agentClient
	extended  bool // card is the agent's extended card, read with the caller's credentials
	auth      *authState
	signature *a2aport.CardSignature // how the card was verified; nil when it was not
}

var _ a2aport.Port = (*Adapter)(nil)

// New validates opts and returns an adapter. It does no I/O: discovery happens on Start or on
// the first Submit.
func New(opts a2aport.Options) (*Adapter, error) { return NewHosted(opts, nil) }

// NewHosted is New for an adapter inside the module, whose host keeps the credentials and adds
// them to its requests: held says what the host holds, never a value.
func NewHosted(opts a2aport.Options, held *credentials.Held) (*Adapter, error) {
	s, err := validate(opts, held)
	if err != nil {
		return nil, err
	}
	creds := &credentials.Transport{Base: s.Transport, Token: s.Token, Headers: s.Headers, HeaderFunc: s.HeaderFunc,
		Credentials: s.Credentials, TokenProvider: s.TokenProvider, TokenOrigins: credentials.TokenOrigins(s.AgentCardURL, s.AllowedOrigins)}
	a := &Adapter{
		s:         s,
		creds:     creds,
		cont:      &continuity{store: s.store, discovering: map[string]chan struct{}{}},
		runs:      map[string]*run{},
		listeners: map[int]func(a2aport.Event){},
	}
	planned := authPlanner{base: creds, auth: &a.auth}
	// No Client.Timeout: it would cut long streams; time is bounded through the Clock instead.
	a.http = &binding.Client{Transport: traceHeader{base: statusRecorder{base: planned, maxResponse: s.MaxResponseBytes}}, CheckRedirect: a.checkRedirect}
	a.closing, a.close = context.WithCancelCause(context.Background())
	return a, nil
}

// Describe implements Port.
func (a *Adapter) Describe() a2aport.Description {
	d := a2aport.Description{Protocol: "a2a", Label: a.s.Label}
	if a.s.cardURL != nil {
		d.AgentCardURL = a.s.cardURL.Redacted()
	}
	card := a.s.AgentCard
	conn := a.connection()
	if conn != nil {
		card = conn.card
		d.Discovered = true
		d.Transport = string(conn.iface.ProtocolBinding)
		d.ProtocolVersion = versionOrDefault(conn.iface.ProtocolVersion)
		d.CardNotes = append([]string(nil), conn.notes...)
		d.ExtendedCard = conn.extended
		d.Security = cloneSecurity(conn.auth.security)
		if conn.signature != nil {
			sig := *conn.signature
			sig.Uncovered = slices.Clone(sig.Uncovered)
			d.CardSignature = &sig
		}
	}
	if card != nil {
		d.AgentName, d.AgentVersion = card.Name, card.Version
		d.Capabilities.Streaming = card.Capabilities.Streaming
		d.Capabilities.InputModes = append([]string(nil), card.DefaultInputModes...)
		d.Capabilities.OutputModes = append([]string(nil), card.DefaultOutputModes...)
	}
	if d.Label == "" {
		d.Label = defaultLabel(d.AgentName, a.s.cardURL)
	}
	d.Capabilities.Cancel = true
	d.Capabilities.InputRequests = true
	d.Capabilities.MessageReplies = true
	d.Capabilities.Continuity = a.s.ReuseContext
	d.Capabilities.Authorization = false
	d.AgentCardURL = a.redact(d.AgentCardURL)
	return d
}

func defaultLabel(agentName string, cardURL *url.URL) string {
	switch {
	case agentName != "":
		return agentName
	case cardURL != nil:
		return cardURL.Host
	default:
		return "A2A agent"
	}
}

// Start implements Port: it discovers the agent once; concurrent calls share the discovery and a
// failed discovery is retried by the next call.
func (a *Adapter) Start(ctx context.Context) (a2aport.Health, error) {
	if _, err := a.connect(ctx); err != nil {
		return a2aport.Health{OK: false, Error: err.Error(), Closed: a.isClosed()}, err
	}
	return a2aport.Health{OK: true, Started: true}, nil
}

// Health implements Port.
func (a *Adapter) Health(context.Context) (a2aport.Health, error) {
	if a.isClosed() {
		return a2aport.Health{Closed: true}, nil
	}
	conn := a.connection()
	h := a2aport.Health{OK: true, Started: conn != nil}
	a.startMu.Lock()
	if conn == nil && a.lastErr != nil {
		h.OK, h.Error = false, a.lastErr.Error()
	}
	a.startMu.Unlock()
	return h, nil
}

func (a *Adapter) connection() *connection {
	a.startMu.Lock()
	defer a.startMu.Unlock()
	return a.conn
}

func (a *Adapter) isClosed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.closed
}

// connect returns the connection, discovering the agent if needed. Concurrent callers share one
// discovery, run by the first of them under its own context: if that caller gives up (its Work
// is cancelled or times out), the discovery ends with it and the next caller starts another.
func (a *Adapter) connect(ctx context.Context) (*connection, error) {
	for {
		if a.isClosed() {
			return nil, ClosedError()
		}
		a.startMu.Lock()
		if a.conn != nil {
			conn := a.conn
			a.startMu.Unlock()
			return conn, nil
		}
		if wait := a.discovery; wait != nil {
			a.startMu.Unlock()
			if park.Wait(ctx, wait) != nil {
				return nil, a.ctxError(ctx)
			}
			a.startMu.Lock()
			conn, err := a.conn, a.lastErr
			a.startMu.Unlock()
			if conn != nil || err != nil {
				return conn, err
			}
			continue
		}
		done := make(chan struct{})
		dctx, stop := context.WithCancelCause(context.WithValue(ctx, traceKey{}, "")) // no Work's trace: discovery is shared
		a.discovery, a.stopDiscovery = done, stop
		a.startMu.Unlock()

		conn, err := a.discover(dctx)
		a.startMu.Lock()
		a.discovery, a.stopDiscovery = nil, nil
		abandoned := err != nil && ctx.Err() != nil // by its caller: not a failure of the agent
		if !abandoned {
			a.conn, a.lastErr = conn, err
		}
		a.startMu.Unlock()
		stop(context.Canceled)
		close(done)
		if abandoned {
			return nil, a.ctxError(ctx)
		}
		if errors.Is(err, a2aport.ErrWorkDetached) {
			err = ClosedError() // detached in discovery: no Work of this caller had left
		}
		return conn, err
	}
}

// discover reads the card and opens the interface, bounded by RequestTimeout, its caller's
// context, Close and Detach.
func (a *Adapter) discover(parent context.Context) (*connection, error) {
	ctx, cancel := withTimeout(parent, a.s.Clock, a.s.RequestTimeout, errRequestTimeout)
	defer cancel()
	card := a.s.AgentCard
	var notes []string
	var sig *a2aport.CardSignature
	if card == nil {
		var err error
		if card, notes, sig, err = a.fetchCard(ctx); err != nil {
			return nil, err
		}
	}
	if err := checkCredentialForms(card, a.s.held()); err != nil {
		return nil, err
	}
	iface, err := a.selectInterface(card)
	if err != nil {
		return nil, err
	}
	extensions, err := a.activeExtensions(card)
	if err != nil {
		return nil, err
	}
	client, err := a.newClient(ctx, card, iface, extensions)
	if err != nil {
		return nil, err
	}
	conn := &connection{card: card, notes: notes, iface: iface, client: client, auth: planAuth(card, a.s.held()), signature: sig}
	a.auth.Store(conn.auth)
	if card.Capabilities.ExtendedAgentCard && a.s.hasCredentials() {
		a.adoptExtendedCard(ctx, conn)
		a.auth.Store(conn.auth)
	}
	conn.notes = append(conn.notes, unknownCredentialNotes(conn.card, a.s.held())...)
	return conn, nil
}

// Subscribe implements Port.
func (a *Adapter) Subscribe(listener func(a2aport.Event)) func() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed || listener == nil {
		return func() {}
	}
	id := a.nextID
	a.nextID++
	a.listeners[id] = listener
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		delete(a.listeners, id)
	}
}

// Status implements Port.
func (a *Adapter) Status(workID, ownerID string) a2aport.Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	if workID == "" {
		st := a2aport.Status{State: a2aport.RuntimeIdle, ActiveWorks: len(a.runs)}
		switch {
		case a.closed:
			st.State = a2aport.RuntimeClosed
		case a.conn != nil:
			st.State, st.Started = a2aport.RuntimeReady, true
		}
		return st
	}
	r, ok := a.runs[workID]
	if !ok || r.work.OwnerID != ownerID {
		return a2aport.Status{State: a2aport.StateNotFound}
	}
	return a2aport.Status{State: r.currentState()}
}

// RespondAuthorization implements Port: A2A has no universal approval semantics, so the adapter
// never guesses them. Authorization requests are answered with RespondInput.
func (a *Adapter) RespondAuthorization(context.Context, string, string, string, a2aport.InputResponse) error {
	return newError(a2aport.CodeAuthorizationUnsupported, "A2A has no universal authorization semantics; answer authorization requests with RespondInput (accept, decline or cancel)")
}

// Close implements Port.
func (a *Adapter) Close() error { return a.shutdown(errClosed) }

// Detach implements Port: it stops the adapter as Close does, but leaves every active Work
// running at the agent and its WorkStore record in place, for Resume in the next adapter (a page
// after its reload, the process after its restart, another node). Pending Submit and Resume
// calls fail with WORK_DETACHED.
func (a *Adapter) Detach() error { return a.shutdown(errDetached) }

// shutdown closes the adapter with cause (errClosed or errDetached).
func (a *Adapter) shutdown(cause error) error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil
	}
	a.closed = true
	runs := make([]*run, 0, len(a.runs))
	for _, r := range a.runs {
		runs = append(runs, r)
	}
	a.listeners = map[int]func(a2aport.Event){}
	a.mu.Unlock()

	// A message on its way gets a moment to name its task: a cancel can then reach it, and a
	// detached Work's record says where to resume it.
	a.awaitTasks(runs)
	a.close(cause)
	a.startMu.Lock()
	if a.stopDiscovery != nil {
		a.stopDiscovery(cause) // a discovery in progress ends now
	}
	a.startMu.Unlock()
	for _, r := range runs {
		r.stop(cause)
	}
	// Submits return once their requests end; their remote cancels are bounded by closeGrace.
	for _, r := range runs {
		_ = park.Wait(context.Background(), r.done) // never fails: the context has no end
	}
	// The in-memory cache goes with the adapter; a persistent store is the caller's to keep.
	if m, ok := a.s.store.(*a2aport.MemoryContextStore); ok {
		m.Clear()
	}
	return nil
}
