package gateway

import (
	"net/http/httptest"
	"testing"

	"github.com/a2aport/a2aport/facade"
)

// TestOperationLabels: a request's metric label is its A2A operation, or a name from a closed set
// for the card, its key set and anything else; never the path a caller sent.
func TestOperationLabels(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{facade.CardPath: "card", facade.CardKeysPath: "card-keys", "/a2a": "other", "/%ff/nope": "other"} {
		if got := operationLabel(httptest.NewRequest("GET", "http://gw.example"+path, nil), &facade.Call{}); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	if got := operationLabel(httptest.NewRequest("POST", "http://gw.example/a2a", nil), &facade.Call{Operation: "GetTask"}); got != "GetTask" {
		t.Errorf("an operation: %q", got)
	}
}
