import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { apiError, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, result } from '../helpers/fake-fleet.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { readAll, setMute } from '../helpers/sandbox-http.js';
import { tempDir } from '../helpers/run-mon.js';

type Item = Record<string, unknown>;

/** One plugin result with its computer, as the test reads the account itself. */
interface Row {
  result: Item;
  computer: Item;
}

const sorted = (uids: readonly unknown[]) => [...uids].map(String).sort();
const nowSec = () => Math.floor(Date.now() / 1000);
/** A mute in force, as mon reads it: muted, unless a timed mute whose end has passed. */
const inForce = (r: Item) =>
  r.muted === true && !(r.mute_type === 'timed_mute' && Number(r.mute_until ?? r.muted_until) <= nowSec());

describe('plugin mute|unmute with selectors against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let groups: Item[];
  let rows: Row[];
  const read = async (): Promise<Row[]> => {
    const computers = await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results');
    return computers.flatMap((c) => (c.plugin_results as Item[]).map((r) => ({ result: r, computer: c })));
  };
  const expected = (keep: (row: Row) => boolean) => sorted(rows.filter(keep).map((row) => row.result.uid));
  /** The uids PUT to, in the order sent. */
  const puts = () =>
    sandbox.requests.filter((r) => r.method === 'PUT').map((r) => r.path.replace('/v2.5/plugin_results/', ''));
  const visible = (row: Row) => row.result.visible !== false;

  // Each case starts from the same seed: a fresh sandbox.
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey, TZ: 'UTC' };
    groups = await readAll(sandbox, '/v2.5/groups');
    rows = await read();
    sandbox.requests.length = 0;
  });
  afterEach(() => sandbox.close());

  /** Runs the mute, checks it succeeded, and returns the rows it printed. */
  const bulk = async (args: string[], options: { input?: string } = {}) => {
    const result = await runMain(['plugin', ...args, '--yes', '-o', 'ndjson'], { env, ...options });
    expect(result.stderr).not.toMatch(/^mon: /m);
    expect(result.code).toBe(0);
    return result;
  };
  const printed = (stdout: string) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Item);

  /** The group and the plugin with the most unmuted, visible Alert and Warning results, so that AND has something to pick. */
  const busiest = (key: (row: Row) => unknown) => {
    const counts = new Map<unknown, number>();
    for (const row of rows)
      if (visible(row) && !inForce(row.result) && ['Alert', 'Warning'].includes(String(row.result.status)))
        counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  };

  it.each([
    ['--group G', () => ['--group', String(groups[0]!.name)], (row: Row) => row.computer.group === groups[0]!.uid],
    [
      '--group A --group B (either)',
      () => ['--group', String(groups[0]!.slug), '--group', String(groups[1]!.uid)],
      (row: Row) => [groups[0]!.uid, groups[1]!.uid].includes(row.computer.group),
    ],
    [
      '--group G --status OK (both kinds)',
      () => ['--group', String(groups[0]!.name), '--status', 'OK'],
      (row: Row) => row.computer.group === groups[0]!.uid && row.result.status === 'OK',
    ],
    [
      '--plugin P --status Warning --status Alert',
      () => [
        '--plugin',
        String(busiest((row) => row.result.name)).toLowerCase(),
        '--status',
        'Warning',
        '--status',
        'Alert',
      ],
      (row: Row) =>
        row.result.name === busiest((r) => r.result.name) && ['Warning', 'Alert'].includes(String(row.result.status)),
    ],
    ['--missing', () => ['--missing'], (row: Row) => row.computer.missing === true],
  ])(
    'mute %s PUTs exactly the unmuted, visible results selected, once each, and mutes them',
    async (_label, argsOf, keep) => {
      const want = expected((row) => keep(row) && visible(row) && !inForce(row.result));
      expect(want.length).toBeGreaterThan(1);
      const result = await bulk(['mute', ...argsOf(), '--timed', '2h', '--max', '5000']);
      expect(sorted(puts())).toEqual(want);
      expect(new Set(puts()).size).toBe(puts().length);
      expect(sorted(printed(result.stdout).map((row) => row.uid))).toEqual(want);
      for (const row of printed(result.stdout)) expect(row.outcome).toBe('muted');
      const after = await read();
      for (const uid of want)
        expect(after.find((row) => row.result.uid === uid)!.result).toMatchObject({
          muted: true,
          mute_type: 'timed_mute',
        });
      // Nothing else changed.
      const others = (list: Row[]) =>
        list.filter((row) => !want.includes(String(row.result.uid))).map((row) => row.result);
      expect(others(after)).toEqual(others(rows));
    },
  );

  it('--computer takes a client id and a c_ uid, and the plan names counts and the end of the mute', async () => {
    const [a, b] = [
      ...new Map(
        rows.filter((row) => visible(row) && !inForce(row.result)).map((row) => [row.computer.uid, row.computer]),
      ).values(),
    ];
    const want = expected((row) => [a!.uid, b!.uid].includes(row.computer.uid) && visible(row) && !inForce(row.result));
    const result = await bulk(['mute', '--computer', String(a!.client_id), '--computer', String(b!.uid), '--ignore']);
    expect(sorted(puts())).toEqual(want);
    for (const request of sandbox.requests.filter((r) => r.method === 'PUT'))
      expect(request.form['plugin_result[mute_type]']).toBe('ignored');
    const already = rows.filter(
      (row) => [a!.uid, b!.uid].includes(row.computer.uid) && visible(row) && inForce(row.result),
    ).length;
    expect(result.stderr.split('\n')[0]).toBe(
      `mute ${want.length} plugin results on 2 computers in ${new Set([a!.group, b!.group]).size === 1 ? '1 group' : '2 groups'} until unmuted${already ? `; ${already} more ${already === 1 ? 'is' : 'are'} muted already` : ''}`,
    );
    expect(result.stderr.split('\n')[1]).toBe(`muted ${want.length} plugin results`);
  });

  it('the plan of a timed mute says for how long and until when', async () => {
    // The minute 90 minutes from now, as the plan was made: read before and after the run.
    const minute = () => new Date((nowSec() + 5400) * 1000).toISOString().slice(0, 16).replace('T', ' ');
    const before = minute();
    const result = await bulk(['mute', '--group', String(groups[0]!.name), '--timed', '90m']);
    const after = minute();
    expect(result.stderr.split('\n')[0]).toMatch(
      new RegExp(`^mute \\d+ plugin results on \\d+ computers in 1 group for 1h30m \\(until (${before}|${after})\\)`),
    );
  });

  it('a second run selects nothing: "nothing to mute", exit 0, no PUT', async () => {
    await bulk(['mute', '--group', String(groups[0]!.name), '--ticket', '77']);
    sandbox.requests.length = 0;
    const result = await runMain(['plugin', 'mute', '--group', String(groups[0]!.name), '--ticket', '77'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    // A mute in force is left as it is, one for good too (counted: it is not shortened).
    expect(result.stderr).toMatch(
      /^nothing to mute: the \d+ selected are muted already, \d+ of them not timed \(.+\)\n$/,
    );
    expect(puts()).toEqual([]);
  });

  it('unmute --timed-only picks the timed mutes only, of every status; those not timed stay muted and are counted', async () => {
    // A timed mute on an OK, a Warning and an Alert result besides those of the seed.
    for (const status of ['OK', 'Warning', 'Alert']) {
      const row = rows.find((r) => visible(r) && !inForce(r.result) && r.result.status === status)!;
      await setMute(sandbox, String(row.result.uid), { mute_type: 'timed', mute_until: nowSec() + 3600 });
    }
    rows = await read();
    sandbox.requests.length = 0;
    const timed = (row: Row) => visible(row) && inForce(row.result) && row.result.mute_type === 'timed_mute';
    const untimed = rows.filter((row) => visible(row) && inForce(row.result) && !timed(row));
    const want = expected(timed);
    expect(want.length).toBeGreaterThan(1);
    expect(untimed.length).toBeGreaterThan(0);
    expect(
      new Set(rows.filter((row) => want.includes(String(row.result.uid))).map((row) => row.result.status)).size,
    ).toBeGreaterThan(1);
    const result = await bulk([
      'unmute',
      '--timed-only',
      '--status',
      'OK',
      '--status',
      'Warning',
      '--status',
      'Alert',
      '--status',
      'Informational',
    ]);
    expect(sorted(puts())).toEqual(want);
    for (const request of sandbox.requests.filter((r) => r.method === 'PUT'))
      expect(request.form['plugin_result[mute_type]']).toBe('none');
    for (const row of printed(result.stdout))
      expect(row).toMatchObject({ outcome: 'unmuted', previous: { mute_type: 'timed_mute' }, mute: null });
    expect(result.stderr.split('\n')[0]).toContain(`; ${untimed.length} muted are not timed (`);
    expect(result.stderr.split('\n')[0]).toContain('stay muted (--timed-only)');
    expect(
      sorted((await read()).filter((row) => visible(row) && inForce(row.result)).map((row) => row.result.uid)),
    ).toEqual(sorted(untimed.map((row) => row.result.uid)));
  });

  it('an unmute by selectors lifts every mute, and its plan line says first how many are not timed', async () => {
    const want = expected((row) => visible(row) && inForce(row.result));
    const untimed = rows.filter((row) => visible(row) && inForce(row.result) && row.result.mute_type !== 'timed_mute');
    const result = await bulk([
      'unmute',
      '--status',
      'OK',
      '--status',
      'Warning',
      '--status',
      'Alert',
      '--status',
      'Informational',
    ]);
    expect(sorted(puts())).toEqual(want);
    expect(result.stderr.split('\n')[0]).toMatch(
      new RegExp(
        `^unmute ${want.length} plugin results on \\d+ computers in \\d+ groups, ${untimed.length} of them not timed \\(`,
      ),
    );
    expect((await read()).filter((row) => visible(row) && inForce(row.result))).toEqual([]);
  });

  describe('a window taken back: unmute --from the rows of its mute', () => {
    const group = () => groups.find((g) => g.name === 'Acme Design')!;
    const mutesNow = async () =>
      new Map(
        (await read())
          .filter((row) => inForce(row.result))
          .map((row) => [
            String(row.result.uid),
            `${String(row.result.mute_type)} ${String(row.result.mute_until ?? '')}`,
          ]),
      );

    it('lifts exactly what the window muted: mutes from before it, and one set otherwise since, stay as they are', async () => {
      const before = await mutesNow();
      const window = await bulk(['mute', '--group', String(group().name), '--timed', '2h']);
      const windowRows = printed(window.stdout);
      expect(windowRows.length).toBeGreaterThan(2);
      // Each row records the mute it found (none) and the one it set, as the server answered.
      for (const row of windowRows)
        expect(row).toMatchObject({
          outcome: 'muted',
          previous: null,
          mute: { mute_type: 'timed_mute', mute_until: expect.any(Number) },
        });
      // During the window someone mutes one of them for good: the undo must not lift that.
      const changed = String(windowRows[0]!.uid);
      await setMute(sandbox, changed, { mute_type: 'ignored' });
      const file = join(tempDir(), 'window.ndjson');
      writeFileSync(file, window.stdout);
      sandbox.requests.length = 0;

      const undo = await bulk(['unmute', '--from', file]);
      expect(sorted(puts())).toEqual(sorted(windowRows.map((row) => row.uid).filter((uid) => uid !== changed)));
      for (const request of sandbox.requests.filter((r) => r.method === 'PUT'))
        expect(request.form['plugin_result[mute_type]']).toBe('none');
      expect(undo.stderr.split('\n')[0]).toMatch(
        new RegExp(
          `^unmute ${windowRows.length - 1} plugin results on \\d+ computers in 1 group, taking back the mute of '.*window\\.ndjson'; 1 was muted otherwise since and stays as it is$`,
        ),
      );
      for (const row of printed(undo.stdout))
        expect(row).toMatchObject({ outcome: 'unmuted', previous: { mute_type: 'timed_mute' }, mute: null });
      const after = await mutesNow();
      expect(after.get(changed)).toMatch(/^muted_forever/);
      after.delete(changed);
      expect(after).toEqual(before);

      // Run again: nothing left to take back.
      sandbox.requests.length = 0;
      const again = await bulk(['unmute', '--from', file]);
      expect(again.stderr).toMatch(
        /^nothing to take back of the mute of '.*window\.ndjson': 1 was muted otherwise since and stays as it is; \d+ are unmuted already\n$/,
      );
      expect(puts()).toEqual([]);
    });

    it('puts back the mute a row says was there before, and skips the rows that were not muted', async () => {
      const [first, second] = rows.filter((row) => visible(row) && !inForce(row.result));
      const set = await setMute(sandbox, String(first!.result.uid), {
        mute_type: 'timed',
        mute_until: nowSec() + 3600,
      });
      const lines = [
        {
          uid: first!.result.uid,
          outcome: 'muted',
          reason: null,
          previous: { mute_type: 'muted_forever' },
          mute: { mute_type: 'timed_mute', mute_until: set.mute_until },
        },
        { uid: second!.result.uid, outcome: 'failed', reason: '500', previous: null, mute: null },
      ];
      sandbox.requests.length = 0;
      const result = await bulk(['unmute', '--from', '-'], {
        input: lines.map((line) => JSON.stringify(line)).join('\n'),
      });
      expect(puts()).toEqual([first!.result.uid]);
      expect(sandbox.requests.find((r) => r.method === 'PUT')!.form['plugin_result[mute_type]']).toBe('ignored');
      expect(printed(result.stdout)).toMatchObject([
        { uid: first!.result.uid, outcome: 'restored', mute: { mute_type: 'muted_forever' } },
      ]);
    });

    it('rows mixed with plain uids, or rows without the mute they set, are exit 2 before any request', async () => {
      const uid = String(rows[0]!.result.uid);
      for (const input of [
        `${JSON.stringify({ uid, outcome: 'muted', previous: null, mute: null })}\n${uid}`,
        JSON.stringify({ uid, outcome: 'muted', previous: null }),
      ]) {
        const result = await runMain(['plugin', 'unmute', '--from', '-', '--yes'], { env, input });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          /^mon: --from: line \d of stdin \(\d+ characters?\) (is not a row of a mute's output|is a row of a mute's output whose "mute" is not a mute)/,
        );
        expect(sandbox.requests).toEqual([]);
      }
    });
  });

  it('--from - takes uid lines and ndjson lines mixed, skips blank lines and what is muted already', async () => {
    const unmuted = rows.filter((row) => visible(row) && !inForce(row.result)).slice(0, 4);
    const muted = rows.find((row) => visible(row) && inForce(row.result))!;
    const input = [
      String(unmuted[0]!.result.uid),
      JSON.stringify({ ...unmuted[1]!.result, computer: { name: 'x' } }),
      '',
      `  ${String(unmuted[2]!.result.uid)}  `,
      JSON.stringify({ uid: unmuted[3]!.result.uid }),
      String(muted.result.uid),
      String(unmuted[0]!.result.uid),
    ].join('\n');
    const result = await bulk(['mute', '--from', '-', '--timed', '1d'], { input });
    expect(sorted(puts())).toEqual(sorted(unmuted.map((row) => row.result.uid)));
    expect(result.stderr.split('\n')[0]).toMatch(
      /^mute 4 plugin results on \d+ computers? in \d+ groups? for 1d \(until .+\); 1 more is muted already$/,
    );
  });

  it('--from FILE with the ndjson of mon alerts mutes what alerts listed', async () => {
    const alerts = await runMain(['alerts', '--group', String(groups[1]!.name), '-o', 'ndjson'], { env });
    const file = join(tempDir('mon-from-'), 'alerts.ndjson');
    writeFileSync(file, alerts.stdout);
    sandbox.requests.length = 0;
    await bulk(['mute', '--from', file, '--timed', '2h']);
    expect(sorted(puts())).toEqual(sorted(printed(alerts.stdout).map((row) => row.uid)));
  });

  it('a --from line that is neither a uid nor ndjson with one is exit 2 describing the line, before any request', async () => {
    const input = `${String(rows[0]!.result.uid)}\n{"uid": "pr_ok"}\n\nc_81d0\n`;
    const result = await runMain(['plugin', 'mute', '--from', '-', '--timed', '2h'], { env, input });
    expectRefusedBeforeSending(
      result,
      '--from: line 4 of stdin (6 characters) does not start with pr_',
      sandbox.requests,
    );
    const json = await runMain(['plugin', 'unmute', '--from', '-'], { env, input: '{"name": "Disk Space"}\n' });
    expectRefusedBeforeSending(
      json,
      '--from: line 1 of stdin (22 characters) is a JSON object without a "uid"',
      sandbox.requests,
    );
  });

  it('an unknown uid in --from is exit 4 once the account is read, and nothing is PUT', async () => {
    const result = await runMain(['plugin', 'mute', '--from', '-', '--timed', '2h', '--yes'], {
      env,
      input: `${String(rows[0]!.result.uid)}\npr_nosuchresult\n`,
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      'mon: --from: no plugin result pr_nosuchresult in this account — take the uids from `mon alerts -o ndjson` of the same account\n',
    );
    expect(puts()).toEqual([]);
  });

  it.each([
    ['--group', 'No Such Group', /^mon: --group: no group 'No Such Group'/],
    ['--plugin', 'No Such Plugin', /^mon: --plugin: no plugin named 'No Such Plugin'/],
    ['--computer', 'NO-SUCH-CLIENT', /^mon: --computer: no computer with client id 'NO-SUCH-CLIENT'/],
  ])('an unknown %s is exit 4 and nothing is PUT', async (option, value, message) => {
    const result = await runMain(['plugin', 'mute', option, value, '--timed', '2h', '--yes'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(message);
    expect(puts()).toEqual([]);
  });

  it('without a terminal and without --yes, more than one result is refused (exit 2) and nothing is PUT', async () => {
    const result = await runMain(['plugin', 'mute', '--group', String(groups[0]!.name), '--timed', '2h'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^mon: refusing to mute \d+ plugin results without --yes: no terminal to confirm on — add --yes/,
    );
    expect(puts()).toEqual([]);
  });

  it('--from - without --yes: standard input carries the uids, so nobody can be asked (exit 2, nothing PUT)', async () => {
    const uids = rows
      .filter((row) => visible(row) && !inForce(row.result))
      .slice(0, 2)
      .map((row) => String(row.result.uid));
    const result = await runMain(['plugin', 'mute', '--from', '-', '--ignore'], { env, input: uids.join('\n') });
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'mon: refusing to mute 2 plugin results without --yes: standard input carries the uids, so there is no terminal to confirm on — add --yes (-y) to mute them from a script, or --dry-run to see the requests',
    );
    expect(puts()).toEqual([]);
  });

  it('one selected result needs no --yes', async () => {
    const one = rows.find((row) => visible(row) && !inForce(row.result))!;
    const result = await runMain(['plugin', 'mute', '--from', '-', '--ignore'], {
      env,
      input: `${String(one.result.uid)}\n`,
    });
    expect(result.code).toBe(0);
    expect(puts()).toEqual([one.result.uid]);
  });

  it('a selection over --max is exit 2 and nothing is PUT', async () => {
    const result = await runMain(['plugin', 'mute', '--status', 'OK', '--timed', '2h', '--max', '3', '--yes'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mon: --max: the selectors match \d+ plugin results to mute, more than --max 3 — /);
    expect(puts()).toEqual([]);
  });

  it('the default --max is 1000', async () => {
    await sandbox.close();
    sandbox = await startSandbox({ port: 0, computers: 200 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    const result = await runMain(['plugin', 'mute', '--include-hidden', '--ignore', '--yes'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/more than --max 1000 — /);
    expect(puts()).toEqual([]);
  });

  it.each([
    [
      ['plugin', 'mute', 'pr_4f2a', '--group', 'Acme', '--timed', '2h'],
      'give a plugin result uid or selectors, not both (<uid> pr_4f2a with selectors)',
    ],
    [
      ['plugin', 'unmute', 'pr_4f2a', '--from', '-'],
      'give a plugin result uid or selectors, not both (<uid> pr_4f2a with --from)',
    ],
    [
      ['plugin', 'mute', '--timed', '2h'],
      'missing <uid>: give a plugin result uid (pr_…), or selectors (--group, --computer, --plugin, --status, --missing, --from)',
    ],
    [
      ['plugin', 'unmute'],
      'missing <uid>: give a plugin result uid (pr_…), or selectors (--group, --computer, --plugin, --status, --missing, --from)',
    ],
    [['plugin', 'mute', '--group', 'Acme'], 'give one of --timed, --ticket, --ignore'],
    [
      ['plugin', 'mute', '--group', 'Acme', '--ignore', '--max', '0'],
      '--max: must be a whole number 1 or more (got 0)',
    ],
    [['plugin', 'unmute', '--status', 'Bad'], "--status: 'Bad' is not one of OK, Warning, Alert, Informational"],
  ])('%j is refused before anything is sent', async (args, message) => {
    expectRefusedBeforeSending(await runMain(args, { env }), message, sandbox.requests);
  });
});

describe('plugin mute with selectors when some PUTs fail', () => {
  let api: FakeApi;
  const KEY = 'k_bulk_mute_test_key';
  const groups = [{ uid: 'g_a', slug: 'alpha', name: 'Alpha' }];
  const computers = Array.from({ length: 6 }, (_, i) =>
    computer(i + 1, 'g_a', [
      result(`pr_disk_${i + 1}`, 'Disk Space', 'Alert'),
      { ...result(`pr_up_${i + 1}`, 'Uptime', 'OK', { muted: true }), mute_type: 'muted_forever' },
    ]),
  );
  const failing = new Set(['pr_disk_2', 'pr_disk_5']);

  beforeAll(async () => {
    api = await startFakeApi(
      fleetHandler({ groups, computers, expirations: [] }, (req, res) => {
        if (req.method !== 'PUT') return false;
        const uid = req.path.split('/').at(-1)!;
        if (failing.has(uid)) apiError(res, 500, 'Internal Server Error', 'something broke');
        else json(res, 200, { ...result(uid, 'Disk Space', 'Alert'), muted: true, mute_type: 'muted_forever' });
        return true;
      }),
    );
  });
  afterAll(() => api.close());

  it('a 500 on some PUTs leaves the others done, lists the failed ones, and exits 7', async () => {
    const result = await runMain(['plugin', 'mute', '--group', 'Alpha', '--ignore', '--yes', '-o', 'ndjson'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    expect(result.code).toBe(7);
    const sent = api.requests.filter((r) => r.method === 'PUT').map((r) => r.path.split('/').at(-1));
    // Every selected result was tried once (a PUT is not retried on 500): the muted Uptime ones were not selected.
    expect(sent.sort()).toEqual(['pr_disk_1', 'pr_disk_2', 'pr_disk_3', 'pr_disk_4', 'pr_disk_5', 'pr_disk_6']);
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Item);
    expect(rows.map((row) => [row.uid, row.outcome])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [`pr_disk_${n}`, failing.has(`pr_disk_${n}`) ? 'failed' : 'muted']),
    );
    expect(rows[1]).toMatchObject({
      computer: { uid: 'c_2', client_id: 'CLIENT-2', name: 'host-2' },
      group: { uid: 'g_a', name: 'Alpha' },
      plugin: 'Disk Space',
      reason: expect.stringContaining('500'),
    });
    expect(rows[0]!.reason).toBeNull();
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'mute 6 plugin results on 6 computers in 1 group until unmuted; 6 more are muted already, 6 of them not timed (muted for good), and stay as they are',
    );
    expect(lines[1]).toBe('muted 4 of 6 plugin results; 2 failed');
    expect(lines[2]).toMatch(
      /^mon: 2 of 6 plugin results not muted \(.*500.*\): pr_disk_2, pr_disk_5 — the other 4 are muted; run the same command again to do what is left$/,
    );
    expect(result.stderr).not.toContain(KEY);
  });

  it('when every PUT fails, the hint does not speak of others that were muted', async () => {
    const before = new Set(failing);
    for (let n = 1; n <= 6; n++) failing.add(`pr_disk_${n}`);
    try {
      const result = await runMain(['plugin', 'mute', '--group', 'Alpha', '--ignore', '--yes', '-o', 'ndjson'], {
        env: { MON_BASE_URL: api.url, MON_API_KEY: KEY },
      });
      expect(result.code).toBe(7);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
        /^mon: 6 of 6 plugin results not muted \(.*500.*\): .* — none is muted; run the same command again to do what is left$/,
      );
    } finally {
      failing.clear();
      for (const uid of before) failing.add(uid);
    }
  });
});

describe('plugin mute --ticket on an account without a ticket system', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ticketIntegration: false });
  });
  afterAll(() => sandbox.close());

  it("gets the API's refusal for each result, reported, without stopping the others: exit 5", async () => {
    const result = await runMain(['plugin', 'mute', '--status', 'Alert', '--ticket', '4711', '--yes', '-o', 'csv'], {
      env: { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey },
    });
    expect(result.code).toBe(5);
    const puts = sandbox.requests.filter((r) => r.method === 'PUT');
    expect(puts.length).toBeGreaterThan(1);
    expect(puts.every((r) => r.status === 422)).toBe(true);
    const [header, ...lines] = result.stdout.trimEnd().split('\n');
    expect(header).toBe('uid,computer,group,plugin,outcome,reason');
    expect(lines).toHaveLength(puts.length);
    for (const line of lines) expect(line).toMatch(/^pr_\w+,[^,]+,[^,]+,[^,]+,failed,.*ticket/);
  });
});

