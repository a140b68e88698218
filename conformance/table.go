package conformance

//go:generate go run ../internal/jsgen -checks checks.json -o ../js/src/conformance/checks.js

import (
	_ "embed"
	"encoding/json"
	"time"

	"github.com/a2aport/a2aport"
)

// checks.json is the one list of the contract's checks, shared with the JS runner (go generate
// writes it into js/src/conformance/checks.js): their names, order, what each asserts, and the
// contract's values both runners assert.
//
//go:embed checks.json
var tableJSON []byte

// table is checks.json.
type table struct {
	Constants struct {
		InvalidWorkMessage   string   `json:"invalidWorkMessage"`
		AlreadyActiveMessage string   `json:"alreadyActiveMessage"`
		ActiveStates         []string `json:"activeStates"`
		EventTypes           []string `json:"eventTypes"`
		WaitTimeoutMs        int      `json:"waitTimeoutMs"`
		CloseTimeoutMs       int      `json:"closeTimeoutMs"`
	} `json:"constants"`
	Groups []struct {
		Name     string `json:"name"`
		Contract string `json:"contract"`
		Checks   []struct {
			Name     string `json:"name"`
			Contract string `json:"contract"`
		} `json:"checks"`
	} `json:"groups"`
}

// contract is checks.json, read once: a malformed table is a bug of this package, caught by its
// own tests.
var contract = func() table {
	var t table
	if err := json.Unmarshal(tableJSON, &t); err != nil {
		panic("conformance: checks.json: " + err.Error())
	}
	return t
}()

// The contract's values, from the table.
var (
	invalidWorkMessage   = contract.Constants.InvalidWorkMessage
	alreadyActiveMessage = contract.Constants.AlreadyActiveMessage
	activeStates         = workStates(contract.Constants.ActiveStates)
	eventTypes           = contract.Constants.EventTypes
	// waitTimeout bounds every check: each wait inside a check shares one context with this deadline.
	waitTimeout = time.Duration(contract.Constants.WaitTimeoutMs) * time.Millisecond
	// closeTimeout bounds one Close or Detach call (best-effort remote cancel within a bounded time).
	closeTimeout = time.Duration(contract.Constants.CloseTimeoutMs) * time.Millisecond
)

func workStates(names []string) []a2aport.WorkState {
	out := make([]a2aport.WorkState, len(names))
	for i, n := range names {
		out[i] = a2aport.WorkState(n)
	}
	return out
}
