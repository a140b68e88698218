package facade

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/a2aport/a2aport/internal/cardsig"
)

// Signed push notifications (PushOptions.Sign). A webhook's token says a push came from whoever
// knows the token, which the caller that registered the webhook chose; a signature says it came
// from this facade, unchanged: a JWT in PushSignatureHeader, signed with CardSigning's key and
// verifiable with the key the facade publishes (its jku), whose claims bind it to the body it came
// with, to the webhook it was sent to and to a few minutes (PushVerifier checks all of it).
const PushSignatureHeader = "X-A2A-Notification-Signature"

// pushTokenLife is how long a push's signature is good for: a retry is signed again.
const pushTokenLife = 5 * time.Minute

// pushClaims are a push signature's claims.
type pushClaims struct {
	Issuer   string `json:"iss"` // the facade's BaseURL
	Audience string `json:"aud"` // the webhook's URL
	IssuedAt int64  `json:"iat"`
	Expires  int64  `json:"exp"`
	ID       string `json:"jti"` // unique: a receiver refuses one it saw
	// BodySHA256 is the hex SHA-256 of the body the push carries.
	BodySHA256 string `json:"request_body_sha256"`
	// PushID is the delivery's id (PushIDHeader): signed, so that the id a receiver drops repeats
	// by is the facade's, not one changed on the way.
	PushID string `json:"push_id"`
}

// pushSigner signs the pushes of one facade.
type pushSigner struct {
	signer *cardsig.Signer
	issuer string
	now    func() time.Time
}

// newPushSigner is nil when pushes are not signed; an error when they should be and nothing can sign them.
func newPushSigner(sign bool, cards *cardSigner, issuer string) (*pushSigner, error) {
	if !sign {
		return nil, nil
	}
	if cards == nil {
		return nil, errors.New("facade: Push.Sign needs CardSigning: pushes are signed with the card's key, which the facade publishes")
	}
	return &pushSigner{signer: cards.signer, issuer: issuer, now: time.Now}, nil
}

// token is the signature of one attempt to send body to webhook, as the delivery pushID.
func (s *pushSigner) token(webhook string, body []byte, pushID string) (string, error) {
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", err
	}
	sum := sha256.Sum256(body)
	now := s.now()
	claims, err := json.Marshal(pushClaims{Issuer: s.issuer, Audience: webhook, IssuedAt: now.Unix(), Expires: now.Add(pushTokenLife).Unix(),
		ID: hex.EncodeToString(id[:]), BodySHA256: hex.EncodeToString(sum[:]), PushID: pushID})
	if err != nil {
		return "", err
	}
	return s.signer.Token(claims)
}