describe('plugin mute with selectors when the service stops answering', () => {
  let api: FakeApi;
  const KEY = 'k_bulk_mute_test_key';
  const groups = [{ uid: 'g_a', slug: 'alpha', name: 'Alpha' }];
  const computers = Array.from({ length: 40 }, (_, i) =>
    computer(i + 1, 'g_a', [result(`pr_disk_${i + 1}`, 'Disk Space', 'Alert')]),
  );
  /** Whether PUTs are answered with a 500 (an answer) rather than a reset connection (none). */
  let answered = false;

  beforeAll(async () => {
    api = await startFakeApi(
      fleetHandler({ groups, computers, expirations: [] }, (req, res) => {
        if (req.method !== 'PUT') return false;
        if (answered) apiError(res, 500, 'Internal Server Error', 'something broke');
        else res.socket?.destroy();
        return true;
      }),
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });
  const run = () =>
    runMain(['plugin', 'mute', '--group', 'Alpha', '--ignore', '--yes', '-o', 'ndjson'], {
      env: { MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_RETRIES: '0' },
    });
  const puts = () => api.requests.filter((r) => r.method === 'PUT').length;

  it('no more PUTs start once 8 in a row reached no answer: the rest are said not sent, exit 8', async () => {
    answered = false;
    const result = await run();
    expect(result.code).toBe(8);
    // The 8 in a row, and at most the 3 others already in flight beside the last of them.
    expect(puts()).toBeGreaterThanOrEqual(8);
    expect(puts()).toBeLessThanOrEqual(11);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(
      new RegExp(`^muted 0 of 40 plugin results; ${puts()} failed, ${40 - puts()} not sent$`),
    );
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^mon: ${puts()} of 40 plugin results not muted \\(.*\\): .*; ${40 - puts()} more not sent, as the last 8 PUTs reached no answer — none is muted; run the same command again once the service answers to do what is left$`,
      ),
    );
  });

  it('PUTs that are answered, even with a 500, do not stop the others: all 40 are tried', async () => {
    answered = true;
    const result = await run();
    expect(result.code).toBe(7);
    expect(puts()).toBe(40);
  });
});
