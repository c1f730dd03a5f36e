import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startFakeApi, type FakeApi, type ReceivedRequest } from '../helpers/fake-api.js';
import { computer, page, result } from '../helpers/fake-fleet.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir } from '../helpers/run-mon.js';

/**
 * A record that moves between pages while a list is read (paginate.ts, rule 5). The API lists
 * computers most recently reported first: 250 computers, x-total 250 throughout; once page 1
 * of a read is served, computer 150 reports and moves to the front, so page 2 serves computer
 * 100 again and computer 150 is never read. Every full read (--all, --count, alerts, status,
 * metrics, report, bulk selections, --changes) reads whole, or says it did not (exit 7).
 */

const KEY = 'k_moved_test_key';
const T0 = 1_790_000_000;
const groups = [
  { uid: 'g_a', slug: 'alpha', name: 'Alpha' },
  { uid: 'g_b', slug: 'beta', name: 'Beta' },
];

/** How the server treats a computer that reports while the list is read. */
type Mode =
  /** As the API: the default order moves it; created_desc does not. Computer 150 reports once. */
  | 'api'
  /** A server that ignores `order`: the move happens in every read (every page 1 served). */
  | 'every-read'
  /** A server that ignores `order`, where computer 150 reports once: the next read is whole. */
  | 'once';

