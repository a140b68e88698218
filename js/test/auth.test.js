// Authentication from the Agent Card: every scheme kind the card can declare, met with nothing but
// the card URL and the secret; A2A_AUTH_REQUIRED when the agent refuses. As natively
// (tests/auth_test.go), against the same secured cards of the test agent.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { startAgent } from './agent.js';

let agent;
let s; // the secrets the secured cards accept
before(async () => { agent = await startAgent(); s = agent.secrets; });
after(async () => { await agent?.stop(); });

let seq = 0;
const work = (instruction) => ({ id: `auth-${++seq}`, ownerId: 'alice', instruction });

async function withAdapter(options, fn) {
  const port = createA2ABackendAdapter(options);
  try {
    return await fn(port);
  } finally {
    await port.close();
  }
}

function assertNoSecret(...values) {
  const text = JSON.stringify(values.map((v) => (v instanceof Error ? `${v.message} ${JSON.stringify(v)}` : v)));
  for (const secret of [s.bearer, s.basicPassword, s.apiKey, s.clientSecret, s.openIdToken]) {
    assert.ok(!text.includes(secret), `a credential leaked into ${text}`);
  }
}

async function submitError(port, instruction) {
  try {
    await port.submit(work(instruction));
  } catch (err) {
    return err;
  }
  assert.fail('submit succeeded');
}

const cases = () => [
  { card: 'secure-bearer', credentials: { bearer: s.bearer }, inUse: ['bearer'], missing: 'bearer' },
  { card: 'secure-basic', credentials: { basic: { username: s.basicUser, password: s.basicPassword } }, inUse: ['basic'], missing: 'basic' },
  { card: 'secure-apikey-header', credentials: { key: s.apiKey }, inUse: ['key'], missing: 'key' },
  { card: 'secure-apikey-query', credentials: { key: s.apiKey }, inUse: ['key'], missing: 'key' },
  { card: 'secure-apikey-cookie', credentials: { key: s.apiKey }, inUse: ['key'], missing: 'key' },
  { card: 'secure-oauth2', credentials: { oauth: { clientId: s.clientId, clientSecret: s.clientSecret } }, inUse: ['oauth'], missing: 'oauth' },
  { card: 'secure-oidc', credentials: { oidc: s.openIdToken }, inUse: ['oidc'], missing: 'oidc' },
  { card: 'secure-either', credentials: { bearer: s.bearer }, inUse: ['bearer'], missing: 'basic and key, or bearer' },
  { card: 'secure-either', credentials: { key: s.apiKey, basic: { username: s.basicUser, password: s.basicPassword } },
    inUse: ['basic', 'key'], missing: 'basic and key, or bearer' },
];

describe('every scheme kind, with its secret', () => {
  it('completes the Work and says which requirement set is in use', async () => {
    for (const tc of cases()) {
      await withAdapter({ agentCardUrl: agent.special[tc.card], credentials: tc.credentials }, async (port) => {
        await port.start();
        const d = port.describe();
        assert.deepEqual({ inUse: d.security?.inUse, missing: d.security?.missing ?? false, required: d.security?.required },
          { inUse: tc.inUse, missing: false, required: true }, tc.card);
        const events = [];
        const out = await port.submit(work('complete secured'), { onEvent: (e) => events.push(e) });
        assert.match(out.content, /echo: complete secured/, tc.card);
        assertNoSecret(d, out, events);
      });
    }
  });
});

describe('without the secret', () => {
  it('starts, says what is missing, and fails the Work with A2A_AUTH_REQUIRED', async () => {
    for (const tc of cases().slice(0, -1)) {
      await withAdapter({ agentCardUrl: agent.special[tc.card] }, async (port) => {
        await port.start();
        assert.equal(port.describe().security?.missing, true, tc.card);
        const err = await submitError(port, 'complete unauthenticated');
        assert.equal(err.code, 'A2A_AUTH_REQUIRED', `${tc.card}: ${err.message}`);
        assert.equal(err.status, 401);
        assert.equal(err.retryable, false);
        assert.ok(err.message.includes(tc.missing) && err.message.includes('the agent asks for'), err.message);
      });
    }
  });

  it('a wrong secret says which credentials were sent, never their value', async () => {
    await withAdapter({ agentCardUrl: agent.special['secure-apikey-query'], credentials: { key: `${s.apiKey}-revoked` } }, async (port) => {
      const err = await submitError(port, 'complete wrong key');
      assert.equal(err.code, 'A2A_AUTH_REQUIRED');
      assert.match(err.message, /sent the credentials of key/);
      assertNoSecret(err, port.describe());
    });
  });
});

