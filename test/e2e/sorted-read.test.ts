import { existsSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, page } from '../helpers/fake-fleet.js';
import { runMon, tempDir } from '../helpers/run-mon.js';
import { HELD_IN_MEMORY } from '../../src/api/sorted-read.js';

/**
 * A full read of computers is read in created order and sorted into the order asked (client.ts,
 * STABLE_ORDERS). Past HELD_IN_MEMORY records it keeps their text in an unlinked temporary file
 * (sorted-read.ts), so memory stays flat: the order printed, the file's life and the fallback
 * when no file can be made are what these runs check, through bin/mon as a script runs it.
 */

const KEY = 'k_sorted_read_key';
const COUNT = HELD_IN_MEMORY * 2 + 500;
const T0 = 1_790_000_000;
/** Created newest first; last reports in another order, with ties (same second) and never-reported computers. */
const fleet = Array.from({ length: COUNT }, (_, i) =>
  computer(i + 1, null, [], {
    created_at: T0 - i,
    last_report: i % 10 === 9 ? null : T0 - ((i * 7919) % 1000) * 60,
    computer_name: `host-${i + 1}-é✓`,
  }),
);
const inReportOrder = [...fleet]
  .map((c) => ({ uid: c.uid as string, when: (c.last_report as number | null) ?? Number.NEGATIVE_INFINITY }))
  .sort((a, b) => b.when - a.when || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0))
  .map((c) => c.uid);

const fleetInReportOrder = inReportOrder.map((uid) => fleet.find((c) => c.uid === uid)!);

/** The temporary files of processes still running, as /proc shows them (Linux). */
function openSpools(tmp: string): { link: string; mode: number }[] {
  const found: { link: string; mode: number }[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (link.startsWith(join(tmp, 'mon-sort-')))
          found.push({ link, mode: statSync(`/proc/${pid}/fd/${fd}`).mode & 0o777 });
      } catch {
        // gone meanwhile
      }
    }
  }
  return found;
}

describe(`computers list --all over ${COUNT} computers: sorted through a temporary file`, { timeout: 120_000 }, () => {
  let api: FakeApi;
  /** What /proc showed while the last page was asked for, per TMPDIR. */
  const seen = new Map<string, { link: string; mode: number }[]>();
  let tmpOfRun = '';

  beforeAll(async () => {
    api = await startFakeApi((req, res) => {
      if (req.path !== '/v2.5/computers')
        return json(res, 404, [{ status_code: 404, code: ':not_found', title: 'Not found', details: req.path }]);
      const perPage = Math.min(100, Number(req.query.get('per_page') ?? 50));
      const last = Math.ceil(COUNT / perPage);
      // By the time the last page is asked for, the reader has taken all but the few fetched
      // ahead (paginate.ts): well past HELD_IN_MEMORY, so the file is open now.
      if (Number(req.query.get('page')) === last && process.platform === 'linux')
        seen.set(tmpOfRun, openSpools(tmpOfRun));
      const created = req.query.get('order') === 'created_desc';
      page(req, res, created ? fleet : fleetInReportOrder);
    });
  });
  afterAll(() => api.close());

  const mon = (tmp: string, ...args: string[]) => {
    tmpOfRun = tmp;
    return runMon(args, { env: { MON_BASE_URL: api.url, MON_API_KEY: KEY, TMPDIR: tmp } });
  };

  it('prints every computer once, most recently reported first, ties by uid; the file is gone after', async () => {
    const tmp = tempDir();
    const run = await mon(tmp, 'computers', 'list', '--all', '-o', 'ndjson');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const printed = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(printed.map((c) => c.uid)).toEqual(inReportOrder);
    // The text went through the file and came back the same, field for field.
    const byUid = new Map(fleet.map((c) => [c.uid, c]));
    for (const c of printed) expect(c).toEqual(byUid.get(c.uid as string));
    // (bin/mon keeps Node's compile cache there too.)
    expect(readdirSync(tmp).filter((name) => name.startsWith('mon-sort-'))).toEqual([]);
    if (process.platform !== 'linux') {
      console.warn('sorted-read: /proc is Linux-only; the open temporary file is not looked at here');
      return;
    }
    const spools = seen.get(tmp)!;
    expect(spools).toHaveLength(1);
    // Unlinked as soon as it was open, and readable by its owner alone.
    expect(spools[0]!.link).toMatch(/\(deleted\)$/);
    expect(spools[0]!.mode).toBe(0o600);
  });

  it('a TMPDIR where no file can be made: the same output from memory, said only under --verbose', async () => {
    const notAFolder = join(tempDir(), 'file');
    writeFileSync(notAFolder, '');
    const quiet = await mon(notAFolder, 'computers', 'list', '--all', '-o', 'ndjson');
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
    expect(
      quiet.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { uid: string }).uid),
    ).toEqual(inReportOrder);
    const verbose = await mon(notAFolder, 'computers', 'list', '--all', '-o', 'ndjson', '--verbose');
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/the sorted read stays in memory: ENOTDIR/);
    expect(verbose.stderr).not.toContain(KEY);
    expect(existsSync(notAFolder)).toBe(true);
  });
});
