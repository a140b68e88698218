package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"time"
)

// BackendStatus is one backend as GET /backends shows it. It never holds a credential: the card
// URL is shown without its user info, query and fragment.
type BackendStatus struct {
	Name            string   `json:"name"`
	State           string   `json:"state"`
	Reason          string   `json:"reason,omitempty"`
	CardURL         string   `json:"cardUrl,omitempty"`
	ProtocolVersion string   `json:"protocolVersion,omitempty"`
	Binding         string   `json:"binding,omitempty"`
	Skills          []string `json:"skills"`
}

// Backends reports every backend of the catalogue, in its order.
func (g *Gateway) Backends() []BackendStatus {
	skills := map[string][]string{}
	for _, s := range g.skills() {
		name := s.Tags[len(s.Tags)-1] // skills() tags each with its backend last
		skills[name] = append(skills[name], s.ID)
	}
	out := make([]BackendStatus, 0, len(g.order))
	for _, name := range g.order {
		b := g.backends[name]
		b.mu.Lock()
		st := BackendStatus{Name: name, State: b.state, Reason: b.reason, CardURL: withoutSecrets(b.spec.CardURL), Skills: skills[name]}
		b.mu.Unlock()
		if st.State == StateAvailable {
			d := b.spec.Port.Describe()
			st.ProtocolVersion, st.Binding = d.ProtocolVersion, d.Transport
		}
		if st.Skills == nil {
			st.Skills = []string{}
		}
		out = append(out, st)
	}
	return out
}

func (g *Gateway) serveBackends(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"backends": g.Backends()}) // the client may be gone
}

// serveReady answers 200 while any backend is available and Ready says so, else 503 (also while
// the gateway drains); detail says why (the Ready error may name the database's address).
func (g *Gateway) serveReady(w http.ResponseWriter, r *http.Request, detail bool) {
	if g.Draining() {
		http.Error(w, "draining: this node is stopping", http.StatusServiceUnavailable)
		return
	}
	if len(g.availableNames()) == 0 {
		http.Error(w, "no backend is available", http.StatusServiceUnavailable)
		return
	}
	if g.opts.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := g.opts.Ready(ctx); err != nil {
			why := "not ready: the store the cluster shares does not answer"
			if detail {
				why += ": " + scrubURLs(err.Error())
			}
			http.Error(w, why, http.StatusServiceUnavailable)
			return
		}
	}
	_, _ = w.Write([]byte("ready\n"))
}

// urlsIn finds the URLs in a message (up to a quote, a space or the end).
var urlsIn = regexp.MustCompile(`https?://[^\s"'<>]+`)

// scrubURLs removes from every URL in a message the parts that may carry a secret: an error
// names the URL it failed on, and a card URL may hold a key in its query.
func scrubURLs(msg string) string {
	return urlsIn.ReplaceAllStringFunc(msg, withoutSecrets)
}

// withoutSecrets is a URL without the parts that may carry a secret.
func withoutSecrets(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return ""
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
