import { show, syncCall } from './helpers.js';

// describe: synchronous, names the protocol and a label before discovery, and the selected
// transport and protocol version after it.

export async function checkDescribeBeforeStart(c, s) {
  const f = await s.fixture(c, { hold: false });
  // discovered may be false or true (a fixture may hand over a started backend): only the
  // identity is required before start().
  wantIdentity(c, describe(c, f.backend));
}

export async function checkDescribeAfterStart(c, s) {
  const f = await s.started(c, { hold: false });
  const d = describe(c, f.backend);
  wantIdentity(c, d);
  if (d.discovered !== true) {
    c.error(`describe().discovered = ${show(d.discovered)} after start(), want true`);
  }
  if (d.transport !== 'JSONRPC' && d.transport !== 'HTTP+JSON') {
    c.error(`describe().transport = ${show(d.transport)}, want "JSONRPC" or "HTTP+JSON"`);
  }
  if (typeof d.protocolVersion !== 'string' || d.protocolVersion === '') {
    c.error(`describe().protocolVersion = ${show(d.protocolVersion)}, want a non-empty string`);
  }
}

export function describe(c, backend) {
  const d = syncCall(c, 'describe()', () => backend.describe());
  if (d === null || typeof d !== 'object') c.fatal(`describe() = ${show(d)}, want an object`);
  return d;
}

export function wantIdentity(c, d) {
  if (d.protocol !== 'a2a') c.error(`describe().protocol = ${show(d.protocol)}, want "a2a"`);
  if (typeof d.label !== 'string' || d.label === '') {
    c.error(`describe().label = ${show(d.label)}, want a non-empty string`);
  }
}
