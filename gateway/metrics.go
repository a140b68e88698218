package gateway

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/a2aport/a2aport/adapter"
)

// metrics are the gateway's Prometheus metrics, on a registry of its own (GET /metrics).
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec   // by JSON-RPC method (or HTTP path) and status
	latency  *prometheus.HistogramVec // by JSON-RPC method
	streams  prometheus.Gauge         // open streams
	works    *prometheus.CounterVec   // by backend and outcome ("ok" or the error code)
	workTime *prometheus.HistogramVec // by backend
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
	}
	up := prometheus.NewGaugeFunc
	m.registry.MustRegister(m.requests, m.latency, m.streams, m.works, m.workTime)
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

// work counts one Work a backend ended.
func (m *metrics) work(backend string, err error, took time.Duration) {
	m.works.WithLabelValues(backend, outcomeOf(err)).Inc()
	m.workTime.WithLabelValues(backend).Observe(took.Seconds())
}

// outcomeOf names how a Work ended: "ok", or its a2aport error code.
func outcomeOf(err error) string {
	if err == nil {
		return "ok"
	}
	return string(adapter.CodeOf(err))
}
