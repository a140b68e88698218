// Credentials stay on this side of the boundary: they are added to each fetch the module asks
// for, as the schemes of the Agent Card that the fetch names say, and redacted from anything the
// module hands back.

const MIN_SECRET = 4; // shorter values (say "1") would redact unrelated text
const MAX_REMEMBERED = 64;
const MAX_TOKEN_ANSWER = 64 << 10;

/** Thrown when the headers function fails; the request is not sent. */
export class HeaderFunctionError extends Error {}

/**
 * Thrown when a scheme's secret cannot be had (the token endpoint or the token provider refused
 * or failed); the request to the agent is not sent. `retry`: a network failure or 5xx/429 of the
 * token endpoint, which may pass.
 */
export class CredentialError extends Error {
  constructor(scheme, message, { status = 0, retry = false } = {}) {
    super(`credentials for security scheme "${scheme}": ${message}`);
    this.status = status;
    this.retry = retry;
  }
}

/**
 * The form of one entry of the credentials option, or throws a message saying what is wrong: a
 * string is a token (bearer, API key, OAuth2 or OpenID Connect token); {username, password} is
 * HTTP basic; {clientId, clientSecret, scopes?, tokenUrl?} is OAuth2 client credentials; {} is
 * a scheme the transport satisfies (mutual TLS through a Node agent).
 */
export function credentialForm(value) {
  if (typeof value === 'string') {
    if (value === '') throw new Error('is an empty token');
    return 'token';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('must be a token string, {username, password}, {clientId, clientSecret, scopes?, tokenUrl?} or {}');
  }
  const known = ['username', 'password', 'clientId', 'clientSecret', 'scopes', 'tokenUrl'];
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new Error(`has unknown fields ${unknown.join(', ')}`);
  const basic = value.username !== undefined || value.password !== undefined;
  const client = value.clientId !== undefined || value.clientSecret !== undefined || value.scopes !== undefined || value.tokenUrl !== undefined;
  if (basic && client) throw new Error('mixes {username, password} with client credentials');
  const strings = (...names) => {
    for (const n of names) if (value[n] !== undefined && typeof value[n] !== 'string') throw new Error(`.${n} must be a string`);
  };
  if (basic) {
    strings('username', 'password');
    if (!value.username) throw new Error('needs a username');
    if (value.username.includes(':')) throw new Error('has a username with a colon, which HTTP basic cannot carry');
    return 'basic';
  }
  if (client) {
    strings('clientId', 'clientSecret', 'tokenUrl');
    if (!value.clientId || !value.clientSecret) throw new Error('needs both clientId and clientSecret for client credentials');
    if (value.scopes !== undefined && (!Array.isArray(value.scopes) || value.scopes.some((s) => typeof s !== 'string'))) {
      throw new Error('.scopes must be an array of strings');
    }
    return 'clientCredentials';
  }
  return 'transport';
}

const bearerLike = (s) => s.kind === 'bearer' || s.kind === 'oauth2' || s.kind === 'openIdConnect';
const providerFits = (s) => bearerLike(s) || s.kind === 'apiKey';

/** What the module is told the host holds: forms, never values. */
export function hostCredentials({ token, headers, credentials, tokenProvider }) {
  const schemes = credentials ? Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k, credentialForm(v)])) : undefined;
  const held = { token: Boolean(token), headers: headers !== undefined, schemes, tokenProvider: tokenProvider !== undefined };
  return held.token || held.headers || held.tokenProvider || schemes ? held : undefined;
}

export const inBrowser = () => typeof window !== 'undefined' && typeof document !== 'undefined';

/**
 * Why a client secret may not go to the token URL rawUrl, or '': it goes over https (plain http on
 * loopback only), and to the card's origin or an allowed one, unless the caller set the URL
 * (configured). origins: where a card's token URL may be (undefined: anywhere, an in-memory card).
 * A hostile card could name another site, plain http or a cloud metadata address.
 */
