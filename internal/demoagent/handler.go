package demoagent

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport/internal/a2asrvx"
	"github.com/a2aport/a2aport/internal/cors"
)

// Paths of the agent's cards, below the base URL it is served at.
const (
	CardPath     = cardPath     // A2A 1.0: JSON-RPC first, then HTTP+JSON
	RESTCardPath = restCardPath // A2A 1.0: HTTP+JSON only
	V03CardPath  = v03CardPath  // A2A 0.3: JSON-RPC
)

// Server limits.
const (
	maxRequestBytes = 32 << 20 // a message with attachments of up to about 20 MB (base64 in JSON)
	tasksPerTier    = 256      // see recentStore
)

// Paths are every path the handler serves (the cards and the endpoints), for a mux that serves
// other things too; a path ending in "/" is a prefix.
var Paths = []string{cardPath, restCardPath, v03CardPath, jsonrpcPath, restPath + "/", v03RPCPath}

// Options tune the agent; the zero value is the demo's.
type Options struct {
	// Pace is the pause before each chunk of a report (DefaultPace), LongPace that of a long
	// ("slow") one (DefaultLongPace): tests make them short.
	Pace, LongPace time.Duration
	// Stopping, once closed, makes running tasks fail ("shutting down") so that their streams end.
	Stopping <-chan struct{}
	// Logger logs the server's warnings (nil: nothing).
	Logger *slog.Logger
}

// Handler serves the agent at baseURL (its cards name their endpoints there): every one of Paths,
// each allowing cross-origin calls as a public agent would.
func Handler(baseURL string, opts Options) http.Handler {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	handler := a2asrvx.Patient(a2asrv.NewHandler(newDemoAgent(opts.Stopping, opts.Pace, opts.LongPace),
		a2asrv.WithTaskStore(newRecentStore(tasksPerTier)),
		a2asrv.WithCapabilityChecks(&demoCard().Capabilities),
		a2asrv.WithLogger(logger),
	))
	endpoint := func(h http.Handler) http.Handler {
		return cors.AllowAny(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, maxRequestBytes)
			h.ServeHTTP(w, r)
		}))
	}
	mux := http.NewServeMux()
	for p, h := range cardHandlers(baseURL) {
		mux.Handle(p, cors.AllowAny(h))
	}
	mux.Handle(jsonrpcPath, endpoint(a2asrv.NewJSONRPCHandler(handler)))
	mux.Handle(restPath+"/", endpoint(http.StripPrefix(restPath, a2asrv.NewRESTHandler(handler))))
	mux.Handle(v03RPCPath, endpoint(a2av0.NewJSONRPCHandler(handler)))
	return mux
}
