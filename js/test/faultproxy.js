// A TCP proxy for tests that fails the way networks fail, the twin of the Go tests'
// internal/testkit/faultproxy: an answer that goes silent with its connection open (a dropped NAT
// mapping), or the agent taken off the network (refused; open connections reset).
import net from 'node:net';

/** Starts a proxy on 127.0.0.1 in front of target ("host:port"). */
export async function startProxy(target) {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sockets = new Set();
  let plan = () => ({});
  let connections = 0;
  let server;
  const track = (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => {}); };
  const listen = (onPort) => new Promise((resolve, reject) => {
    server = net.createServer((client) => {
      connections++;
      const fault = plan(connections);
      track(client);
      const upstream = net.connect(port, host);
      track(upstream);
      client.pipe(upstream);
      if (fault.stall) upstream.on('data', () => {}); // the answer is swallowed: silent, open
      else upstream.pipe(client);
      upstream.on('close', () => { if (!fault.stall) client.destroy(); });
      client.on('close', () => upstream.destroy());
    });
    server.once('error', reject);
    server.listen(onPort, '127.0.0.1', () => resolve(server.address().port));
  });
  const proxyPort = await listen(0);
  return {
    addr: `127.0.0.1:${proxyPort}`,
    get connections() { return connections; },
    /** Sets the fault of each connection from now on, by its number: {stall: true}, or {} to pass. */
    plan(fn) { plan = fn; },
    /** Refuses new connections and resets the open ones. */
    down() {
      server.close();
      for (const s of sockets) s.resetAndDestroy();
    },
    async stop() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

/** A fetch that sends every request to the proxy instead of where it was going. */
export function viaProxy(proxy, base = globalThis.fetch) {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.host = proxy.addr;
    return base(input instanceof Request ? new Request(url, input) : url.toString(), init);
  };
}
