package a2aclient

import "github.com/a2aport/a2aport"

// validateCardVerification checks VerifyCard and, in a build that verifies, CardKeys.
func validateCardVerification(s *settings) error {
	switch s.VerifyCard {
	case "", a2aport.VerifyCardOff:
		s.VerifyCard = a2aport.VerifyCardOff
	case a2aport.VerifyCardIfSigned, a2aport.VerifyCardRequired:
	default:
		return newError(a2aport.CodeInvalidOptions, "VerifyCard must be \"off\", \"if-signed\" or \"required\", got %q", s.VerifyCard)
	}
	return validateCardKeys(s)
}
