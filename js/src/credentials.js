// Credentials stay on this side of the boundary: they are added to each fetch the module asks
// for and redacted from anything the module hands back.

const MIN_SECRET = 4; // shorter values (say "1") would redact unrelated text
const MAX_REMEMBERED = 64;

/** Thrown when the headers function fails; the request is not sent. */
export class HeaderFunctionError extends Error {}

export function createCredentials({ token, headers }) {
  const secrets = new Set();
  const remember = (v) => {
    if (typeof v === 'string' && v.length >= MIN_SECRET && secrets.size < MAX_REMEMBERED) secrets.add(v);
  };
  remember(token);
  if (typeof headers === 'object') Object.values(headers).forEach(remember);

  return {
    /** The request headers with credentials: token as Bearer, then headers (they win). */
    async apply(url, method, moduleHeaders) {
      const h = new Headers();
      for (const [name, values] of Object.entries(moduleHeaders ?? {})) {
        for (const v of values) h.append(name, v);
      }
      if (token) h.set('Authorization', `Bearer ${token}`);
      let extra = headers;
      if (typeof headers === 'function') {
        try {
          extra = await headers({ url, method });
        } catch (e) {
          throw new HeaderFunctionError(String(e?.message ?? e), { cause: e });
        }
      }
      for (const [name, value] of Object.entries(extra ?? {})) {
        h.set(name, value);
        remember(value);
      }
      return h;
    },
    /** Replaces every known credential value in text. */
    redact(text) {
      if (typeof text !== 'string') return text;
      for (const s of secrets) text = text.split(s).join('[redacted]');
      return text;
    },
  };
}
