import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/api/budget.js';
import { crashLine } from '../../src/main.js';
import { apiError, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';
import { expectNoKey, expectOneLine, KEY } from './support.js';

const group = { uid: 'g_1', name: 'Acme', slug: 'acme' };

describe('the key never shows', () => {
  let api: FakeApi;
  let env: Record<string, string>;

  beforeAll(async () => {
    api = await startFakeApi((_req, res) => json(res, 200, group));
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  it('not in --dry-run (GET and POST, text and json), and nothing is sent', async () => {
    for (const args of [
      ['groups', 'get', 'g_1', '--dry-run'],
      ['groups', 'find-or-create', '--name', 'Acme', '--dry-run', '--json'],
      ['notes', 'create', '--group', 'g_1', '--body', 'x', '--dry-run', '-o', 'ndjson'],
    ]) {
      const result = await runMon(args, { env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('[REDACTED]');
      expectNoKey(result);
    }
    expect(api.requests).toHaveLength(0);
  });

  it('not in --verbose, on success or when the server echoes it back in an error', async () => {
    const fine = await runMon(['groups', 'get', 'g_1', '--verbose', '--json'], { env });
    expect(fine.code).toBe(0);
    expect(fine.stderr).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/v2\.5\/groups\/g_1\?api_key=\[REDACTED\] 200 \(\d+ ms\)/,
    );
    expectNoKey(fine);

    api.handle((req, res) =>
      apiError(
        res,
        422,
        'Invalid',
        `api_key ${req.form.get('api_key')} (${encodeURIComponent(KEY)}) is not allowed here`,
      ),
    );
    const echoed = await runMon(['groups', 'update', 'g_1', '--name', 'Acme', '--verbose'], { env });
    expect(echoed.code).toBe(5);
    expect(echoed.stderr).toMatch(/\[REDACTED\]/);
    expectNoKey(echoed);
    api.handle((_req, res) => json(res, 200, group));
  });

  it('not in a crash line, whatever the error carries (a URL with the key, raw or encoded)', () => {
    const error = new TypeError(
      `fetch failed for https://acme.example.com/v2.5/groups?api_key=${encodeURIComponent(KEY)}&page=2\n    at undici`,
    );
    const line = crashLine(error, { MON_API_KEY: KEY });
    expect(line).toBe(
      'mon: unexpected error: fetch failed for https://acme.example.com/v2.5/groups?api_key=[REDACTED]&page=2\n',
    );
    expect(crashLine(`raw ${KEY} here`, { MON_API_KEY: KEY })).toBe('mon: unexpected error: raw [REDACTED] here\n');
  });
});

describe('files on disk: atomic writes, clear messages for damaged ones', () => {
  it('a damaged config file: exit 2 with one line naming the file, for profile commands and API commands alike', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"acme": {"baseUrl": ', { mode: 0o600 });
    for (const args of [
      ['profile', 'list'],
      ['groups', 'list'],
    ]) {
      const result = await runMon(args, { env: { MON_CONFIG_DIR: dir } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`config file ${join(dir, 'config.json')} is not valid JSON`);
      expectOneLine(result);
    }
  });

  it('a damaged sandbox state file: exit 2 naming it, with the way out', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'sandbox.json'), '{"format":"mon-sandbox","groups":[');
    const result = await runMon(['--sandbox', 'groups', 'list'], { env: { MON_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, 'sandbox.json'));
    expect(result.stderr).toMatch(/mon sandbox reset/);
    expectOneLine(result);
  });

  it('profiles saved by six processes at once leave a valid config file (mode 0600) and no temp files', async () => {
    const dir = tempConfigDir();
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        runMon(['profile', 'add', `p${n}`, '--base-url', `https://p${n}.example.com`, '--api-key-stdin'], {
          env: { MON_CONFIG_DIR: dir },
          input: `${KEY}${n}`,
        }),
      ),
    );
    for (const result of results) expect(result.code).toBe(0);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, unknown> };
    expect(Object.keys(saved.profiles).length).toBeGreaterThanOrEqual(1);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((name) => name !== 'config.json')).toEqual([]);
  });

  it('a damaged rate ledger is not fatal: it is rewritten and the command works', async () => {
    const api = await startFakeApi((_req, res) => json(res, 200, group));
    try {
      const dir = tempConfigDir();
      const ledger = join(dir, 'rate', `${keyFingerprint(KEY)}.json`);
      mkdirSync(join(dir, 'rate'));
      writeFileSync(ledger, '\u0000\u0000garbage');
      const result = await runMon(['groups', 'get', 'g_1', '--json'], {
        env: { MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_CONFIG_DIR: dir },
      });
      expect(result.code).toBe(0);
      expect((JSON.parse(readFileSync(ledger, 'utf8')) as { sent: number[] }).sent).toHaveLength(1);
      expect(readdirSync(join(dir, 'rate'))).toEqual([ledger.split('/').pop()]);
    } finally {
      await api.close();
    }
  });
});
