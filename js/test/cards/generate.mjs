// Writes Agent Cards as @a2a-js/sdk 1.3.0 really emits them into internal/a2aclient/testdata/cards, the corpus
// the Go card tests read: its canonical AgentCard.toJSON, and the bytes its own Express card handler
// serves for A2A 1.0 and, through its compat layer, 0.3; and the bytes @a2a-js/sdk 0.3.14 (the
// last 0.3 release, installed as @a2a-js/sdk-0.3) serves for a 0.3 card. And cards signed by the
// SDK's own signing code (generateAgentCardSignature, ES256, RS256 and EdDSA keys made for the run,
// their public halves in signing-keys.jwks.json). Run from js/ after npm install:
//   node test/cards/generate.mjs
import { writeFileSync } from 'node:fs';
import express from 'express';
import * as jose from 'jose';
import { AgentCard, generateAgentCardSignature } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler } from '@a2a-js/sdk/server/express';
import { DefaultRequestHandler as LegacyRequestHandler, InMemoryTaskStore as LegacyTaskStore } from '@a2a-js/sdk-0.3/server';
import { agentCardHandler as legacyCardHandler } from '@a2a-js/sdk-0.3/server/express';

const out = new URL('../../../internal/a2aclient/testdata/cards/', import.meta.url);

// Every field filled, every security scheme kind, requirements with and without scopes.
const full = AgentCard.fromJSON({
  name: 'full card', description: 'every field the SDK writes', version: '1.3.0',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:1/a2a/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: 'acme' },
    { url: 'http://127.0.0.1:1/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  provider: { url: 'https://provider.example', organization: 'Example' },
  documentationUrl: 'https://docs.example', iconUrl: 'https://icon.example/i.png',
  capabilities: {
    streaming: true, pushNotifications: true, extendedAgentCard: true,
    extensions: [{ uri: 'https://ext.example/v1', description: 'an extension', required: false, params: { level: 2 } }],
  },
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT', description: 'a token' } },
    basic: { httpAuthSecurityScheme: { scheme: 'Basic' } },
    key: { apiKeySecurityScheme: { location: 'query', name: 'api_key', description: 'a key' } },
    oauth: {
      oauth2SecurityScheme: {
        oauth2MetadataUrl: 'https://auth.example/.well-known/oauth-authorization-server',
        flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', refreshUrl: 'https://auth.example/refresh', scopes: { read: 'read things' } } },
      },
    },
    oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration' } },
    mtls: { mtlsSecurityScheme: { description: 'client certificate' } },
  },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { oauth: { list: ['read'] }, key: { list: [] } } }],
  defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain', 'text/markdown'],
  skills: [{
    id: 'report', name: 'report', description: 'writes reports', tags: ['docs'], examples: ['a report on tides'],
    inputModes: ['text/plain'], outputModes: ['text/markdown'], securityRequirements: [{ schemes: { oauth: { list: ['read'] } } }],
  }],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2lnbmF0dXJl', header: { kid: 'key-1' } }],
});
const write = (name, json) => writeFileSync(new URL(name, out), JSON.stringify(json, null, 2) + '\n');
write('a2a-js-1.3.0-tojson.json', AgentCard.toJSON(full));