describe('credentials that cannot be right', () => {
  it('a form its scheme cannot use rejects start() with INVALID_OPTIONS naming the scheme and the form', async () => {
    for (const tc of [
      { card: 'secure-basic', credentials: { basic: 'a-token-for-basic' }, want: [/Credentials\["basic"\] is a token/, /HTTP basic/, /a username and password/] },
      { card: 'secure-bearer', credentials: { bearer: { username: 'ada', password: 'pw' } }, want: [/Credentials\["bearer"\] is a username and password/, /HTTP bearer/] },
      { card: 'secure-apikey-header', credentials: { key: { clientId: 'c', clientSecret: 's' } }, want: [/"key" is an API key in the header/] },
    ]) {
      await withAdapter({ agentCardUrl: agent.special[tc.card], credentials: tc.credentials }, async (port) => {
        const err = await port.start().then(() => assert.fail(`${tc.card}: start() succeeded`), (e) => e);
        assert.equal(err.code, 'INVALID_OPTIONS', `${tc.card}: ${err.message}`);
        for (const re of tc.want) assert.match(err.message, re);
      });
    }
  });

  it('a scheme the card does not declare is noted, and A2A_AUTH_REQUIRED says what satisfies the card', async () => {
    await withAdapter({ agentCardUrl: agent.special['secure-either'], credentials: { beare: s.bearer } }, async (port) => {
      await port.start();
      const notes = (port.describe().cardNotes ?? []).join('\n');
      assert.match(notes, /Credentials\["beare"\] is for no scheme.*basic, bearer, key/);
      const err = await submitError(port, 'complete misnamed');
      assert.equal(err.code, 'A2A_AUTH_REQUIRED');
      for (const re of [/basic and key, or bearer/, /basic: a username and password/, /bearer: a token/]) assert.match(err.message, re);
      assertNoSecret(err, port.describe());
    });
  });
});

describe('the token URL a card names', () => {
  /** Serves a card on its own origin: the test agent's interface, an OAuth2 scheme with tokenUrl. */
  async function hostileCard(tokenUrl) {
    const real = await (await fetch(agent.cards['v1-jsonrpc-stream'])).json();
    const card = {
      name: 'hostile', version: '1', capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
      supportedInterfaces: real.supportedInterfaces.slice(0, 1),
      securitySchemes: { oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl, scopes: {} } } } } },
      securityRequirements: [{ schemes: { oauth: { list: [] } } }],
    };
    return serve((req, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify(card)); }, '/.well-known/agent-card.json');
  }
  async function serve(handler, path = '') {
    const { createServer } = await import('node:http');
    const srv = createServer(handler);
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    after(() => srv.close());
    return `http://127.0.0.1:${srv.address().port}${path}`;
  }

  it('refuses plain http and other origins before any request; a tokenUrl the caller set is used', async () => {
    let trapped = 0;
    const trap = await serve((req, res) => { trapped++; res.setHeader('content-type', 'application/json'); res.end('{"access_token":"trap","token_type":"Bearer"}'); }, '/token');
    const agentOrigin = new URL(agent.cards['v1-jsonrpc-stream']).origin;
    const hosts = [];
    const fetchImpl = (input, init) => { hosts.push(new URL(String(input instanceof Request ? input.url : input)).host); return fetch(input, init); };
    for (const [tokenUrl, want] of [['http://169.254.169.254/latest/meta-data/token', /plain http/], [trap, /not on the card's origin/]]) {
      await withAdapter({ agentCardUrl: await hostileCard(tokenUrl), allowedOrigins: [agentOrigin], fetchImpl,
        credentials: { oauth: { clientId: 'client', clientSecret: 'token-url-5ecret' } } }, async (port) => {
        const err = await submitError(port, 'complete with a stolen secret');
        assert.equal(err.code, 'A2A_AUTH_REQUIRED', err.message);
        assert.match(err.message, want);
        assert.ok(!err.message.includes('5ecret'));
      });
    }
    assert.equal(trapped, 0, 'the trap received a token request');
    assert.ok(!hosts.some((h) => h.startsWith('169.254.')), `requests went to ${hosts}`);
    await withAdapter({ agentCardUrl: await hostileCard('http://169.254.169.254/x'), allowedOrigins: [agentOrigin],
      credentials: { oauth: { clientId: 'client', clientSecret: 'token-url-5ecret', tokenUrl: trap } } }, async (port) => {
      await submitError(port, 'complete with my token endpoint').catch(() => {});
    });
    assert.equal(trapped, 1, 'the configured token URL was not used');
  });
});

