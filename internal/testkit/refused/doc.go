// Package refused gives tests an address on loopback where a connection is refused, for as long
// as the test runs.
//
// Closing a listener to get such an address is a race: the kernel may hand the same port to the
// next listener another parallel test opens, and the "refused" request then reaches that test's
// server (a 404 where a refusal was wanted). Addr instead binds a socket to the port without
// listening on it, so the port stays taken and every connection to it is refused.
//
//	addr := refused.Addr(t) // "127.0.0.1:41234"
//	_, err := http.Get("http://" + addr + "/") // connection refused
package refused