// What the SDK's card handler serves for the card object an application hands it (the SDK's own
// type, oneofs as {$case, value}).
const app = express();
const handler = new DefaultRequestHandler(full, new InMemoryTaskStore(), { async execute() {}, async cancelTask() {} });
app.use('/v1', agentCardHandler({ agentCardProvider: handler }));
// The compat layer needs an interface that speaks 0.3.
const legacy = { ...full, supportedInterfaces: full.supportedInterfaces.map((i) => ({ ...i, protocolVersion: '0.3' })) };
const legacyHandler = new DefaultRequestHandler(legacy, new InMemoryTaskStore(), { async execute() {}, async cancelTask() {} });
app.use('/v03', agentCardHandler({ agentCardProvider: legacyHandler, legacyCompat: { enabled: true } }));
// A 0.3 card, every field and security scheme kind of the 0.3 schema, as @a2a-js/sdk 0.3.14 serves it.
const card03 = {
  protocolVersion: '0.3.0', name: 'full card', description: 'every field of a 0.3 card', version: '0.3.14',
  url: 'http://127.0.0.1:1/a2a/jsonrpc', preferredTransport: 'JSONRPC',
  additionalInterfaces: [
    { url: 'http://127.0.0.1:1/a2a/jsonrpc', transport: 'JSONRPC' },
    { url: 'http://127.0.0.1:1/a2a/grpc', transport: 'GRPC' },
    { url: 'http://127.0.0.1:1/a2a/rest', transport: 'HTTP+JSON' },
  ],
  provider: { url: 'https://provider.example', organization: 'Example' },
  documentationUrl: 'https://docs.example', iconUrl: 'https://icon.example/i.png',
  capabilities: {
    streaming: true, pushNotifications: true, stateTransitionHistory: true,
    extensions: [{ uri: 'https://ext.example/v1', description: 'an extension', required: false, params: { level: 2 } }],
  },
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'a token' },
    basic: { type: 'http', scheme: 'basic' },
    key: { type: 'apiKey', in: 'query', name: 'api_key', description: 'a key' },
    oauth: { type: 'oauth2', oauth2MetadataUrl: 'https://auth.example/.well-known/oauth-authorization-server',
      flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', refreshUrl: 'https://auth.example/refresh', scopes: { read: 'read things' } } } },
    oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration' },
    mtls: { type: 'mutualTLS', description: 'client certificate' },
  },
  security: [{ bearer: [] }, { oauth: ['read'], key: [] }],
  defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain', 'text/markdown'],
  skills: [{
    id: 'report', name: 'report', description: 'writes reports', tags: ['docs'], examples: ['a report on tides'],
    inputModes: ['text/plain'], outputModes: ['text/markdown'], security: [{ oauth: ['read'] }],
  }],
  supportsAuthenticatedExtendedCard: true,
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2lnbmF0dXJl', header: { kid: 'key-1' } }],
};
const handler03 = new LegacyRequestHandler(card03, new LegacyTaskStore(), { async execute() {}, async cancelTask() {} });
app.use('/sdk-0.3', legacyCardHandler({ agentCardProvider: handler03 }));

// Signed cards. An application signs its card object (the SDK's own type) and hands it to the card
// handler; or signs the canonical JSON form. One card carries two signatures, the first by a key
// no verifier has.
const keys = {};
const jwks = { keys: [] };
for (const [kid, alg] of [['es-key', 'ES256'], ['rs-key', 'RS256'], ['ed-key', 'EdDSA'], ['unknown-key', 'ES256']]) {
  const pair = await jose.generateKeyPair(alg, { extractable: true, crv: alg === 'EdDSA' ? 'Ed25519' : undefined });
  keys[kid] = pair.privateKey;
  if (kid !== 'unknown-key') jwks.keys.push({ ...(await jose.exportJWK(pair.publicKey)), kid, alg });
}
writeFileSync(new URL('signing-keys.jwks.json', out), JSON.stringify(jwks, null, 2) + '\n');
const sign = (kid, alg, card, extra = {}) => generateAgentCardSignature(keys[kid], { alg, typ: 'JOSE', kid, ...extra })(card);
const unsigned = { ...full, signatures: [] };
const signedObject = await sign('es-key', 'ES256', unsigned);
const signedHandler = new DefaultRequestHandler(signedObject, new InMemoryTaskStore(), { async execute() {}, async cancelTask() {} });
app.use('/signed', agentCardHandler({ agentCardProvider: signedHandler }));
write('signed-a2a-js-1.3.0-tojson-rs256.json', await sign('rs-key', 'RS256', AgentCard.toJSON(unsigned)));
write('signed-a2a-js-1.3.0-tojson-jku.json', await sign('es-key', 'ES256', AgentCard.toJSON(unsigned), { jku: 'https://keys.example/jwks.json' }));
write('signed-a2a-js-1.3.0-tojson-two.json', await sign('ed-key', 'EdDSA', await sign('unknown-key', 'ES256', AgentCard.toJSON(unsigned))));

const server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
try {
  for (const [name, path] of [['a2a-js-1.3.0-served.json', '/v1'], ['a2a-js-1.3.0-served-0.3.json', '/v03'], ['a2a-js-0.3.14-served.json', '/sdk-0.3'],
    ['signed-a2a-js-1.3.0-served-es256.json', '/signed']]) {
    const res = await fetch(`http://127.0.0.1:${server.address().port}${path}`);
    write(name, await res.json());
  }
} finally {
  server.close();
}
