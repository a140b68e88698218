//go:build a2aport_nolegacy

package a2aclient

import (
	"context"

	"github.com/a2aport/a2aport"
)

// The build without A2A 0.3 (the 1.0-only module) leaves card signatures out too: the JOSE code
// would cost every caller 1.4 MB for an option few set. The hosts load the full module when
// VerifyCard is on, so this build only ever sees it off.

type cardKeySet = struct{}

func validateCardKeys(s *settings) error {
	if s.VerifyCard != a2aport.VerifyCardOff || len(s.CardKeys) > 0 || s.CardKeysFromJKU {
		return newError(a2aport.CodeInvalidOptions, "VerifyCard needs the full build: this one (a2aport_nolegacy, the 1.0-only module) does not verify card signatures")
	}
	return nil
}

func (a *Adapter) checkSignature(context.Context, []byte) (*a2aport.CardSignature, error) {
	return nil, nil
}
