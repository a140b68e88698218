package facade

// A card the facade vouches for (A2A 1.0 §8.4). A gateway rewrites its card (its own URL, its
// backends' skills), so no backend's signature survives it; with CardSigning the facade signs the
// card it serves with the operator's key, and a caller that verifies it (a2aport's VerifyCard,
// @a2a-js/sdk's verifyAgentCardSignature) knows the card is the operator's, untouched on the way.

import (
	"bytes"
	"context"
	"crypto"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport/internal/cardsig"
)

// CardKeysPath is where below BaseURL the facade publishes its card signing key, as a JWK Set,
// when CardSigning.JKU is empty.
const CardKeysPath = "/.well-known/a2aport-card-keys.json"

// CardSigning signs every card the facade serves: the card, the live card of LiveSkills as it is
// built for each request, and the extended card of ExtendedSkills. Each signature is a JWS whose payload is the RFC 8785 canonical
// JSON of the card as served without its "signatures", with alg, kid, typ and jku in its
// protected header; a second one covers the card as @a2a-js/sdk canonicalizes it (its A2A 1.0
// members alone), which that SDK's verifier needs (internal/cardsig.Signer.Sign says why).
type CardSigning struct {
	// Key is the private key (ParseCardKey reads one from PEM): EC P-256, P-384 or P-521, Ed25519,
	// or RSA of 2048 bits or more; any crypto.Signer of one, such as a KMS key's.
	Key crypto.Signer
	// KeyID is the signatures' kid ("": the key's RFC 7638 thumbprint).
	KeyID string
	// Algorithm is the JWS algorithm ("": ES256, ES384 or ES512 by the curve, EdDSA for
	// Ed25519, RS256 for RSA; PS256, PS384, PS512, RS384 and RS512 are taken for RSA). A key
	// that does not fit it is an error of New.
	Algorithm string
	// JKU is the URL of the JWK Set that holds the public key, named in each signature ("": the
	// facade publishes the key itself at BaseURL + CardKeysPath, GET, cacheable, readable by any
	// page, and names that URL).
	JKU string
}

// ParseCardKey reads a PEM private key for CardSigning.Key: PKCS #8 ("PRIVATE KEY"), SEC 1 ("EC
// PRIVATE KEY") or PKCS #1 ("RSA PRIVATE KEY"), not encrypted. Its errors never quote the text.
func ParseCardKey(pemText []byte) (crypto.Signer, error) {
	return cardsig.ParsePrivateKey(pemText)
}

// cardSigner signs the cards of one facade; a nil one signs nothing.
type cardSigner struct {
	signer *cardsig.Signer
	keys   []byte // the JWK Set the facade publishes (nil: CardSigning.JKU names another)

	// The last card signed and its signed bytes: a live card whose skills did not change is
	// served with the same bytes, so its ETag holds (ECDSA and RSA-PSS signatures differ each time).
	mu               sync.Mutex
	unsigned, signed []byte
}

func newCardSigner(o *CardSigning, root string) (*cardSigner, error) {
	if o == nil {
		return nil, nil
	}
	jku := o.JKU
	if jku == "" {
		jku = root + CardKeysPath
	}
	signer, err := cardsig.NewSigner(o.Key, o.Algorithm, o.KeyID, jku)
	if err != nil {
		return nil, fmt.Errorf("facade: CardSigning: %w", err)
	}
	s := &cardSigner{signer: signer}
	if o.JKU == "" {
		s.keys = signer.KeySet()
	}
	return s, nil
}

