import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock, type TestClock } from '../helpers/clock.js';
import { apiError, json, scripted, startFakeApi, type FakeApi, type Handler } from '../helpers/fake-api.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN, runMon, tempConfigDir } from '../helpers/run-mon.js';
import { expectNoKey, expectOneLine, KEY, selfSignedCert } from './support.js';
import { bound } from '../helpers/slow.js';

/**
 * Servers that answer what the API never promises: 204 on a read, bodies without end, a DELETE
 * whose answer is lost, TLS where there is none, Retry-After: 0. Real sockets on loopback;
 * commands in-process on a test clock where waits matter, spawned where the process does
 * (its memory, its environment).
 */

const group = { uid: 'g_1', name: 'Acme', slug: 'acme' };
const ok: Handler = (_req, res) => json(res, 200, group);
const noContent: Handler = (_req, res) => {
  res.writeHead(204);
  res.end();
};

/** Bodies of `[{"x":"xxxx…"},` without end, as fast as the client reads them. */
const endless: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const chunk = `{"x":"${'x'.repeat(65_000)}"},`;
  const more = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
};

describe('hostile answers', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startFakeApi(ok);
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());
  let clock: TestClock;
  beforeEach(() => {
    api.requests.length = 0;
    api.arrivals.length = 0;
    api.handle(ok);
    clock = testClock();
  });

  /** mon in-process on the test clock. */
  const run = (args: string[], options: { env?: Record<string, string> } = {}) =>
    runMain(args, { env, ...options, clock });

  describe('a 204 (or no JSON) where the API promises JSON is exit 7', () => {
    it.each([
      [['groups', 'get', 'g_1', '--json']],
      [['computers', 'list', '--json']],
      [['groups', 'update', 'g_1', '--name', 'Acme', '--json']],
    ])('mon %j answered 204: exit 7, nothing on stdout', async (args) => {
      api.handle(noContent);
      const result = await run(args);
      expect(result.code).toBe(7);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/the server answered 204 with no body where the API sends JSON/);
      expect(result.stderr).not.toMatch(/updated/i);
      expectOneLine(result);
    });

    it('a 200 with text instead of JSON on a read: exit 7', async () => {
      api.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('OK');
      });
      const result = await run(['groups', 'get', 'g_1']);
      expect(result.code).toBe(7);
      expect(result.stderr).toMatch(/a body that is not JSON \(text\/plain: OK\)/);
    });

    it('a DELETE answered 204 is still a success', async () => {
      api.handle(noContent);
      const result = await run(['notes', 'delete', 'n_1', '--yes']);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
    });
  });

  it('JSON after a byte order mark (some servers and proxies add one) is read as JSON', async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(`\uFEFF${JSON.stringify(group)}`);
    });
    const result = await run(['groups', 'get', 'g_1', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(group);
  });

  describe('an answer nested deeper than the stack allows (JSON.parse takes it; JSON.stringify recurses)', () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const nested: Handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const item = { uid: 'g_1', name: 'Acme', slug: 'acme' };
      res.end(
        req.path.endsWith('/groups')
          ? `[${JSON.stringify(item).slice(0, -1)},"extra":${deep(100_000)}}]`
          : deep(100_000),
      );
    };
    it.each([
      [['groups', 'list', '--json']],
      [['groups', 'list', '-o', 'ndjson']],
      [['groups', 'list', '--all', '--json']],
      [['api', 'GET', '/groups']],
      [['api', 'GET', '/groups', '--paginate']],
      [['api', 'GET', '/computers/c_1']],
    ])('mon %j: exit 7, one line that says so, not a crash', async (args) => {
      api.handle(nested);
      const result = await run(args);
      expect(result.code).toBe(7);
      expect(result.stderr).toBe(
        'mon: an answer nests objects or arrays too deeply to handle as JSON — the service or a proxy answered wrongly\n',
      );
    });
    it('a table of the same answer prints (it shows the documented fields only)', async () => {
      api.handle(nested);
      const result = await run(['groups', 'list']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Acme');
    });
  });

  describe('the size of one response is capped', () => {
    /** Peak resident memory of a child, read from outside it (/proc/<pid>/status VmHWM), in MB. */
    async function runWatched(
      args: string[],
      extra: Record<string, string>,
    ): Promise<{ code: number | null; stderr: string; peakMb: number }> {
      const child = spawn(process.execPath, [MON_BIN, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env, ...extra },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      let peakKb = 0;
      const watch = setInterval(() => {
        try {
          const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
        } catch {
          // exited between two looks
        }
      }, 10);
      const killer = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearInterval(watch);
      clearTimeout(killer);
      return { code, stderr, peakMb: Math.round(peakKb / 1024) };
    }

    it('a body without end: reading stops at the cap (32 MiB), exit 7 saying so, not retried, memory bounded', async () => {
      api.handle(endless);
      const result = await runWatched(['computers', 'list', '--json', '--timeout', '10'], {});
      expect(result.code).toBe(7);
      expect(result.stderr).toMatch(
        /^mon: GET \/v2\.5\/computers: the answer is larger than 32 MiB, the most one response may be; reading stopped — /,
      );
      expect(result.stderr).toMatch(/MON_MAX_RESPONSE/);
      expect(api.requests).toHaveLength(1);
      // The process itself is ~60 MB; the capped body adds at most its 32 MiB (and a copy of it).
      expect(result.peakMb).toBeGreaterThan(20);
      expect(result.peakMb).toBeLessThan(250);
    });
    it('MON_MAX_RESPONSE lowers (or raises) the cap; a Content-Length over it stops before reading', async () => {
      const body = JSON.stringify([{ uid: 'c_1', description: 'x'.repeat(2 * 1024 * 1024) }]);
      api.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      });
      const small = await run(['computers', 'list', '--json'], { env: { ...env, MON_MAX_RESPONSE: '1M' } });
      expect(small.code).toBe(7);
      expect(small.stderr).toMatch(
        /the answer is larger than 1 MiB, the most one response may be; reading stopped — raise MON_MAX_RESPONSE \(bytes, or with K, M or G\) if the account really needs more/,
      );
      expect(api.requests).toHaveLength(1);

      const raised = await run(['computers', 'list', '-o', 'ndjson', '--fields', 'uid'], {
        env: { ...env, MON_MAX_RESPONSE: '3M' },
      });
      expect(raised.code).toBe(0);
      expect(raised.stdout).toBe('{"uid":"c_1"}\n');
    });

    it('a bad MON_MAX_RESPONSE is exit 2, nothing sent', async () => {
      // 501M and 4G: V8 holds no answer of 512 MiB as text (a fatal error of V8 when it tried).
      for (const bad of ['lots', '0', '1T', '-5', '501M', '4G']) {
        const result = await run(['groups', 'get', 'g_1'], { env: { ...env, MON_MAX_RESPONSE: bad } });
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          `mon: MON_MAX_RESPONSE: must be a size in bytes, or with K, M or G, from 1K to 500M, the most an answer read as text may be (got '${bad}') — fix or unset MON_MAX_RESPONSE\n`,
        );
      }
      expect(api.requests).toHaveLength(0);
    });
  });

  describe('a DELETE whose first answer was lost', () => {
    it('deleted, then the connection dropped; the retry gets 404: success, and --verbose says why', async () => {
      api.handle(
        scripted(
          (_req, res) => {
            // The server acts on it, then the answer never arrives.
            res.socket?.resetAndDestroy?.() ?? res.socket?.destroy();
          },
          (_req, res) => apiError(res, 404, 'Not found'),
        ),
      );
      const result = await run(['notes', 'delete', 'n_1', '--yes', '--verbose']);
      expect(result.code).toBe(0);
      expect(api.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
      expect(result.stderr).toMatch(
        /^DELETE \/v2\.5\/notes\/n_1: 404 on the retry: the first attempt, whose answer was lost, deleted it$/m,
      );
      expect(result.stderr).toMatch(/Deleted\./);
    });

    it('a 404 on the first attempt is still exit 4', async () => {
      api.handle((_req, res) => apiError(res, 404, 'Not found'));
      const result = await run(['notes', 'delete', 'n_1', '--yes']);
      expect(result.code).toBe(4);
    });

    it('a 404 after a 503 (the server said it did nothing) is still exit 4', async () => {
      api.handle(
        scripted(
          (_req, res) => apiError(res, 503, 'Unavailable', '', { 'retry-after': '0' }),
          (_req, res) => apiError(res, 404, 'Not found'),
        ),
      );
      const result = await run(['notes', 'delete', 'n_1', '--yes']);
      expect(result.code).toBe(4);
      expect(api.requests).toHaveLength(2);
    });
  });

  it('a list whose x-next-page always names another page past the records its x-total counts is a partial read (exit 7), not read until MON_DEADLINE', async () => {
    // Full pages of new computers for any page asked, x-total fixed at 250, a next page always named.
    api.handle((req, res) => {
      const page = Number(req.query.get('page'));
      const size = Number(req.query.get('per_page'));
      const computers = Array.from({ length: size }, (_, i) => ({
        uid: `c_${(page - 1) * size + i + 1}`,
        name: 'mac',
      }));
      json(res, 200, computers, {
        'x-total': '250',
        'x-per-page': String(size),
        'x-page': String(page),
        'x-next-page': String(page + 1),
      });
    });
    // MON_DEADLINE bounds what a walk without this end would do: read until it passes (exit 8).
    // --order created_desc: the pages print as they come (a full read in another order is sorted, held whole first).
    const result = await runMon(
      ['computers', 'list', '--all', '--order', 'created_desc', '-o', 'ndjson', '--fields', 'uid'],
      { env: { ...env, MON_DEADLINE: '5' } },
    );
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(
      /page 3 brings the records read to 300, more than the 250 its x-total counts, and more follow: the list was not read whole/,
    );
    expect(api.requests.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    // The pages before the one that broke the count, as ndjson prints them as they come.
    expect(result.stdout.trim().split('\n')).toHaveLength(200);
  });

  describe('an answer compressed or in another charset, though mon asks for neither (a proxy between)', () => {
    const groups = [{ uid: 'g_1', name: 'Hélène', slug: 'helene' }];
    const text = JSON.stringify(groups);
    const answer =
      (headers: Record<string, string>, body: Buffer): Handler =>
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...headers });
        res.end(body);
      };

    it.each([
      ['gzip', { 'content-encoding': 'gzip' }, gzipSync(text)],
      ['br', { 'content-encoding': 'br' }, brotliCompressSync(text)],
      ['deflate', { 'content-encoding': 'deflate' }, deflateSync(text)],
      ['deflate, raw as some servers send it', { 'content-encoding': 'deflate' }, deflateRawSync(text)],
      ['gzip, then br', { 'content-encoding': 'gzip, br' }, brotliCompressSync(gzipSync(text))],
      ['ISO-8859-1', { 'content-type': 'application/json; charset=ISO-8859-1' }, Buffer.from(text, 'latin1')],
      ['UTF-16', { 'content-type': 'application/json; charset="utf-16le"' }, Buffer.from(text, 'utf16le')],
    ] as const)('%s is read as what it says it is', async (_name, headers, body) => {
      api.handle(answer(headers, body));
      const result = await run(['groups', 'list', '--json']);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(groups);
    });

    it.each([
      [
        'an encoding mon does not decode',
        { 'content-encoding': 'compress' },
        Buffer.from(text),
        "content encoding 'compress', which mon does not decode",
      ],
      [
        'gzip that is not gzip',
        { 'content-encoding': 'gzip' },
        Buffer.from(text),
        'a body that says it is gzip and does not decode as gzip',
      ],
      [
        'a charset mon does not read',
        { 'content-type': 'application/json; charset=x-unknown' },
        Buffer.from(text),
        "charset 'x-unknown', which mon does not read",
      ],
    ] as const)('%s: exit 7 at once, saying so', async (_name, headers, body, said) => {
      api.handle(answer(headers, body));
      const result = await run(['groups', 'list']);
      expect(result.code).toBe(7);
      expect(result.stderr).toBe(
        `mon: GET /v2.5/groups: the server answered 200 with ${said} — the service, or a proxy between, changed the answer\n`,
      );
      expect(api.requests).toHaveLength(1);
    });

    it('a small gzip that inflates past MON_MAX_RESPONSE is stopped there', async () => {
      // 16 MB of spaces is 16 KB of gzip.
      api.handle(answer({ 'content-encoding': 'gzip' }, gzipSync(Buffer.alloc(16 * 1024 * 1024, ' '))));
      const result = await run(['groups', 'list'], { env: { ...env, MON_MAX_RESPONSE: '1M' } });
      expect(result.code).toBe(7);
      expect(result.stderr).toMatch(
        /^mon: GET \/v2\.5\/groups: the answer is larger than 1 MiB, the most one response may be; reading stopped/,
      );
    });
  });

  it('--all --jq prints nothing when a later page fails: jq had the first pages, not the answer', async () => {
    api.handle((req, res) => {
      if (req.query.get('page') !== '1') return apiError(res, 500, 'Internal Server Error');
      json(res, 200, [{ uid: 'c_1', name: 'mac' }], { 'x-total': '2', 'x-per-page': '1', 'x-next-page': '2' });
    });
    const result = await run(['computers', 'list', '--all', '--jq', '.[].uid'], { env: { ...env, MON_RETRIES: '0' } });
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/500/);
  });

  it('Retry-After: 0 still waits a minimum between attempts', async () => {
    api.handle((_req, res) => apiError(res, 429, 'Too many', '', { 'retry-after': '0' }));
    const result = await run(['groups', 'get', 'g_1', '--retries', '3']);
    expect(result.code).toBe(6);
    expect(api.requests).toHaveLength(4);
    // The backoff's base, 500 ms, at the least: not 4 requests in a moment.
    expect(clock.sleeps).toEqual([500, 500, 500]);
  });
});

