// Package cardsig verifies the JWS signatures of an A2A Agent Card (A2A 1.0 §8.4): each signature
// covers the RFC 8785 canonical JSON of the card without its "signatures" member.
//
// Signers disagree on what "the card" is before canonicalization, so a signature is checked
// against each form a known signer produces from the same card:
//
//   - as received: the card as its signer serialized it (the specification's reading);
//
//   - cleaned: empty strings, lists and objects dropped (@a2a-js/sdk and the Python SDK), and
//     ts-proto oneof objects ({"$case": ...}) left out, as @a2a-js/sdk 1.3.0's signer leaves them
//     out: those members are then named in Result.Uncovered, since the signature does not cover them.
//
//     res, err := cardsig.Verify(ctx, cardBytes, cardsig.Keys{Set: trusted})
//     if err != nil {
//     // no signature verifies (or the card has none): *cardsig.Error
//     }
//     _ = res.KeyID
package cardsig
