// Reads an Agent Card the way @a2a-js/sdk's clients do and prints what they made of its security:
// one JSON line {v1, v1compat, v03}, each {schemes, requirements} or {error}. The Go tests run it
// (tests/facadecard_test.go) against cards a2aport serves.
//
//   node js/test/readcard.mjs http://127.0.0.1:PORT
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { A2AClient } from '@a2a-js/sdk-0.3/client';

const base = process.argv[2];
const read = async (f) => {
  try {
    return await f();
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
};
const v1 = (options) => read(async () => {
  const card = await new DefaultAgentCardResolver(options).resolve(base);
  return { schemes: card.securitySchemes, requirements: card.securityRequirements };
});
const out = {
  v1: await v1(),
  v1compat: await v1({ legacyCompat: { enabled: true } }),
  v03: await read(async () => {
    const card = await (await A2AClient.fromCardUrl(`${base}/.well-known/agent-card.json`)).getAgentCard();
    return { schemes: card.securitySchemes, requirements: card.security };
  }),
};
process.stdout.write(JSON.stringify(out) + '\n');