describe('TLS', () => {
  let plain: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    // A plain TCP service that answers like an HTTP server: not TLS.
    plain = createTcpServer((socket) => {
      connections++;
      socket.on('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    port = (plain.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => plain.close(() => resolve())));

  it('an https URL to a plain-http port: exit 8 at once, the message says TLS, no retry', async () => {
    connections = 0;
    const result = await runMon(['groups', 'get', 'g_1'], {
      env: { MON_BASE_URL: `https://127.0.0.1:${port}`, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(
      /^mon: TLS: the connection to 127\.0\.0\.1:\d+ failed \(ERR_SSL_WRONG_VERSION_NUMBER\)/,
    );
    expectOneLine(result);
    expect(connections).toBe(1);
  });

  it.each([
    [
      'another protocol on the port (an SSH banner)',
      'SSH-2.0-OpenSSH_9.6\r\n',
      /^mon: 127\.0\.0\.1:\d+ did not answer in HTTP\/1\.1 \(Response does not match the HTTP\/1\.1 protocol[^)]*\)\) — check the scheme and port of the base URL \(from MON_BASE_URL\)\n$/,
    ],
    [
      "headers past Node's limit",
      `HTTP/1.1 200 OK\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      /^mon: 127\.0\.0\.1:\d+ answered with headers larger than Node takes \(16 KB, or --max-http-header-size\) — a proxy between may add them\n$/,
    ],
  ])(
    'an answer that is not HTTP/1.1 mon can read (%s): exit 8 at once, one line, no retry',
    async (_what, answer, message) => {
      let asked = 0;
      const odd = createTcpServer((socket) => {
        asked++;
        socket.on('error', () => undefined);
        socket.once('data', () => socket.end(answer));
      });
      await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
      try {
        const result = await runMon(['groups', 'get', 'g_1'], {
          env: { MON_BASE_URL: `http://127.0.0.1:${(odd.address() as AddressInfo).port}`, MON_API_KEY: KEY },
        });
        expect(result.code).toBe(8);
        expect(result.stderr).toMatch(message);
        expectNoKey(result);
        expect(asked).toBe(1);
      } finally {
        await new Promise<void>((resolve) => odd.close(() => resolve()));
      }
    },
  );

  it("NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored for mon's requests, and said once", async () => {
    const tls = selfSignedCert();
    const api = await startFakeApi(ok, { tls });
    try {
      const result = await runMon(['groups', 'get', 'g_1', '--json'], {
        env: { MON_BASE_URL: api.url, MON_API_KEY: KEY, NODE_TLS_REJECT_UNAUTHORIZED: '0' },
      });
      expect(result.code).toBe(8);
      expect(api.requests).toHaveLength(0);
      expect(result.stderr).toMatch(/TLS: the certificate of 127\.0\.0\.1:\d+ is not trusted/);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe(
        'mon: warning: NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: mon always verifies certificates — to trust a private CA, point NODE_EXTRA_CA_CERTS at its certificate file',
      );
      expectNoKey(result);
    } finally {
      await api.close();
    }
  });
});