export function refusedTokenUrl(rawUrl, configured, origins) {
  let u;
  try {
    u = new URL(rawUrl);
  } catch {
    return 'not an absolute http(s) URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'not an absolute http(s) URL';
  if (u.protocol === 'http:' && !isLoopback(u.hostname)) return 'plain http, which would carry the secret in the clear';
  if (configured || origins === undefined) return '';
  if (origins.includes('*') || origins.includes(u.origin)) return '';
  return "not on the card's origin or an allowed one; set the credential's tokenUrl to trust it";
}

function isLoopback(host) {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function createCredentials({ token, headers, credentials = {}, tokenProvider, fetchImpl, agentCardUrl, allowedOrigins = [], now = () => Date.now() }) {
  const tokenOrigins = agentCardUrl === undefined ? undefined : [new URL(agentCardUrl).origin, ...allowedOrigins];
  const secrets = new Set();
  const remember = (v) => {
    if (typeof v === 'string' && v.length >= MIN_SECRET && secrets.size < MAX_REMEMBERED) secrets.add(v);
  };
  remember(token);
  if (typeof headers === 'object') Object.values(headers).forEach(remember);
  for (const c of Object.values(credentials)) {
    if (typeof c === 'string') remember(c);
    else {
      remember(c.password);
      remember(c.clientSecret);
      if (c.username !== undefined) remember(b64(`${c.username}:${c.password ?? ''}`));
    }
  }
  const tokens = new Map(); // scheme → {value, renewAt} of the client-credentials flow
  const pending = new Map(); // scheme → the token request under way, shared by concurrent fetches

  async function requestToken(s, c) {
    const endpoint = c.tokenUrl ?? s.tokenUrl;
    if (!endpoint) throw new CredentialError(s.name, 'the card names no client-credentials token URL and the credential sets no tokenUrl');
    const why = refusedTokenUrl(endpoint, c.tokenUrl !== undefined, tokenOrigins);
    if (why) throw new CredentialError(s.name, `the token URL ${endpoint} is refused (${why}): the client secret is not sent there`);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    const scopes = c.scopes?.length ? c.scopes : s.scopes;
    if (scopes?.length) form.set('scope', scopes.join(' '));
    const started = now();
    let res;
    try {
      // RFC 6749 §2.3.1: the client id and secret are form-encoded, then sent as HTTP basic.
      const basic = b64(`${formEncode(c.clientId)}:${formEncode(c.clientSecret)}`);
      remember(basic);
      res = await fetchImpl(endpoint, {
        method: 'POST', body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
      });
    } catch (e) {
      throw new CredentialError(s.name, `the token request failed: ${e?.message ?? e}`, { retry: true });
    }
    const text = (await res.text()).slice(0, MAX_TOKEN_ANSWER);
    let answer;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (res.status !== 200) {
      const reason = typeof answer?.error === 'string' ? `: ${answer.error}` : '';
      throw new CredentialError(s.name, `the token endpoint answered HTTP ${res.status}${reason}`,
        { status: res.status, retry: res.status >= 500 || res.status === 429 });
    }
    if (typeof answer !== 'object' || answer === null) throw new CredentialError(s.name, "the token endpoint's answer is not JSON", { status: 200 });
    if (typeof answer.access_token !== 'string' || answer.access_token === '') {
      throw new CredentialError(s.name, "the token endpoint's answer has no access_token", { status: 200 });
    }
    if (answer.token_type !== undefined && String(answer.token_type).toLowerCase() !== 'bearer') {
      throw new CredentialError(s.name, `the token endpoint gave a "${answer.token_type}" token; only bearer tokens are supported`, { status: 200 });
    }
    const life = Number(answer.expires_in) * 1000;
    // Renewed ahead of expiry (a tenth of the lifetime, at most a minute): no request carries a
    // token that expires on the way.
    return { value: answer.access_token, renewAt: life > 0 ? started + life - Math.min(life / 10, 60000) : Infinity };
  }

  async function clientToken(s, c) {
    const cached = tokens.get(s.name);
    if (cached && now() < cached.renewAt) return cached.value;
    let request = pending.get(s.name);
    if (!request) {
      request = requestToken(s, c).finally(() => pending.delete(s.name));
      pending.set(s.name, request);
    }
    const t = await request;
    tokens.set(s.name, t);
    return t.value;
  }

  async function provide(s) {
    let value;
    try {
      value = await tokenProvider(s.name);
    } catch (e) {
      throw new CredentialError(s.name, `the token provider failed: ${redact(String(e?.message ?? e))}`);
    }
    if (typeof value !== 'string' || value === '') throw new CredentialError(s.name, 'the token provider gave no token');
    return value;
  }

  /** Adds the secrets of the fetch's schemes to u and h; returns the tokens a 401 invalidates. */
  async function applyPlan(u, h, plan) {
    const fetched = new Map();
    for (const s of plan ?? []) {
      const c = credentials[s.name];
      const held = c !== undefined;
      if ((!held && (!tokenProvider || !providerFits(s))) || s.kind === 'mutualTLS') continue;
      if (s.kind === 'basic') {
        const value = `Basic ${b64(`${c.username}:${c.password ?? ''}`)}`;
        remember(value);
        h.set('authorization', value);
        continue;
      }
      let value;
      if (!held) value = await provide(s);
      else if (typeof c === 'string') value = c;
      else fetched.set(s.name, (value = await clientToken(s, c)));
      remember(value);
      remember(encodeURIComponent(value));
      if (bearerLike(s)) h.set('authorization', `Bearer ${value}`);
      else if (s.in === 'header') h.set(s.param, value);
      else if (s.in === 'query') u.searchParams.set(s.param, value);
      else if (s.in === 'cookie') {
        if (inBrowser()) {
          throw new CredentialError(s.name, 'a page cannot send an API key in a cookie: the browser owns cookies (sign in so that the browser holds it, or run the adapter outside the page)');
        }
        h.append('cookie', `${s.param}=${value}`);
      } else throw new CredentialError(s.name, `API key location "${s.in}" is not header, query or cookie`);
    }
    return fetched;
  }

  function redact(text) {
    if (typeof text !== 'string') return text;
    for (const s of secrets) text = text.split(s).join('[redacted]');
    return text;
  }

  return {
    /**
     * The request with credentials: the card's schemes the fetch names (plan), then token as
     * Bearer, then headers (explicit beats inferred). `fetched` are tokens from a token endpoint.
     */
    async apply(url, method, moduleHeaders, plan) {
      const u = new URL(url);
      const h = new Headers();
      for (const [name, values] of Object.entries(moduleHeaders ?? {})) {
        for (const v of values) h.append(name, v);
      }
      const fetched = await applyPlan(u, h, plan);
      if (token) h.set('Authorization', `Bearer ${token}`);
      let extra = headers;
      if (typeof headers === 'function') {
        try {
          extra = await headers({ url, method });
        } catch (e) {
          throw new HeaderFunctionError(String(e?.message ?? e), { cause: e });
        }
      }
      const extras = Object.entries(extra ?? {});
      for (const [name, value] of extras) {
        h.set(name, value);
        remember(value);
      }
      // carried: the request holds a secret of the caller's, which must not follow a redirect.
      const carried = Boolean(token) || extras.length > 0 || (plan?.length ?? 0) > 0;
      return { url: plan?.length ? u.toString() : url, headers: h, fetched, carried };
    },
    /** Drops the tokens the agent refused, so that the next apply asks for fresh ones. */
    forget(fetched) {
      for (const [name, value] of fetched) if (tokens.get(name)?.value === value) tokens.delete(name);
    },
    redact,
  };
}

/** application/x-www-form-urlencoded encoding of one value. */
const formEncode = (v) => new URLSearchParams({ v }).toString().slice(2);

/** Base64 of the UTF-8 bytes of s (btoa alone takes Latin-1 only). */
const b64 = (s) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
