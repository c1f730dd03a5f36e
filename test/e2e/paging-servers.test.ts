import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startFakeApi, type FakeApi, type ReceivedRequest } from '../helpers/fake-api.js';
import { computer, page, result } from '../helpers/fake-fleet.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir } from '../helpers/run-mon.js';

/**
 * The one paginator end to end, through `computers list --all`, `alerts`, `status --check` and
 * `--changes`, against a scripted server that pages otherwise than asked: its own page size,
 * an empty page before the end its totals promise, a server that ignores `page`.
 */

const KEY = 'k_paging_test_key';
const groups = [{ uid: 'g_a', slug: 'alpha', name: 'Alpha' }];
/** 250 computers, each with one unmuted alert. */
const computers = Array.from({ length: 250 }, (_, i) =>
  computer(i + 1, 'g_a', [result(`pr_alert_${i + 1}`, 'SMART Status', 'Alert')]),
);

type Paging =
  /** Honours page and per_page, every header (as the API). */
  | 'honest'
  /** Serves 50 a page whatever per_page asks: x-per-page 50, x-total 250, no x-total-pages. */
  | 'fifty'
  /** x-total 250 and x-total-pages 3, but page 2 answers []. */
  | 'hole'
  /** Serves page 1 whatever page is asked, with no pagination header. */
  | 'same'
  /** The list moved while it was read: computer 100 ends page 1 and starts page 2. */
  | 'shifted';

function computersPage(req: ReceivedRequest, res: Parameters<typeof page>[1], paging: Paging): void {
  const items = req.query.getAll('expand[]').includes('plugin_results')
    ? computers
    : computers.map((c) => ({ ...c, plugin_results: undefined }));
  const number = Number(req.query.get('page') ?? 1);
  if (paging === 'honest') return page(req, res, items);
  if (paging === 'fifty') {
    const next = number * 50 < items.length ? String(number + 1) : '';
    return json(res, 200, items.slice((number - 1) * 50, number * 50), {
      'x-page': String(number),
      'x-per-page': '50',
      'x-total': '250',
      'x-next-page': next,
    });
  }
  if (paging === 'same') return json(res, 200, items.slice(0, 100));
  if (paging === 'shifted') {
    const start = number === 1 ? 0 : (number - 1) * 100 - 1;
    return json(res, 200, items.slice(start, start + 100), {
      'x-page': String(number),
      'x-per-page': '100',
      'x-total': '250',
      'x-total-pages': '3',
    });
  }
  const perPage = Number(req.query.get('per_page') ?? 50);
  json(res, 200, number === 2 ? [] : items.slice((number - 1) * perPage, number * perPage), {
    'x-per-page': String(perPage),
    'x-total': '250',
    'x-total-pages': String(Math.ceil(250 / perPage)),
  });
}

