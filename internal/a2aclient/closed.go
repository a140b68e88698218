package a2aclient

import "github.com/a2aport/a2aport"

//go:generate go run ../jsgen -closed ../../js/src/closed.js

// The answers of a closed adapter, which the hosts of the module give too once it is gone.

// ClosedError is the error every call of a closed adapter fails with, natively and through the
// module alike.
func ClosedError() *a2aport.Error {
	return newError(a2aport.CodeAdapterClosed, "the adapter is closed")
}

// ClosedPort returns a Port that answers every call as a closed Adapter does, for a host whose
// adapter is gone (its module instance released): the adapter is the one owner of those answers,
// and the JS package's are generated from this Port (js/src/closed.js, by internal/jsgen).
// Describe gives only the protocol and label; Close and Detach do nothing.
func ClosedPort(label string) a2aport.Port {
	return &Adapter{s: &settings{Options: a2aport.Options{Label: label}}, closed: true,
		runs: map[string]*run{}, listeners: map[int]func(a2aport.Event){}}
}
