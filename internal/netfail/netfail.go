// Package netfail tells a request that never left from one whose fate is unknown, for the
// adapter (natively) and the Go host (for the module) alike.
//
//	if netfail.NotSent(err) {
//		// the connection was never made: sending again cannot duplicate anything
//	}
package netfail

import (
	"errors"
	"net"
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
