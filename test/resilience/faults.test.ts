import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiError,
  computersPage,
  hang,
  json,
  reset,
  scripted,
  startFakeApi,
  type FakeApi,
  type Handler,
} from '../helpers/fake-api.js';
import { testClock, type TestClock } from '../helpers/clock.js';
import { runMain } from '../helpers/run-main.js';
import { runMon } from '../helpers/run-mon.js';
import { expectNoKey, expectOneLine, KEY, selfSignedCert } from './support.js';

/**
 * The client under injected faults, over real loopback sockets: every answer a service, a proxy
 * or a network can give, and the exit code of docs/design/cli-contract.md for each. Commands run in-process
 * on a test clock: the waits between retries are read from it, not slept. Timeouts stay on the
 * wall clock (they measure the server), kept short.
 */

const group = { uid: 'g_1', name: 'Acme', slug: 'acme' };
const ok: Handler = (_req, res) => json(res, 200, group);
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    apiError(res, code, `Status ${code}`, '', headers);

describe('retries, timeouts and bodies against a fault-injecting server', () => {
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
    clock = testClock();
  });

  /** mon in-process on the test clock. */
  const runMon = (args: string[], options: { env?: Record<string, string> } = {}) =>
    runMain(args, { ...options, clock });

  it('429 with Retry-After in seconds: waits that long, then succeeds (exit 0)', async () => {
    api.handle(scripted(status(429, { 'retry-after': '1' }), ok));
    const result = await runMon(['groups', 'get', 'g_1', '--json', '--verbose'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(group);
    expect(api.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([1_000]);
    expectNoKey(result);
  });

  it('429 with Retry-After as an HTTP date: waits until then, then succeeds', async () => {
    // HTTP dates have whole seconds: a clock on a whole second makes the wait exact.
    clock = testClock(Math.floor(Date.now() / 1000) * 1000);
    api.handle(scripted(status(429, { 'retry-after': new Date(clock.now() + 2_000).toUTCString() }), ok));
    const result = await runMon(['groups', 'get', 'g_1', '--json'], { env });
    expect(result.code).toBe(0);
    expect(api.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([2_000]);
  });

  it('429 without Retry-After: backs off and retries --retries times, then exits 6 saying when to try again', async () => {
    api.handle(status(429));
    const result = await runMon(['groups', 'get', 'g_1', '--retries', '2'], { env });
    expect(result.code).toBe(6);
    expect(api.requests).toHaveLength(3);
    expect(result.stderr).toMatch(/429.*rate limit.*after 3 attempts.*try again in a minute/);
    expectOneLine(result);
    // Exponential backoff with jitter: half the base (250 ms) plus up to 500·2^attempt.
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(750);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(250);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(1_250);
  });

  it('MON_RETRIES sets the attempts; the last Retry-After is what the message quotes', async () => {
    api.handle(status(429, { 'retry-after': '0' }));
    const first = await runMon(['groups', 'get', 'g_1'], { env: { ...env, MON_RETRIES: '1' } });
    expect(first.code).toBe(6);
    expect(api.requests).toHaveLength(2);
    expect(first.stderr).toMatch(/try again in 0 s/);
  });

  it('429 asking for longer than a minute: no retry, exit 6 at once with the time to come back', async () => {
    api.handle(status(429, { 'retry-after': '3600' }));
    const result = await runMon(['groups', 'get', 'g_1'], { env });
    expect(result.code).toBe(6);
    expect(api.requests).toHaveLength(1);
    expect(result.stderr).toMatch(/try again in 3600 s/);
    expect(clock.sleeps).toEqual([]);
  });

  it('a burst of 502, 503 and 500 on a read is retried until it succeeds', async () => {
    api.handle(scripted(status(502), status(503, { 'retry-after': '0' }), status(500), ok));
    const result = await runMon(['groups', 'get', 'g_1', '--json', '--retries', '3'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(api.requests).toHaveLength(4);
    // The 503's Retry-After: 0 is raised to the backoff's base (500 ms); the others back off.
    expect(clock.sleeps[1]).toBe(500);
    expect(clock.sleeps.filter((ms) => ms >= 250)).toHaveLength(3);
  });

  it('5xx that does not stop: exit 7 after the retries, one line naming the status and the attempts', async () => {
    api.handle(status(503));
    const result = await runMon(['groups', 'get', 'g_1', '--retries', '1'], { env });
    expect(result.code).toBe(7);
    expect(api.requests).toHaveLength(2);
    expect(result.stderr).toMatch(/503.*after 2 attempts/);
    expectOneLine(result);
  });

  it('a PUT is retried after 503 but not after 500 (500 is retried on reads only)', async () => {
    api.handle(scripted(status(503, { 'retry-after': '0' }), ok));
    const retried = await runMon(['groups', 'update', 'g_1', '--name', 'Acme', '--json'], { env });
    expect(retried.code).toBe(0);
    expect(api.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);

    api.requests.length = 0;
    api.handle(status(500));
    const once = await runMon(['groups', 'update', 'g_1', '--name', 'Acme'], { env });
    expect(once.code).toBe(7);
    expect(api.requests).toHaveLength(1);
  });

  it('find-or-create, a POST that is idempotent by name, is retried after a reset', async () => {
    api.handle(scripted(reset, ok));
    const result = await runMon(['groups', 'find-or-create', '--name', 'Acme', '--json'], { env });
    expect(result.code).toBe(0);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v2.5/groups/find_or_create',
      'POST /v2.5/groups/find_or_create',
    ]);
  });

  it('a connection reset is retried for a GET; resets that persist exit 8', async () => {
    api.handle(scripted(reset, ok));
    const recovered = await runMon(['groups', 'get', 'g_1', '--json'], { env });
    expect(recovered.code).toBe(0);
    expect(api.requests).toHaveLength(2);

    api.requests.length = 0;
    api.handle(reset);
    const failed = await runMon(['groups', 'get', 'g_1', '--retries', '1', '--verbose'], { env });
    expect(failed.code).toBe(8);
    expect(api.requests).toHaveLength(2);
    expect(failed.stderr).toMatch(/mon: cannot reach 127\.0\.0\.1:\d+: connection reset \(after 2 attempts\)/);
    expectNoKey(failed);
  });

  it('a server that hangs: exit 8 at --timeout, not retried', async () => {
    api.handle(hang);
    const result = await runMon(['groups', 'get', 'g_1', '--timeout', '1', '--verbose'], { env });
    expect(result.code).toBe(8);
    // Sent once: on a machine busy enough, the one request may not even reach the server in time.
    expect(api.requests.length).toBeLessThanOrEqual(1);
    expect(result.stderr).toMatch(/no answer from 127\.0\.0\.1:\d+ within 1 s — raise --timeout/);
    expectNoKey(result);
  });

  it('a body that trickles past --timeout: exit 8 at --timeout', async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"uid":"g_1",');
      const drip = setInterval(() => (res.writableEnded || res.destroyed ? clearInterval(drip) : res.write(' ')), 50);
      res.on('close', () => clearInterval(drip));
    });
    const result = await runMon(['groups', 'get', 'g_1', '--timeout', '0.4'], { env });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/started to answer but did not finish within 0\.4 s/);
  });

  it('a slow body that ends within --timeout is fine', async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const text = JSON.stringify(group);
      let at = 0;
      const drip = setInterval(() => {
        res.write(text.slice(at, at + 8));
        at += 8;
        if (at >= text.length) {
          clearInterval(drip);
          res.end();
        }
      }, 20);
    });
    const result = await runMon(['groups', 'get', 'g_1', '--json', '--timeout', '3'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(group);
  });

  it('an HTML page from a proxy: exit 7 with a readable line, not a parse trace', async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!DOCTYPE html>\n<html><head><title>Sign in to the proxy</title></head><body><form>…</form></body></html>',
      );
    });
    const result = await runMon(['groups', 'get', 'g_1'], { env });
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/answered 200 with a body that is not JSON \(text\/html: Sign in to the proxy/);
    expect(result.stderr).toMatch(/proxy/);
    expect(result.stderr).not.toMatch(/SyntaxError|Unexpected token/);
    expectOneLine(result);
  });

  it('JSON that ends early (a whole response, cut short): exit 7, not retried as a network error', async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[{"uid":"c_1","client_id":"client-1","computer_na');
    });
    const result = await runMon(['computers', 'list', '-o', 'ndjson'], { env });
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/truncated response/);
    expectOneLine(result);
  });

  it('a body cut off before its Content-Length: retried for a read, then exit 7', async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"uid":"g_1","name":"Ac');
      setTimeout(() => res.destroy(), 20);
    });
    const result = await runMon(['groups', 'get', 'g_1', '--retries', '1'], { env });
    expect(result.code).toBe(7);
    expect(api.requests).toHaveLength(2);
    expect(result.stderr).toMatch(
      /answered 200, then the body broke off after 23 bytes \(truncated response\) \(after 2 attempts\)/,
    );
    expectOneLine(result);
  });

  it('--all stops at the first page that fails for good and prints only whole records before it', async () => {
    const pages = computersPage(30);
    api.handle((req, res, index) =>
      req.query.get('page') === '3' ? status(500)(req, res, index) : pages(req, res, index),
    );
    // --order created_desc: pages print as they come (another order is held whole and sorted first).
    const result = await runMon(
      ['computers', 'list', '--all', '--order', 'created_desc', '--per-page', '10', '-o', 'ndjson', '--retries', '0'],
      { env },
    );
    expect(result.code).toBe(7);
    const lines = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { uid: string }).uid)).toEqual(
      Array.from({ length: 20 }, (_, i) => `c_${i + 1}`),
    );
  });

  it('MON_DEADLINE bounds the whole command, however long --timeout is', async () => {
    api.handle(hang);
    const result = await runMon(['groups', 'get', 'g_1', '--timeout', '30'], { env: { ...env, MON_DEADLINE: '0.4' } });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/did not finish within its deadline of 0\.4 s — raise MON_DEADLINE/);
  });

  it('a retry that cannot end before the deadline is not started', async () => {
    api.handle(status(429, { 'retry-after': '20' }));
    const result = await runMon(['groups', 'get', 'g_1'], { env: { ...env, MON_DEADLINE: '5' } });
    expect(result.code).toBe(6);
    expect(api.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(result.stderr).toMatch(/try again in 20 s/);
  });

  it('a bad MON_DEADLINE or MON_RATE_LIMIT is a usage error (exit 2), no request', async () => {
    for (const bad of [{ MON_DEADLINE: 'soon' }, { MON_RATE_LIMIT: '400 per minute' }] as Record<string, string>[]) {
      const result = await runMon(['groups', 'get', 'g_1'], { env: { ...env, ...bad } });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^mon: ${Object.keys(bad)[0]}: must be`));
    }
    expect(api.requests).toHaveLength(0);
  });

  it("'..' or '.' as an id would resolve to another path: exit 2, no request", async () => {
    for (const id of ['..', '.']) {
      const result = await runMon(['groups', 'get', id], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/cannot name an item/);
    }
    expect(api.requests).toHaveLength(0);
  });

  it('a refused connection exits 8 naming the host', async () => {
    const gone = await startFakeApi(ok);
    const url = gone.url;
    await gone.close();
    const result = await runMon(['groups', 'get', 'g_1', '--retries', '1', '--verbose'], {
      env: { MON_BASE_URL: url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/cannot reach 127\.0\.0\.1:\d+: connection refused/);
    expectNoKey(result);
  });
});

describe('TLS and redirects: the key never travels anywhere it should not', () => {
  // NODE_EXTRA_CA_CERTS is read when a process starts: these spawn bin/mon.
  it('an untrusted certificate: exit 8 with a hint about NODE_EXTRA_CA_CERTS, no retries; trusted through it, the same server works', async () => {
    const tls = selfSignedCert();
    const api = await startFakeApi(ok, { tls });
    try {
      const env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
      const refused = await runMon(['groups', 'get', 'g_1', '--verbose'], { env });
      expect(refused.code).toBe(8);
      expect(refused.stderr).toMatch(
        /TLS: the certificate of 127\.0\.0\.1:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
      );
      expect(refused.stderr).toMatch(/NODE_EXTRA_CA_CERTS/);
      expect(
        refused.stderr
          .trim()
          .split('\n')
          .filter((line) => / failed \(/.test(line)),
      ).toHaveLength(1);
      expect(api.requests).toHaveLength(0);
      expectNoKey(refused);

      const trusted = await runMon(['groups', 'get', 'g_1', '--json'], {
        env: { ...env, NODE_EXTRA_CA_CERTS: tls.certFile },
      });
      expect(trusted.stderr).toBe('');
      expect(trusted.code).toBe(0);
      expect(api.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('a 302 to another host is not followed: exit 7, and nothing reaches the other host', async () => {
    const elsewhere = await startFakeApi(ok);
    const api = await startFakeApi((req, res) => {
      res.writeHead(302, {
        location: `${elsewhere.url}${req.path}?api_key=${encodeURIComponent(req.query.get('api_key') ?? '')}`,
      });
      res.end();
    });
    try {
      const result = await runMon(['groups', 'get', 'g_1', '--verbose'], {
        env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
      });
      expect(result.code).toBe(7);
      expect(api.requests).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
      expect(result.stderr).toMatch(
        /redirect to http:\/\/127\.0\.0\.1:\d+\/v2\.5\/groups\/g_1\?api_key=\[REDACTED\]; redirects are not followed/,
      );
      expectNoKey(result);
    } finally {
      await api.close();
      await elsewhere.close();
    }
  });
});
