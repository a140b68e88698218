package adapter

// Modes of Options.VerifyCard.
const (
	VerifyCardOff      = "off"
	VerifyCardIfSigned = "if-signed"
	VerifyCardRequired = "required"
)

// CardSignature says how the card in use was checked (Options.VerifyCard).
type CardSignature struct {
	// Status is "verified", or "unsigned" (VerifyCard "if-signed" let an unsigned card through).
	Status    string `json:"status"`
	KeyID     string `json:"keyId,omitempty"`
	Algorithm string `json:"algorithm,omitempty"`
	// Uncovered are members of the card the signature does not cover: @a2a-js/sdk 1.3.0 signs its
	// card object without the security schemes given in its own (ts-proto) form.
	Uncovered []string `json:"uncovered,omitempty"`
}

// validateCardVerification checks VerifyCard and, in a build that verifies, CardKeys.
func validateCardVerification(s *settings) error {
	switch s.VerifyCard {
	case "", VerifyCardOff:
		s.VerifyCard = VerifyCardOff
	case VerifyCardIfSigned, VerifyCardRequired:
	default:
		return newError(CodeInvalidOptions, "VerifyCard must be \"off\", \"if-signed\" or \"required\", got %q", s.VerifyCard)
	}
	return validateCardKeys(s)
}