// serve returns producer with its cards signed (the card of a static producer once, here), and
// publishes the key set on mux.
func (s *cardSigner) serve(mux *http.ServeMux, producer a2asrv.AgentCardProducer) (a2asrv.AgentCardProducer, error) {
	if s == nil {
		return producer, nil
	}
	if s.keys != nil {
		mux.Handle("GET "+CardKeysPath, cacheableCard(http.HandlerFunc(s.serveKeys), CardMaxAge))
	}
	if static, ok := producer.(cardJSON); ok {
		signed, err := s.sign(static.json)
		if err != nil {
			return nil, err
		}
		return cardJSON{card: static.card, json: signed}, nil
	}
	jsonProducer, ok := producer.(cardBytesProducer)
	if !ok {
		return nil, fmt.Errorf("facade: a %T card gives no JSON to sign", producer)
	}
	return signedCard{next: jsonProducer, signer: s}, nil
}

func (s *cardSigner) sign(unsigned []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signed != nil && bytes.Equal(unsigned, s.unsigned) {
		return s.signed, nil
	}
	signed, err := s.signer.Sign(unsigned)
	if err != nil {
		return nil, fmt.Errorf("facade: signing the card: %w", err)
	}
	s.unsigned, s.signed = unsigned, signed
	return signed, nil
}

// serveKeys answers with the JWK Set. Like the card, any page may read it: it is public, and a
// verifier in a browser fetches it from the card's origin.
func (s *cardSigner) serveKeys(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if origin := r.Header.Get("Origin"); origin != "" {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Add("Vary", "Origin")
	} else {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	h.Set("Content-Type", "application/jwk-set+json")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(s.keys) // the client may be gone
}

// cardBytesProducer is a card producer that writes the card's JSON itself (liveCard).
type cardBytesProducer interface {
	a2asrv.AgentCardProducer
	a2asrv.AgentCardJSONProducer
}

// signedCard signs the JSON of the card next makes on each request. Card, which a2asrv's card
// handler does not ask for when there is JSON, is next's, unsigned.
type signedCard struct {
	next   cardBytesProducer
	signer *cardSigner
}

func (c signedCard) Card(ctx context.Context) (*a2a.AgentCard, error) { return c.next.Card(ctx) }

func (c signedCard) CardJSON(ctx context.Context) ([]byte, error) {
	unsigned, err := c.next.CardJSON(ctx)
	if err != nil {
		return nil, err
	}
	return c.signer.sign(unsigned)
}

// extended returns next with the extended cards it makes signed; a nil s: next.
func (s *cardSigner) extended(next a2asrv.ExtendedAgentCardProducer) a2asrv.ExtendedAgentCardProducer {
	if s == nil {
		return next
	}
	return signedExtendedCard{next: next, signer: s.signer}
}

// signedExtendedCard signs the extended card of each request. a2a-go writes it for A2A 1.0 as
// encoding/json writes a2a.AgentCard, and for 0.3 as it writes a2av0.FromV1AgentCard's, each
// with the card's signatures: the card carries the signatures of both (and the one @a2a-js/sdk
// needs), so that a reader of either version finds one over the card as it received it.
type signedExtendedCard struct {
	next   a2asrv.ExtendedAgentCardProducer
	signer *cardsig.Signer
}

func (c signedExtendedCard) ExtendedCard(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	card, err := c.next.ExtendedCard(ctx, req)
	if err != nil || card == nil {
		return card, err
	}
	signed := *card
	signed.Signatures = nil
	var sigs []a2a.AgentCardSignature
	for i, written := range []any{&signed, a2av0.FromV1AgentCard(&signed)} {
		data, err := json.Marshal(written)
		if err != nil {
			return nil, fmt.Errorf("facade: the extended card: %w", err)
		}
		jws, err := c.signer.Signatures(data)
		if err != nil {
			return nil, fmt.Errorf("facade: signing the extended card: %w", err)
		}
		if i == 1 {
			jws = jws[:1] // the 0.3 card as written; @a2a-js/sdk's form is the 1.0 card's
		}
		for _, j := range jws {
			sigs = append(sigs, a2a.AgentCardSignature{Protected: j.Protected, Signature: j.Signature})
		}
	}
	signed.Signatures = sigs
	return &signed, nil
}
