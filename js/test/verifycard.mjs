// Verifies Agent Cards with @a2a-js/sdk 1.3.0's own verifier (verifyAgentCardSignature), each
// signature's key fetched from the JWK Set its jku names, then copies of each card with one member
// changed. Prints one JSON line: for each card URL {verified, error?, kid?, tampered: {what:
// "refused" | "accepted"}}. The Go tests run it (tests/cardsign_test.go) against the cards
// a2aport's facade signs: an implementation a2aport did not write checks a2aport's signatures.
//
//   node js/test/verifycard.mjs CARD_URL...
import * as jose from 'jose';
import { verifyAgentCardSignature } from '@a2a-js/sdk';

// The verifier logs every signature that does not verify with console.debug, on stdout: the
// served form's signature, which this SDK does not read, always does.
console.debug = () => {};

const keysUsed = [];
const verify = verifyAgentCardSignature(async (kid, jku) => {
  if (!jku) throw new Error(`signature by ${kid} names no jku`);
  const res = await fetch(jku);
  if (!res.ok) throw new Error(`jku ${jku}: HTTP ${res.status}`);
  const jwk = (await res.json()).keys?.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`jku ${jku} has no key ${kid}`);
  keysUsed.push(kid);
  return jose.importJWK(jwk, jwk.alg);
});

const tampers = {
  skill: (c) => { c.skills[0].description += ' (and your files)'; },
  interfaceUrl: (c) => { c.supportedInterfaces[0].url = 'http://evil.example/a2a'; },
  name: (c) => { c.name += ' (evil)'; },
  // A member of 0.3 alone: not in the SDK's canonical form, so not covered by what it verifies.
  url03: (c) => { c.url = 'http://evil.example/a2a'; },
};

const out = {};
for (const url of process.argv.slice(2)) {
  const result = { tampered: {} };
  try {
    const card = await (await fetch(url)).json();
    keysUsed.length = 0;
    await verify(card);
    result.verified = true;
    result.kid = keysUsed.at(-1);
    for (const [what, tamper] of Object.entries(tampers)) {
      const copy = structuredClone(card);
      tamper(copy);
      result.tampered[what] = await verify(copy).then(() => 'accepted', () => 'refused');
    }
  } catch (err) {
    result.verified = false;
    result.error = String(err?.message ?? err);
  }
  out[url] = result;
}
process.stdout.write(JSON.stringify(out) + '\n');
