package facade

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
)

// Card caching, as A2A asks of a server (§8.6.1: Cache-Control with max-age, ETag, Last-Modified):
// the card's bytes name their version (ETag), the time they last changed is Last-Modified, and a
// client that has them already gets 304.
const (
	// CardMaxAge is how long a client may keep a card that does not change.
	CardMaxAge = 5 * time.Minute
	// LiveCardMaxAge is how long a client may keep a card whose skills change (LiveSkills).
	LiveCardMaxAge = 30 * time.Second
)

// cacheableCard serves next's card (GET, HEAD) with its validators and answers conditional requests.
func cacheableCard(next http.Handler, maxAge time.Duration) http.Handler {
	var mu sync.Mutex
	var etag string
	var modified time.Time
	cacheControl := "public, max-age=" + strconv.Itoa(int(maxAge/time.Second))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		rec := &cardRecorder{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, get)
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		if rec.status != http.StatusOK {
			w.WriteHeader(rec.status)
			_, _ = w.Write(rec.body.Bytes()) // the client may be gone
			return
		}
		sum := sha256.Sum256(rec.body.Bytes())
		tag := `"` + hex.EncodeToString(sum[:16]) + `"`
		mu.Lock()
		if tag != etag {
			etag, modified = tag, time.Now().UTC().Truncate(time.Second)
		}
		lastModified := modified
		mu.Unlock()
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", cacheControl)
		http.ServeContent(w, r, "", lastModified, bytes.NewReader(rec.body.Bytes()))
	})
}

// cardRecorder keeps what the card handler wrote.
type cardRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *cardRecorder) Header() http.Header         { return c.header }
func (c *cardRecorder) WriteHeader(status int)      { c.status = status }
func (c *cardRecorder) Write(b []byte) (int, error) { return c.body.Write(b) }

// programVersion is the card's version when Options.Version is not set: the program's module
// version, else its commit, else "dev".
func programVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "dev-" + s.Value[:12]
		}
	}
	return "dev"
}
