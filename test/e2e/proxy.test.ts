import { createServer, type IncomingMessage } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { runMon } from '../helpers/run-mon.js';
import { json, startFakeApi } from '../helpers/fake-api.js';
import { selfSignedCert } from '../resilience/support.js';

/**
 * A forward proxy on loopback that records what it is asked: a tunnel (CONNECT host:port, what
 * undici asks of a proxy) which it opens to the real server, or a plain request in absolute form.
 */
describe('proxies from the environment', () => {
  const seen: string[] = [];
  const proxy = createServer((req: IncomingMessage, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json', 'x-total': '0', 'x-total-pages': '0' });
    res.end('[]');
  });
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`${req.method} ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const api = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  let proxyUrl: string;
  let apiUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    proxy.close();
    api.close();
  });

  it('sends requests through HTTP_PROXY', async () => {
    seen.length = 0;
    const result = await runMain(['groups', 'list', '--json'], {
      env: { MON_BASE_URL: apiUrl, MON_API_KEY: 'k_proxy_test_123456', HTTP_PROXY: proxyUrl },
    });
    expect(result).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(`CONNECT ${apiUrl.replace('http://', '')}`);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    seen.length = 0;
    const result = await runMain(['groups', 'list', '--json'], {
      env: { MON_BASE_URL: apiUrl, MON_API_KEY: 'k_proxy_test_123456', HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' },
    });
    expect(result).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(seen).toHaveLength(0);
  });
});

/**
 * Proxies that fail, with mon spawned as a script runs it: each failure names the proxy and the
 * variable it came from, ends within the retries, and never shows the proxy's password.
 */
/**
 * A SOCKS5 proxy on loopback (RFC 1928, no authentication, CONNECT only) that records where it
 * is asked to connect, and pipes the connection there.
 */
function startSocks5(seen: string[]): Promise<{ url: string; close: () => void }> {
  const server = createTcpServer((client) => {
    client.on('error', () => undefined);
    client.once('data', (greeting) => {
      if (greeting[0] !== 5) return client.destroy();
      client.write(Buffer.from([5, 0]));
      client.once('data', (request) => {
        // VER CMD RSV ATYP: IPv4 (1) or a domain name (3), then the port.
        const [version, command, , type] = request;
        if (version !== 5 || command !== 1 || (type !== 1 && type !== 3)) return client.destroy();
        const host =
          type === 1 ? [...request.subarray(4, 8)].join('.') : request.subarray(5, 5 + request[4]!).toString();
        const port = request.readUInt16BE(request.length - 2);
        seen.push(`${host}:${port}`);
        const upstream = connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}

describe('a SOCKS5 proxy', () => {
  const seen: string[] = [];
  const api = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-total': '1', 'x-total-pages': '1' });
    res.end('[{"uid":"g_1","name":"Office"}]');
  });
  let socks: { url: string; close: () => void };
  let apiUrl: string;

  beforeAll(async () => {
    socks = await startSocks5(seen);
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    socks.close();
    api.close();
  });

  it("carries the requests, and stderr stays empty (undici says its SOCKS5 support is experimental: not the user's concern)", async () => {
    const result = await runMon(['groups', 'list', '-o', 'csv', '--fields', 'uid,name'], {
      env: { MON_BASE_URL: apiUrl, MON_API_KEY: 'k_proxy_test_123456', HTTP_PROXY: socks.url, NO_PROXY: '' },
    });
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ code: 0, stdout: 'uid,name\ng_1,Office\n' });
    expect(seen).toEqual([apiUrl.replace('http://', '')]);
  });

  it('an https:// API through it: its certificate is verified (refused untrusted, even with NODE_TLS_REJECT_UNAUTHORIZED=0), and taken when trusted', async () => {
    const tls = selfSignedCert();
    const api = await startFakeApi(
      (_req, res) => json(res, 200, [{ uid: 'g_1', name: 'Office' }], { 'x-total': '1', 'x-total-pages': '1' }),
      { tls },
    );
    try {
      seen.length = 0;
      const env = {
        MON_BASE_URL: api.url,
        MON_API_KEY: 'k_proxy_test_123456',
        HTTPS_PROXY: socks.url,
        NO_PROXY: '',
        MON_RETRIES: '0',
      };
      const refused = await runMon(['groups', 'list', '--json'], {
        env: { ...env, NODE_TLS_REJECT_UNAUTHORIZED: '0' },
      });
      expect(refused.code).toBe(8);
      expect(refused.stderr).toMatch(/the certificate of 127\.0\.0\.1:\d+ is not trusted/);
      expect(api.requests).toHaveLength(0);
      const trusted = await runMon(['groups', 'list', '-o', 'csv', '--fields', 'uid,name'], {
        env: { ...env, NODE_EXTRA_CA_CERTS: tls.certFile },
      });
      expect(trusted).toMatchObject({ code: 0, stdout: 'uid,name\ng_1,Office\n', stderr: '' });
      expect(api.requests).toHaveLength(1);
      expect(seen).toEqual([api.url.replace('https://', ''), api.url.replace('https://', '')]);
    } finally {
      await api.close();
    }
  });
});

describe('a SOCKS5 proxy that fails', () => {
  /** A SOCKS5 proxy that answers the greeting, then the connect request, with these bytes; it counts the connections. */
  const failing = (greeting: number[], reply?: number[] | string) =>
    new Promise<{ url: string; close: () => void; connections: () => number }>((resolve) => {
      let connections = 0;
      const server = createTcpServer((client) => {
        connections++;
        client.on('error', () => undefined);
        client.once('data', () => {
          client.write(Buffer.from(greeting));
          if (reply !== undefined)
            client.once('data', () => client.write(typeof reply === 'string' ? reply : Buffer.from(reply)));
        });
      });
      server.listen(0, '127.0.0.1', () =>
        resolve({
          url: `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`,
          close: () => server.close(),
          connections: () => connections,
        }),
      );
    });

  it.each([
    [
      'asks for a password mon was not given',
      [5, 2],
      undefined,
      /the proxy 127\.0\.0\.1:\d+ \(from HTTP_PROXY\) asks for a user and password — give a user and password in HTTP_PROXY as socks5:\/\/user:password@host:port\n$/,
      1,
    ],
    [
      'refuses every way to authenticate',
      [5, 0xff],
      undefined,
      /the proxy 127\.0\.0\.1:\d+ \(from HTTP_PROXY\) refused the authentication — /,
      1,
    ],
    [
      'cannot connect onwards (reply 5): tried again',
      [5, 0],
      [5, 5, 0, 1, 0, 0, 0, 0, 0, 0],
      /the proxy 127\.0\.0\.1:\d+ \(from HTTP_PROXY\) could not connect to it \(connection refused\) \(after 2 attempts\) — check the proxy, or add 127\.0\.0\.1 to NO_PROXY/,
      2,
    ],
    [
      'does not allow the API (reply 2)',
      [5, 0],
      [5, 2, 0, 1, 0, 0, 0, 0, 0, 0],
      /the proxy 127\.0\.0\.1:\d+ \(from HTTP_PROXY\) refused the connection to it \(connection not allowed by ruleset\) — /,
      1,
    ],
    // undici's handshake gives up after 5 s, past the request's --timeout: the proxy is named.
    [
      'goes quiet during the handshake',
      [],
      undefined,
      /the proxy 127\.0\.0\.1:\d+ \(from HTTP_PROXY\) did not finish the SOCKS5 handshake within 5 s — check the proxy, or add 127\.0\.0\.1 to NO_PROXY/,
      1,
    ],
    [
      'answers as something else',
      [5, 0],
      'HTTP/1.1 400 Bad Request\r\n\r\n',
      /the proxy 127\.0\.0\.1:\d+ \(from HTTP_PROXY\) did not answer as a SOCKS5 proxy — check that HTTP_PROXY names a SOCKS5 proxy and its port\n$/,
      1,
    ],
  ] as const)('one that %s: exit 8, one line naming it', async (_what, greeting, reply, said, attempts) => {
    const socks = await failing([...greeting], typeof reply === 'string' || reply === undefined ? reply : [...reply]);
    try {
      const result = await runMon(['groups', 'list', '--timeout', '2'], {
        env: {
          MON_BASE_URL: 'http://127.0.0.1:9',
          MON_API_KEY: 'k_proxy_test_123456',
          HTTP_PROXY: socks.url,
          NO_PROXY: '',
          MON_RETRIES: '1',
        },
        timeoutMs: 15_000,
      });
      expect(result.code).toBe(8);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^mon: cannot reach 127\.0\.0\.1:9: /);
      expect(result.stderr).toMatch(said);
      expect(result.stderr.split('\n')).toHaveLength(2);
      // Final failures are not tried again; a proxy that could not connect onwards is (MON_RETRIES=1).
      expect(socks.connections()).toBe(attempts);
    } finally {
      socks.close();
    }
  });
});

describe('a proxy that fails', () => {
  const KEY = 'k_proxy_test_123456';
  const PASSWORD = 'pr0xy-s3cret';
  /** How the proxy answers a CONNECT: closing the connection, or a status line of its own. */
  let answer: 'close' | string = 'close';
  let connects = 0;
  const proxy = createServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  proxy.on('connect', (_req: IncomingMessage, client: Socket) => {
    connects++;
    if (answer === 'close') client.end();
    else client.end(`HTTP/1.1 ${answer}\r\n\r\n`);
  });
  let proxyUrl: string;
  let port: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    port = (proxy.address() as AddressInfo).port;
    proxyUrl = `http://mon:${PASSWORD}@127.0.0.1:${port}`;
  });
  afterAll(() => proxy.close());

  const run = (env: Record<string, string>) =>
    runMon(['groups', 'list'], {
      env: { MON_BASE_URL: 'https://acme.example.com', MON_API_KEY: KEY, MON_RETRIES: '1', ...env },
      timeoutMs: 20_000,
    });

  it('one that closes the connection instead of opening the tunnel: exit 8 after the retries, not a loop without end', async () => {
    answer = 'close';
    connects = 0;
    const result = await run({ HTTPS_PROXY: proxyUrl });
    expect(result.code).toBe(8);
    expect(result.stderr).toBe(
      `mon: cannot reach acme.example.com: the proxy 127.0.0.1:${port} (from HTTPS_PROXY) closed the connection instead of opening a tunnel to it (CONNECT) (after 2 attempts) — check that the proxy tunnels HTTPS, or add acme.example.com to NO_PROXY to connect directly\n`,
    );
    // One CONNECT an attempt (undici 7 alone asks again at once, for ever).
    expect(connects).toBe(2);
  });

  it.each([
    [
      '407 Proxy Authentication Required',
      /refused the tunnel to it \(407\) — the proxy asks for a user and password: give them in HTTPS_PROXY as http:\/\/user:password@host:port\n$/,
    ],
    [
      '403 Forbidden',
      /refused the tunnel to it \(403\) — ask the proxy's administrator to let acme.example.com through, or add acme.example.com to NO_PROXY to connect directly\n$/,
    ],
  ])('one that answers the tunnel %s: exit 8 at once, saying so', async (status, message) => {
    answer = status;
    connects = 0;
    const result = await run({ HTTPS_PROXY: proxyUrl });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(
      new RegExp(`^mon: cannot reach acme.example.com: the proxy 127.0.0.1:${port} \\(from HTTPS_PROXY\\) `),
    );
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(connects).toBe(1);
  });

  it('one that refuses connections is named, not the API host', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await run({ https_proxy: `http://mon:${PASSWORD}@127.0.0.1:${closedPort}` });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(
      new RegExp(
        `^mon: cannot reach the proxy 127.0.0.1:${closedPort} \\(from https_proxy\\): connection refused \\(after 2 attempts\\) — check https_proxy, or add acme.example.com to NO_PROXY to connect directly\n$`,
      ),
    );
  });

  it.each(['notaurl://mon:SECRET@proxy', 'proxy.corp:8080', 'http://'])(
    'HTTPS_PROXY=%s, which no proxy is: exit 2 naming it, nothing sent, no password shown',
    async (value) => {
      connects = 0;
      const result = await run({ HTTPS_PROXY: value });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^mon: HTTPS_PROXY: must be a proxy's URL, http:\/\/, https:\/\/ or socks5:\/\/ and a host \(got '[^']*'\) — fix or unset HTTPS_PROXY\n$/,
      );
      expect(result.stderr).not.toContain('SECRET');
    },
  );
});
