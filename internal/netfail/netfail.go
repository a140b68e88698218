// Package netfail tells a request that never left from one whose fate is unknown, for the
// adapter (natively) and the Go host (for the module) alike.
//
//	if netfail.NotSent(err) {
//		// the connection was never made: sending again cannot duplicate anything
//	}
package netfail

import (
	"errors"
	"io"
	"net"
	"syscall"
)

// NotSent reports whether err says the request never reached the network: the connection was
// never made (a dial or name resolution error), or an error that says so itself through a
// RequestNotSent method (the module's view of a failure its host classified).
func NotSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var unsent interface{ RequestNotSent() bool }
	return errors.As(err, &unsent) && unsent.RequestNotSent()
}

// Broken reports whether err says a connection was made and broke before the answer was whole
// (reset, closed by the other side): the server was there, and a request that changes nothing may
// get through when made again. A failure that says no more than that it failed (a browser's
// "Failed to fetch") is not taken for one.
func Broken(err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var broken interface{ RequestBroken() bool }
	return errors.As(err, &broken) && broken.RequestBroken()
}

// Blocked reports whether err says a browser refused the request for the page's origin (CORS):
// the request was not sent, and sending it again is refused the same way until the agent's server
// allows the origin.
func Blocked(err error) bool {
	var blocked interface{ RequestBlocked() bool }
	return errors.As(err, &blocked) && blocked.RequestBlocked()
}

// Redirect is a redirect a client did not follow: the server answered with it (so the request ran
// nowhere), and nothing was sent where it points. A browser host reports one it may not look at
// (Status 0, no Location).
type Redirect struct {
	Status   int    // the redirect's HTTP status (0: hidden by the browser)
	Location string // where it pointed, redacted ("": hidden)
	Why      string // why it was not followed
}

func (e *Redirect) Error() string {
	if e.Location == "" {
		return "the agent answered with a redirect, which a browser does not let a2aport see; a request that carries credentials follows none"
	}
	return "the agent redirected the request to " + e.Location + ", which a2aport does not follow (" + e.Why + "); nothing was sent there"
}