it('token and headers win over what the card implies', async () => {
  await withAdapter({ agentCardUrl: agent.special['secure-bearer'], token: s.bearer, credentials: { bearer: 'stale-token' } }, async (port) => {
    assert.match((await port.submit(work('complete explicit'))).content, /echo: complete explicit/);
  });
  await withAdapter({ agentCardUrl: agent.special['secure-bearer'], token: s.bearer }, async (port) => {
    await port.start();
    assert.deepEqual(port.describe().security.inUse, ['bearer']);
  });
});

describe('OAuth2 client credentials', () => {
  const issued = async () => (await (await fetch(`${agent.url}/oauth/issued`)).json()).issued;

  it('fetches one token for many Works, and a fresh one when the agent refuses it', async () => {
    const credentials = { oauth: { clientId: s.clientId, clientSecret: s.clientSecret } };
    await withAdapter({ agentCardUrl: agent.special['secure-oauth2'], credentials }, async (port) => {
      const before = await issued();
      for (let i = 0; i < 3; i++) await port.submit(work('complete oauth'));
      assert.equal(await issued() - before, 1);
      await fetch(`${agent.url}/oauth/revoke`, { method: 'POST' });
      await port.submit(work('complete after revoke'));
      assert.equal(await issued() - before, 2);
    });
  });

  it('a refused client is A2A_AUTH_REQUIRED naming the token endpoint\'s error', async () => {
    const credentials = { oauth: { clientId: s.clientId, clientSecret: `${s.clientSecret}-wrong` } };
    await withAdapter({ agentCardUrl: agent.special['secure-oauth2'], credentials }, async (port) => {
      const err = await submitError(port, 'complete refused client');
      assert.equal(err.code, 'A2A_AUTH_REQUIRED');
      assert.equal(err.retryable, false);
      assert.match(err.message, /invalid_client/);
      assertNoSecret(err);
    });
  });

  it('scopes given with the credential replace the card\'s', async () => {
    const credentials = { oauth: { clientId: s.clientId, clientSecret: s.clientSecret, scopes: ['other'] } };
    await withAdapter({ agentCardUrl: agent.special['secure-oauth2'], credentials }, async (port) => {
      const err = await submitError(port, 'complete wrong scope');
      assert.equal(err.code, 'A2A_AUTH_REQUIRED');
      assert.match(err.message, /invalid_scope/);
    });
  });
});

describe('tokenProvider', () => {
  it('gives the token of a scheme without a credential, asked by name', async () => {
    const asked = [];
    const tokenProvider = async (scheme) => { asked.push(scheme); return s.openIdToken; };
    await withAdapter({ agentCardUrl: agent.special['secure-oidc'], tokenProvider }, async (port) => {
      assert.match((await port.submit(work('complete provided'))).content, /echo: complete provided/);
      assert.ok(asked.length > 0 && asked.every((n) => n === 'oidc'), String(asked));
      assert.deepEqual(port.describe().security.inUse, ['oidc']);
    });
  });

  it('a failing provider is A2A_AUTH_REQUIRED with its reason', async () => {
    const tokenProvider = async () => { throw new Error('the user is not signed in'); };
    await withAdapter({ agentCardUrl: agent.special['secure-oidc'], tokenProvider }, async (port) => {
      const err = await submitError(port, 'complete not signed in');
      assert.equal(err.code, 'A2A_AUTH_REQUIRED');
      assert.match(err.message, /not signed in/);
    });
  });
});

it('credentials in a wrong form are refused when the adapter is created, naming the scheme', () => {
  for (const bad of [{ username: 'u', clientId: 'c' }, { password: 'p' }, { clientId: 'id' }, '', 42, { token: 'x' }]) {
    assert.throws(() => createA2ABackendAdapter({ agentCardUrl: 'https://agent.example/card.json', credentials: { bearer: bad } }),
      (e) => e instanceof TypeError && e.message.includes('credentials["bearer"]'), JSON.stringify(bad));
  }
  assert.throws(() => createA2ABackendAdapter({ agentCardUrl: 'https://agent.example/card.json', tokenProvider: 'x' }), /tokenProvider/);
});
