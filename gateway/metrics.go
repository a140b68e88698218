package gateway

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/a2aport/a2aport"
)

// metrics are the gateway's Prometheus metrics, on a registry of its own (GET /metrics).
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec   // by JSON-RPC method (or HTTP path) and status
	latency  *prometheus.HistogramVec // by JSON-RPC method
	streams  prometheus.Gauge         // open streams
	works    *prometheus.CounterVec   // by backend and outcome ("ok" or the error code)
	workTime *prometheus.HistogramVec // by backend
	// resumed are the Works this process took on that another started (a takeover, a cancel or
	// an answer that reached this node), by backend and how they ended.
	resumed *prometheus.CounterVec
	// transitions are the backends' changes of state, by backend and the state they entered.
	transitions *prometheus.CounterVec
	// rateLimited are the requests refused over a rate limit, by scope (caller, backend) and
	// backend (scope backend only: callers are not a closed set).
	rateLimited *prometheus.CounterVec
	push        *prometheus.CounterVec // push notifications, by outcome
}

func newMetrics(g *Gateway) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "a2aport_gateway_requests_total", Help: "A2A requests, by method and HTTP status."}, []string{"method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "a2aport_gateway_request_seconds", Help: "Time to answer a request (a stream: until it ended), by method.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10)}, []string{"method"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Name: "a2aport_gateway_open_streams", Help: "Streams open now."}),
		works:   prometheus.NewCounterVec(prometheus.CounterOpts{Name: "a2aport_gateway_works_total", Help: "Works ended, by backend and outcome (ok or the a2aport error code)."}, []string{"backend", "outcome"}),
		workTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "a2aport_gateway_backend_work_seconds", Help: "How long a backend took over a Work, by backend.",
			Buckets: prometheus.ExponentialBuckets(0.005, 4, 10)}, []string{"backend"}),
		resumed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "a2aport_gateway_works_resumed_total",
			Help: "Works another node started that this one resumed (taken over, or reached by a cancel or an answer), by backend and how they ended here (ok, the a2aport error code)."}, []string{"backend", "outcome"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "a2aport_gateway_backend_transitions_total",
			Help: "Changes of a backend's state, by backend and the state it entered (available, unavailable)."}, []string{"backend", "state"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "a2aport_gateway_rate_limited_total",
			Help: "Requests refused over a rate limit (429), by scope (caller or backend) and backend."}, []string{"scope", "backend"}),
		push: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "a2aport_gateway_push_total",
			Help: "Push notifications, by outcome (delivered, retried, failed, refused, dropped; in a cluster adopted, unsaved)."}, []string{"outcome"}),
	}
	up := prometheus.NewGaugeFunc
	m.registry.MustRegister(m.requests, m.latency, m.streams, m.works, m.workTime, m.resumed, m.transitions, m.rateLimited, m.push,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, name := range g.order {
		b := g.backends[name]
		m.registry.MustRegister(up(prometheus.GaugeOpts{Name: "a2aport_gateway_backend_available", Help: "1 while the backend is available.",
			ConstLabels: prometheus.Labels{"backend": name}}, func() float64 {
			if b.available() {
				return 1
			}
			return 0
		}))
	}
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// request counts one answered request.
func (m *metrics) request(method string, status int, took time.Duration) {
	m.requests.WithLabelValues(method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(method).Observe(took.Seconds())
}

// ended counts and logs a Work that ended on backend in this process (resumed: one another node
// started), and takes the backend out at once when its connection could not be made.
func (g *Gateway) ended(backend, workID string, err error, took time.Duration, resumed bool) {
	outcome := outcomeOf(err)
	if resumed {
		g.metrics.resumed.WithLabelValues(backend, outcome).Inc()
		g.opts.Logger.Info("resumed work ended", "backend", backend, "task", workID, "outcome", outcome)
	} else {
		g.metrics.works.WithLabelValues(backend, outcome).Inc()
		g.metrics.workTime.WithLabelValues(backend).Observe(took.Seconds())
	}
	if log := g.opts.AccessLog; log != nil {
		log.Info("work", "backend", backend, "task", workID, "outcome", outcome, "duration_ms", took.Milliseconds())
	}
	if err != nil && forCaller(backend, err) != err { // the caller got the gateway's words: the details are here
		g.opts.Logger.Warn("work failed at its backend", "backend", backend, "task", workID, "outcome", outcome, "error", printable(err.Error(), maxLoggedReason))
	}
	if b := g.backends[backend]; b != nil && unreachable(err) {
		g.lost(b, err)
	}
}

// outcomeOf names how a Work ended: "ok", or its a2aport error code.
func outcomeOf(err error) string {
	if err == nil {
		return "ok"
	}
	return string(a2aport.CodeOf(err))
}