// mon runs in-process (the paginator is under test, not the process): generous bounds for a loaded machine, not a measure of speed.
describe('a server that pages otherwise than asked', () => {
  let api: FakeApi;
  let paging: Paging = 'honest';
  let dir: string;
  const mon = (...args: string[]) =>
    runMain(args, { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_CONFIG_DIR: dir } });

  beforeAll(async () => {
    api = await startFakeApi((req, res) => {
      if (req.path === '/v2.5/groups') return page(req, res, groups);
      if (req.path === '/v2.5/computers') return computersPage(req, res, paging);
      if (req.path === '/v2.5/expirations') return page(req, res, []);
      if (req.method === 'PUT' && req.path.startsWith('/v2.5/plugin_results/')) {
        const uid = req.path.split('/').at(-1)!;
        return json(res, 200, { ...result(uid, 'SMART Status', 'Alert'), muted: true, mute_type: 'ignored' });
      }
      json(res, 404, [{ status_code: 404, code: ':not_found', title: 'Not found', details: req.path }]);
    });
  });
  afterAll(() => api.close());
  beforeEach(() => {
    paging = 'honest';
    dir = tempConfigDir();
  });

  it('its own page size (x-per-page 50, x-total 250, no x-total-pages): every computer and alert is read', async () => {
    paging = 'fifty';
    const list = await mon('computers', 'list', '--all', '-o', 'ndjson');
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(
      new Set(
        list.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).uid),
      ).size,
    ).toBe(250);
    const alerts = await mon('alerts', '-o', 'ndjson');
    expect(alerts).toMatchObject({ code: 0, stderr: '' });
    expect(alerts.stdout.trim().split('\n')).toHaveLength(250);
    expect(await mon('status', '--check')).toMatchObject({
      code: 2,
      stdout: expect.stringMatching(/^MON CRITICAL - 250 alerts, /),
    });
  });

  it.each([
    [
      'an empty page 2 before the 3 pages promised',
      'hole' as const,
      /GET \/v2\.5\/computers: page 2 came back empty, with 100 of the 250 records x-total announced read: the list was not read whole/,
    ],
    [
      'the same page whatever page is asked',
      'same' as const,
      /GET \/v2\.5\/computers: page 2 holds the same items as page 1/,
    ],
  ])(
    '%s: computers list --all and alerts exit 7 (a partial read), status --check is UNKNOWN',
    async (_name, kind, message) => {
      paging = kind;
      const list = await mon('computers', 'list', '--all', '-o', 'json');
      expect(list.code).toBe(7);
      expect(list.stderr).toMatch(message);
      const alerts = await mon('alerts', '-o', 'json');
      expect(alerts.code).toBe(7);
      expect(alerts.stderr).toMatch(message);
      const check = await mon('status', '--check');
      expect(check.code).toBe(3);
      expect(check.stdout).toMatch(/^MON UNKNOWN - GET \/v2\.5\/computers: page 2 /);
    },
  );

  it('--changes: a partial read prints nothing, exits 7 and keeps the state; the next good run finds no change', async () => {
    for (const args of [['computers', 'list'], ['alerts']]) {
      const name = args[0]!;
      paging = 'honest';
      expect(await mon(...args, '--changes', name)).toMatchObject({ code: 0, stdout: '' });
      const root = join(dir, 'changes');
      const [account] = readdirSync(root);
      const file = join(root, account!, `${name}.json`);
      const saved = readFileSync(file, 'utf8');

      paging = 'hole';
      const partial = await mon(...args, '--changes', name);
      expect(partial).toMatchObject({ code: 7, stdout: '' });
      expect(partial.stderr).toMatch(/page 2 came back empty/);
      expect(partial.stderr).not.toMatch(/gone/);
      expect(readFileSync(file, 'utf8')).toBe(saved);

      paging = 'honest';
      const again = await mon(...args, '--changes', name);
      expect(again).toMatchObject({ code: 0, stdout: '' });
      expect(again.stderr).toMatch(/^no changes since .* \(250 /);
    }
  });

  describe('a computer served on two pages (the list moved while it was read)', () => {
    const env = () => ({ MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_CONFIG_DIR: dir });
    const puts = () => api.requests.filter((r) => r.method === 'PUT').map((r) => r.path.split('/').at(-1));

    beforeEach(() => {
      paging = 'shifted';
      api.requests.length = 0;
    });

    it('a bulk mute plans and PUTs each result once, and --max counts each once', async () => {
      const run = await runMain(
        ['plugin', 'mute', '--status', 'Alert', '--ignore', '--max', '250', '--yes', '-o', 'ndjson'],
        { env: env() },
      );
      expect(run.stderr).toMatch(/^mute 250 plugin results on 250 computers in 1 group/m);
      expect(run.code).toBe(0);
      expect(puts()).toHaveLength(250);
      expect(new Set(puts()).size).toBe(250);
      expect(run.stdout.trim().split('\n')).toHaveLength(250);
    });

    it('alerts lists each result once, status counts each computer once', async () => {
      const alerts = await runMain(['alerts', '-o', 'ndjson'], { env: env() });
      expect(alerts.code).toBe(0);
      const uids = alerts.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).uid);
      expect(uids).toHaveLength(250);
      expect(new Set(uids).size).toBe(250);
      const status = await runMain(['status', '-o', 'json'], { env: env() });
      expect(JSON.parse(status.stdout)).toMatchObject({
        computers: { total: 250 },
        plugin_results: { total: 250, alerts: 250 },
      });
    });
  });
});
