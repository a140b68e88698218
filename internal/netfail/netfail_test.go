package netfail

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"

	"github.com/a2aport/a2aport/internal/testkit/refused"
)

type hostSays bool

func (h hostSays) Error() string        { return "fetch failed" }
func (h hostSays) RequestNotSent() bool { return bool(h) }

func TestNotSent(t *testing.T) {
	// A real refused connection: a port nobody listens on.
	addr := refused.Addr(t)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://"+addr+"/", nil)
	_, refusal := http.DefaultTransport.RoundTrip(req)
	if refusal == nil {
		t.Fatal("a request to a closed port succeeded")
	}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"refused", refusal, true},
		{"dns", &net.DNSError{Err: "no such host", Name: "x.invalid"}, true},
		{"reset while reading", &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}, false},
		{"host says not sent", hostSays(true), true},
		{"host does not know", hostSays(false), false},
		{"other", errors.New("unexpected EOF"), false},
	} {
		if got := NotSent(c.err); got != c.want {
			t.Errorf("%s: NotSent(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}