describe('a computer that reports while the account is read', { timeout: 120_000 }, () => {
  let api: FakeApi;
  let mode: Mode = 'api';
  let dir: string;
  /** Each computer's last report; computer n is created n seconds before computer n - 1. */
  let reported: Map<string, number>;
  let reports = 0;
  const fleet = Array.from({ length: 250 }, (_, i) =>
    computer(i + 1, i % 2 === 0 ? 'g_a' : 'g_b', [result(`pr_alert_${i + 1}`, 'SMART Status', 'Alert')], {
      created_at: T0 - i,
      last_report: T0 - i,
    }),
  );
  const reset = () => {
    reported = new Map(fleet.map((c) => [c.uid as string, c.last_report as number]));
    reports = 0;
  };
  const report150 = () => {
    reports++;
    reported.set('c_150', T0 + reports);
  };
  const inDefaultOrder = () =>
    [...fleet].sort(
      (a, b) =>
        reported.get(b.uid as string)! - reported.get(a.uid as string)! ||
        ((a.uid as string) < (b.uid as string) ? -1 : 1),
    );

  function computers(req: ReceivedRequest, res: Parameters<typeof page>[1]): void {
    const expand = req.query.getAll('expand[]').includes('plugin_results');
    const first = Number(req.query.get('page') ?? 1) === 1;
    // 'every-read': each read starts with computer 150 where it was, and it reports again.
    if (first && mode === 'every-read') reported.set('c_150', T0 - 149);
    const stable = mode === 'api' && req.query.get('order') === 'created_desc';
    const items = (stable ? fleet : inDefaultOrder()).map((c) => ({
      ...c,
      last_report: reported.get(c.uid as string),
      plugin_results: expand ? c.plugin_results : undefined,
    }));
    page(req, res, items);
    // After page 1 is served, computer 150 reports (in 'api' and 'once' only the first time).
    if (first && (mode === 'every-read' || reports === 0)) report150();
  }

  const mon = (...args: string[]) =>
    runMain(args, { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_CONFIG_DIR: dir } });
  const lines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    api = await startFakeApi((req, res) => {
      if (req.path === '/v2.5/groups') return page(req, res, groups);
      if (req.path === '/v2.5/computers') return computers(req, res);
      if (req.path === '/v2.5/expirations') return page(req, res, []);
      if (req.method === 'PUT' && req.path.startsWith('/v2.5/plugin_results/')) {
        return json(res, 200, {
          ...result(req.path.split('/').at(-1)!, 'SMART Status', 'Alert'),
          muted: true,
          mute_type: 'ignored',
        });
      }
      json(res, 404, [{ status_code: 404, code: ':not_found', title: 'Not found', details: req.path }]);
    });
  });
  afterAll(() => api.close());
  beforeEach(() => {
    mode = 'api';
    dir = tempConfigDir();
    reset();
    api.requests.length = 0;
  });

  describe('read in the order a report does not change (created_desc), then as the user asked', () => {
    it('computers list --all: every computer once, most recently reported first (computer 150 first)', async () => {
      const run = await mon('computers', 'list', '--all', '-o', 'ndjson');
      expect(run).toMatchObject({ code: 0, stderr: '' });
      const uids = lines(run.stdout).map((c) => c.uid);
      expect(new Set(uids).size).toBe(250);
      expect(uids).toEqual(inDefaultOrder().map((c) => c.uid));
      expect(uids[0]).toBe('c_150');
      expect(
        api.requests.filter((r) => r.path === '/v2.5/computers').every((r) => r.query.get('order') === 'created_desc'),
      ).toBe(true);
    });

    it("computers list --all --order reported_desc (asked for): the user's order; --order created_desc as asked", async () => {
      const reportedDesc = await mon('computers', 'list', '--all', '--order', 'reported_desc', '-o', 'ndjson');
      expect(reportedDesc.code).toBe(0);
      expect(lines(reportedDesc.stdout).map((c) => c.uid)).toEqual(inDefaultOrder().map((c) => c.uid));
      const created = await mon('computers', 'list', '--all', '--order', 'created_desc', '-o', 'ndjson');
      expect(created.code).toBe(0);
      expect(lines(created.stdout).map((c) => c.uid)).toEqual(fleet.map((c) => c.uid));
    });

    it('alerts, alerts --count, status, metrics, report and a bulk mute count all 250', async () => {
      const alerts = await mon('alerts', '-o', 'ndjson');
      expect(alerts.code).toBe(0);
      expect(new Set(lines(alerts.stdout).map((a) => a.uid)).size).toBe(250);
      reset();
      expect(await mon('alerts', '--count')).toMatchObject({ code: 0, stdout: '250\n' });
      reset();
      const status = await mon('status', '-o', 'json');
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({
        computers: { total: 250 },
        plugin_results: { total: 250, alerts: 250 },
      });
      reset();
      const metrics = await mon('status', '-o', 'openmetrics');
      expect(metrics.code).toBe(0);
      const samples = [...metrics.stdout.matchAll(/^mon_computers\{[^}]*\} (\d+)$/gm)].map(([, n]) => Number(n));
      expect(samples.reduce((a, b) => a + b, 0)).toBe(250);
      reset();
      const report = await mon('report');
      expect(report.code).toBe(0);
      expect(report.stdout.replace(/<[^>]+>/g, '')).toMatch(/^250computers /m);
      reset();
      const mute = await mon(
        'plugin',
        'mute',
        '--status',
        'Alert',
        '--ignore',
        '--max',
        '250',
        '--yes',
        '-o',
        'ndjson',
      );
      expect(mute.code).toBe(0);
      expect(new Set(api.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).size).toBe(250);
    });

    it('--changes: no false gone/new pair on the next run', async () => {
      for (const args of [['computers', 'list'], ['alerts']]) {
        reset();
        expect(await mon(...args, '--changes', `c-${args[0]}`)).toMatchObject({ code: 0, stdout: '' });
        reset();
        const next = await mon(...args, '--changes', `c-${args[0]}`);
        expect(next).toMatchObject({ code: 0, stdout: '' });
        expect(next.stderr).toMatch(/^no changes since .* \(250 /);
      }
    });
  });

  describe('a server that ignores the order asked for: the distinct records are counted', () => {
    it('a read the move spoils is read once more where the list is held whole (computers list --all)', async () => {
      mode = 'once';
      const run = await mon('computers', 'list', '--all', '-o', 'ndjson');
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(new Set(lines(run.stdout).map((c) => c.uid)).size).toBe(250);
      expect(api.requests.filter((r) => r.path === '/v2.5/computers' && r.query.get('page') === '1')).toHaveLength(2);
    });

    it.each([
      [['computers', 'list', '--all', '-o', 'json']],
      [['alerts', '-o', 'json']],
      [['alerts', '--count']],
      [['status', '-o', 'json']],
      [['status', '-o', 'openmetrics']],
      [['report']],
      [['plugin', 'mute', '--status', 'Alert', '--ignore', '--yes']],
    ])('mon %j: a move in every read is exit 7 (249 distinct of 250), not a count of 249', async (args) => {
      mode = 'every-read';
      const run = await mon(...args);
      expect(run.code).toBe(7);
      expect(run.stderr).toMatch(
        /249 distinct records read of the 250 x-total announced \(1 read twice\).*not read whole/,
      );
      expect(run.stdout).not.toMatch(/249/);
      expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    });

    it('--changes never saves such a read, and prints no gone/new', async () => {
      for (const args of [['computers', 'list'], ['alerts']]) {
        mode = 'every-read';
        const run = await mon(...args, '--changes', `m-${args[0]}`);
        expect(run).toMatchObject({ code: 7, stdout: '' });
        expect(run.stderr).not.toMatch(/gone|new/);
        const root = join(dir, 'changes');
        const saved = readdirSync(root, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith(`m-${args[0]}.json`));
        expect(saved).toEqual([]);
      }
    });
  });

  it('other lists (no stable order in the API): a group renamed between pages is exit 7, read again once where held whole', async () => {
    const many = Array.from({ length: 150 }, (_, i) => ({
      uid: `g_${String(i).padStart(3, '0')}`,
      slug: `g${i}`,
      name: `Group ${String(i).padStart(3, '0')}`,
    }));
    let renamed = false;
    let everyRead = true;
    api.handle((req, res) => {
      if (req.path !== '/v2.5/groups') return page(req, res, []);
      // Sorted by name: group 120 renamed "Group 000a" moves to page 1 once page 1 is served.
      const items = renamed
        ? [...many]
            .map((g) => (g.uid === 'g_120' ? { ...g, name: 'Group 000a' } : g))
            .sort((a, b) => a.name.localeCompare(b.name))
        : many;
      page(req, res, items);
      if (Number(req.query.get('page') ?? 1) === 1) renamed = everyRead || !renamed ? true : renamed;
    });
    try {
      const list = await mon('groups', 'list', '--all', '--per-page', '100', '-o', 'json');
      expect(list.code).toBe(7);
      expect(list.stderr).toMatch(/GET \/v2\.5\/groups: 149 distinct records read of the 150 x-total announced/);
      // status reads the groups whole before it counts: a second read finds them all.
      renamed = false;
      everyRead = false;
      const status = await mon('status', '-o', 'json');
      expect(status.code).toBe(0);
    } finally {
      api.handle((req, res) => {
        if (req.path === '/v2.5/groups') return page(req, res, groups);
        if (req.path === '/v2.5/computers') return computers(req, res);
        return page(req, res, []);
      });
    }
  });
});
