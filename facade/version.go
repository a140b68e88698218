package facade

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/errordetails"
	"golang.org/x/mod/semver"
)

// The versions the facade serves, as the A2A-Version header names them (major.minor).
const (
	version10 = "1.0"
	version03 = "0.3"
)

// requestedVersion is the major.minor an A2A-Version header asks for ("" when there is none; the
// value itself when it is not a version).
func requestedVersion(r *http.Request) string {
	v := strings.TrimSpace(r.Header.Get(a2a.SvcParamVersion))
	if v == "" {
		return ""
	}
	if mm := semver.MajorMinor("v" + strings.TrimPrefix(v, "v")); mm != "" {
		return strings.TrimPrefix(mm, "v")
	}
	return v
}

// byVersion serves one JSON-RPC endpoint for both versions, as A2A 1.0 asks of a server: the
// A2A-Version header chooses, and a request without one is 0.3's (clients of 0.3 send none).
func byVersion(v10, v03 http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch requestedVersion(r) {
		case version10:
			v10.ServeHTTP(w, r)
		case version03, "":
			v03.ServeHTTP(w, r)
		default:
			versionNotSupported(w, r, true)
		}
	})
}

// onlyVersion serves a version's own path: a request without A2A-Version is that version's, one
// that names another is refused rather than run as this one.
func onlyVersion(version string, rpc bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := requestedVersion(r); v != "" && v != version {
			versionNotSupported(w, r, rpc)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// versionNotSupported answers with A2A's VersionNotSupportedError: JSON-RPC's -32009 with the
// request's id, or HTTP+JSON's 400 FAILED_PRECONDITION, each naming the versions served.
func versionNotSupported(w http.ResponseWriter, r *http.Request, rpc bool) {
	message := "A2A-Version " + r.Header.Get(a2a.SvcParamVersion) + " is not supported: this agent serves " + version10 + " and " + version03
	info := errordetails.NewErrorInfo(a2a.ErrorReason(a2a.ErrVersionNotSupported), a2a.ProtocolDomain, map[string]string{"supportedVersions": version10 + "," + version03})
	var body any
	status := http.StatusBadRequest
	if rpc {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req) // admitted and bounded already; no id: null
		id := req.ID
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		status = http.StatusOK
		body = map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32009, "message": message, "data": []any{info}}}
	} else {
		body = map[string]any{"error": map[string]any{"code": status, "status": "FAILED_PRECONDITION", "message": message, "details": []any{info}}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body) // the client may be gone; nothing more to do
}
