import { existsSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiError, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, result, type Fleet } from '../helpers/fake-fleet.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';

/**
 * `--changes NAME` end to end: against the sandbox (its data changed between runs through its
 * state file, as another process would), and against a server with known data for faults,
 * payload forms and profiles.
 */

type Item = Record<string, unknown>;

const lines = (stdout: string): Item[] => JSON.parse(stdout === '' ? '[]' : stdout) as Item[];

/** Changes the sandbox's saved state as another writer would: the whole file replaced at once. */
function editSandbox(
  dir: string,
  change: (state: { anchorMs: number; computers: Item[]; groups: Item[] }) => void,
): void {
  const file = join(dir, 'sandbox.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  change(state);
  writeFileSync(`${file}.edit`, JSON.stringify(state));
  renameSync(`${file}.edit`, file);
}

/** The saved state files under a config folder, by account folder and name. */
function stateFiles(dir: string): string[] {
  const root = join(dir, 'changes');
  return readdirSync(root).flatMap((account) => readdirSync(join(root, account)).map((name) => `${account}/${name}`));
}

describe('--changes against the sandbox, its data changed between runs', () => {
  let dir: string;
  const mon = (...args: string[]) => runMain(['--sandbox', ...args], { env: { MON_CONFIG_DIR: dir } });

  beforeEach(() => {
    dir = tempConfigDir();
  });

  it('records a baseline first: nothing on stdout, one line on stderr, a 0600 file of uids and compared values', async () => {
    const first = await mon('computers', 'list', '--status', 'missing', '--changes', 'missing');
    expect(first).toEqual({ code: 0, stdout: '', stderr: "recorded 3 computers as the baseline of 'missing'\n" });
    expect(stateFiles(dir)).toEqual(['@sandbox/missing.json']);
    const file = join(dir, 'changes', '@sandbox', 'missing.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({
      format: 'mon-changes',
      name: 'missing',
      command: '--sandbox computers list --status missing --changes missing',
      fields: ['missing', 'hidden', 'overdue', 'group', 'os_version'],
    });
    // Only the uid and the compared values: never the whole object.
    expect(Object.keys(saved.items)).toHaveLength(3);
    for (const at of Object.values(saved.items as Record<string, number>))
      expect(saved.values[at]).toEqual([true, false, true, expect.stringMatching(/^g_/), expect.any(String)]);

    const again = await mon('computers', 'list', '--status', 'missing', '--changes', 'missing');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^no changes since \d{4}-\d\d-\d\d \d\d:\d\d \(3 computers\)\n$/);
  });

  it('a computer going missing is new, one coming back is gone with its last known values; the next run prints nothing', async () => {
    await mon('computers', 'list', '--status', 'missing', '--changes', 'missing');
    const missing = lines((await mon('computers', 'list', '--status', 'missing', '--json')).stdout);
    let wentMissing = '';
    const cameBack = String(missing[0]!.uid);
    editSandbox(dir, (state) => {
      const now = Math.floor(state.anchorMs / 1000);
      const quiet = state.computers.find(
        (c) => c.report_if_missing === true && now - Number(c.last_report) < 86_400 && c.ignore_missing_until === null,
      )!;
      wentMissing = String(quiet.uid);
      quiet.last_report = now - 30 * 86_400;
      state.computers.find((c) => c.uid === cameBack)!.last_report = now - 60;
    });

    const run = await mon('computers', 'list', '--status', 'missing', '--changes', 'missing', '--json');
    expect(run.code).toBe(0);
    const items = lines(run.stdout);
    expect(items.map((item) => [item.change, item.uid])).toEqual([
      ['new', wentMissing],
      ['gone', cameBack],
    ]);
    // A new item is the object as the API sent it, with `change` first.
    expect(Object.keys(items[0]!)[0]).toBe('change');
    expect(items[0]).toMatchObject({ missing: true, client_id: expect.any(String), computer_name: expect.any(String) });
    const before = missing[0]!;
    expect(items[1]).toEqual({
      change: 'gone',
      uid: cameBack,
      missing: true,
      hidden: false,
      overdue: true,
      group: before.group,
      os_version: before.os_version,
      // The row as it was shown: a gone item still names what left.
      last_row: expect.objectContaining({
        name: before.custom_name ?? before.computer_name,
        client_id: before.client_id,
        platform: before.platform,
        flags: 'missing',
      }),
    });
    expect(run.stderr).toMatch(/^1 new, 0 changed, 1 gone since .* \(3 computers now\)\n$/);

    expect(await mon('computers', 'list', '--status', 'missing', '--changes', 'missing', '--json', '-q')).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('a group move is changed, naming the field; a table leads with CHANGE', async () => {
    await mon('computers', 'list', '--changes', 'fleet');
    let moved = '';
    let target = '';
    editSandbox(dir, (state) => {
      const one = state.computers.find(
        (c) => c.group !== state.groups[1]!.uid && c.account === state.computers[0]!.account,
      )!;
      moved = String(one.uid);
      target = String(state.groups[1]!.uid);
      one.group = target;
    });
    const json = await mon('computers', 'list', '--changes', 'fleet', '--json');
    expect(json.code).toBe(0);
    expect(lines(json.stdout)).toEqual([
      expect.objectContaining({ change: 'changed', changed: ['group'], uid: moved, group: target }),
    ]);

    editSandbox(dir, (state) => {
      state.computers.find((c) => c.uid === moved)!.os_version = 'macOS Tahoe 26.1';
    });
    const table = await mon('computers', 'list', '--changes', 'fleet');
    expect(table.code).toBe(0);
    const [header, row, ...rest] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^CHANGE +CHANGED +UID +CLIENT ID +NAME +GROUP +PLATFORM +OS +LAST REPORT +FLAGS$/);
    expect(row).toMatch(new RegExp(`^changed +os_version +${moved} .*macOS Tahoe 26\\.1`));
    expect(rest).toEqual([]);

    const csv = await mon('computers', 'list', '--changes', 'fleet', '-o', 'csv');
    expect(csv).toMatchObject({ code: 0, stdout: '' });
  });

  it('alerts: a muted alert is gone; with --include-muted the mute is a change', async () => {
    await mon('alerts', '--changes', 'open');
    await mon('alerts', '--include-muted', '--changes', 'all-alerts');
    const open = lines((await mon('alerts', '--json')).stdout);
    const alert = open.find((item) => item.status === 'Alert')!;
    expect((await mon('plugin', 'mute', String(alert.uid), '--ignore', '-q')).code).toBe(0);

    const gone = await mon('alerts', '--changes', 'open', '--json');
    expect(gone.code).toBe(0);
    expect(lines(gone.stdout)).toEqual([
      {
        change: 'gone',
        uid: alert.uid,
        status: 'Alert',
        mute: false,
        last_row: expect.objectContaining({
          computer: (alert.computer as Item).name,
          group: (alert.group as Item).name,
          plugin: alert.name,
        }),
      },
    ]);

    const changed = await mon('alerts', '--include-muted', '--changes', 'all-alerts', '-o', 'ndjson');
    expect(changed.code).toBe(0);
    const [only, ...none] = changed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Item);
    expect(none).toEqual([]);
    expect(only).toMatchObject({
      change: 'changed',
      changed: ['mute'],
      uid: alert.uid,
      muted: true,
      computer: alert.computer,
      group: alert.group,
    });
  });

  it('a gone row in a table and in CSV names the computer, group and plugin it showed last', async () => {
    await mon('alerts', '--changes', 'open-rows');
    const alert = lines((await mon('alerts', '--json')).stdout).find((item) => item.status === 'Alert')!;
    expect((await mon('plugin', 'mute', String(alert.uid), '--ignore', '-q')).code).toBe(0);
    const computerName = String((alert.computer as Item).name);
    const groupName = String((alert.group as Item).name);

    const csv = await mon('alerts', '--changes', 'open-rows', '-o', 'csv', '--reset');
    expect(csv.code).toBe(0);
    // --reset records a new baseline: mute it back first to see a gone row again.
    expect((await mon('plugin', 'unmute', String(alert.uid), '-q')).code).toBe(0);
    await mon('alerts', '--changes', 'open-rows', '--reset');
    expect((await mon('plugin', 'mute', String(alert.uid), '--ignore', '-q')).code).toBe(0);
    const rows = await mon('alerts', '--changes', 'open-rows', '-o', 'csv');
    expect(rows.code).toBe(0);
    const [header, row, ...rest] = rows.stdout.trimEnd().split('\n');
    expect(rest).toEqual([]);
    const cells = Object.fromEntries(header!.split(',').map((key, i) => [key, row!.split(',')[i]]));
    expect(cells).toMatchObject({ change: 'gone', uid: alert.uid, status: 'Alert' });
    expect(row).toContain(computerName);
    expect(row).toContain(String(alert.name));
    expect(rows.stdout).toContain(
      groupName.includes(',') || groupName.includes('"') ? `"${groupName.replaceAll('"', '""')}"` : groupName,
    );
  });

  it('plugin list: a result muted since the last run is changed, naming the mute', async () => {
    const [first] = lines((await mon('computers', 'list', '--json', '--per-page', '1')).stdout);
    const client = String(first!.client_id);
    expect(await mon('plugin', 'list', client, '--changes', 'one')).toMatchObject({ code: 0, stdout: '' });
    const results = lines((await mon('plugin', 'list', client, '--json')).stdout);
    expect((await mon('plugin', 'mute', String(results[0]!.uid), '--timed', '2h', '-q')).code).toBe(0);
    const run = await mon('plugin', 'list', client, '--changes', 'one', '-o', 'csv');
    expect(run.code).toBe(0);
    const [header, row, ...rest] = run.stdout.trimEnd().split('\n');
    expect(header).toBe('change,changed,uid,status,name,last_run,mute');
    expect(row).toMatch(new RegExp(`^changed,mute,${results[0]!.uid},${results[0]!.status},`));
    expect(rest).toEqual([]);
  });

  it('a damaged state is exit 1 naming its file and how to start again, and is left as it was', async () => {
    await mon('groups', 'list', '--changes', 'groups');
    const file = join(dir, 'changes', '@sandbox', 'groups.json');
    writeFileSync(file, '{"format":"mon-changes","version":1,"fields":["name"],"values":[["A"]],"items":{"g_1": ');
    const run = await mon('groups', 'list', '--changes', 'groups');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `mon: the saved state of --changes groups (--sandbox) is damaged (not JSON): ${file} — look at it, then start again with --changes groups --reset (or \`mon changes forget groups\`)\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(
      '{"format":"mon-changes","version":1,"fields":["name"],"values":[["A"]],"items":{"g_1": ',
    );

    const reset = await mon('groups', 'list', '--changes', 'groups', '--reset');
    expect(reset).toEqual({ code: 0, stdout: '', stderr: "recorded 9 groups as the baseline of 'groups'\n" });
    expect(JSON.parse(readFileSync(file, 'utf8')).fields).toEqual([
      'name',
      'hidden',
      'visible_computer_count',
      'hidden_computer_count',
    ]);
  });

  it.each([
    ['another format', '{"format":"other","version":1}', 'format is not mon-changes'],
    [
      'an item that names no values',
      '{"format":"mon-changes","version":1,"saved_at":"2026-11-24T09:00:00Z","fields":["name"],"values":[["A"]],"items":{"g_1":3}}',
      'item g_1 names no set of values',
    ],
    [
      'values of another length',
      '{"format":"mon-changes","version":1,"saved_at":"2026-11-24T09:00:00Z","fields":["name"],"values":[["A","B"]],"items":{}}',
      'values is not a list of one value per field',
    ],
  ])('a state of %s is damaged too', async (_label, text, why) => {
    await mon('groups', 'list', '--changes', 'groups');
    const file = join(dir, 'changes', '@sandbox', 'groups.json');
    writeFileSync(file, text);
    const run = await mon('groups', 'list', '--changes', 'groups');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`is damaged (${why}): ${file} — `);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('--fields chooses what is compared; another set than the saved one is refused before the list is read', async () => {
    await mon('computers', 'list', '--changes', 'names', '--fields', 'name,asset_id');
    editSandbox(dir, (state) => {
      state.computers.find((c) => c.account === state.computers[0]!.account)!.custom_name = 'Front desk';
    });
    const run = await mon('computers', 'list', '--changes', 'names', '--fields', 'name,asset_id', '--json');
    expect(run.code).toBe(0);
    const [changed, ...others] = lines(run.stdout);
    expect(others).toEqual([]);
    expect(Object.keys(changed!)).toEqual(['change', 'changed', 'name', 'asset_id']);
    expect(changed).toMatchObject({ change: 'changed', changed: ['name'], name: 'Front desk' });

    const other = await mon('computers', 'list', '--changes', 'names');
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      'mon: --changes names: its saved state compares name,asset_id, this run missing,hidden,overdue,group,os_version — give the same --fields as its first run, or start again with --changes names --reset\n',
    );
  });

  it('changes list shows each saved NAME with its account (the folder it is saved in: @sandbox for --sandbox), command line, time and count; forget removes one', async () => {
    await mon('computers', 'list', '--status', 'missing', '--changes', 'missing');
    await mon('users', 'list', '--changes', 'people', '--jq', 'map(.email)');
    const list = await runMain(['changes', 'list', '--json'], { env: { MON_CONFIG_DIR: dir } });
    expect(list.code).toBe(0);
    expect(lines(list.stdout)).toEqual([
      {
        profile: '@sandbox',
        name: 'missing',
        command: 'mon --sandbox computers list --status missing --changes missing',
        saved_at: expect.stringMatching(/^\d{4}-.*Z$/),
        items: 3,
        file: join(dir, 'changes', '@sandbox', 'missing.json'),
      },
      {
        profile: '@sandbox',
        name: 'people',
        command: "mon --sandbox users list --changes people --jq 'map(.email)'",
        saved_at: expect.any(String),
        items: 5,
        file: join(dir, 'changes', '@sandbox', 'people.json'),
      },
    ]);
    expect(await mon('changes', 'forget', 'people')).toEqual({
      code: 0,
      stdout: '',
      stderr: "Forgot 'people': its next run records a new baseline.\n",
    });
    expect(stateFiles(dir)).toEqual(['@sandbox/missing.json']);
    const again = await mon('changes', 'forget', 'people');
    expect(again.code).toBe(4);
    expect(again.stderr).toBe("mon: no state saved under 'people' for --sandbox — see `mon changes list`\n");
  });
});

describe('--changes against a server with known data', () => {
  const KEY = 'k_changes_test_key';
  const groups = [
    { uid: 'g_a', slug: 'alpha', name: 'Alpha' },
    { uid: 'g_b', slug: 'beta', name: 'Beta' },
  ];
  let fleet: Fleet;
  let api: FakeApi;
  let failPage: number | undefined;
  let dir: string;
  const env = () => ({ MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_CONFIG_DIR: dir, MON_RETRIES: '0' });

  beforeAll(async () => {
    api = await startFakeApi(
      fleetHandler(
        {
          get groups() {
            return fleet.groups;
          },
          get computers() {
            return fleet.computers;
          },
          get expirations() {
            return fleet.expirations;
          },
        },
        (req, res) => {
          if (req.path !== '/v2.5/computers' || Number(req.query.get('page')) !== failPage) return false;
          apiError(res, 500, 'Internal Server Error');
          return true;
        },
      ),
    );
  });
  afterAll(() => api.close());
  beforeEach(() => {
    dir = tempConfigDir();
    failPage = undefined;
    fleet = {
      groups,
      computers: Array.from({ length: 250 }, (_, i) =>
        computer(i + 1, i % 2 ? 'g_a' : 'g_b', [result(`pr_${i}`, 'Uptime', 'OK')], {
          os_version: 'Ubuntu 24.04',
          last_report: 1_795_000_000,
          report_missing_after: 7,
        }),
      ),
      expirations: [],
    };
    api.requests.length = 0;
  });

  it('a page that fails after its retries prints nothing and keeps the state; the next clean run reports the change', async () => {
    expect((await runMain(['computers', 'list', '--changes', 'fleet'], { env: env() })).code).toBe(0);
    const file = join(dir, 'changes', `@127.0.0.1_${new URL(api.url).port}`, 'fleet.json');
    const saved = readFileSync(file, 'utf8');
    fleet.computers[4]!.group = 'g_a'; // was g_b
    fleet.computers.push(computer(251, 'g_a', []));

    failPage = 3;
    api.requests.length = 0;
    const failed = await runMain(['computers', 'list', '--changes', 'fleet', '-o', 'ndjson'], { env: env() });
    expect(failed.code).toBe(7);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^mon: .*500/);
    // Every page at 100 was asked for, the third failed.
    expect(
      api.requests
        .filter((request) => request.path === '/v2.5/computers')
        .map((request) => request.query.get('per_page')),
    ).toEqual(['100', '100', '100']);
    expect(readFileSync(file, 'utf8')).toBe(saved);
    expect(readdirSync(join(file, '..'))).toEqual(['fleet.json']);

    failPage = undefined;
    const clean = await runMain(['computers', 'list', '--changes', 'fleet', '-o', 'ndjson'], { env: env() });
    expect(clean.code).toBe(0);
    expect(
      clean.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Item)
        .map((item) => [item.change, item.uid, item.changed]),
    ).toEqual([
      ['changed', 'c_5', ['group']],
      ['new', 'c_251', undefined],
    ]);
  });

  it('a lock left by a killed run (untouched for over 10 s) is taken over', async () => {
    expect((await runMain(['computers', 'list', '--changes', 'fleet'], { env: env() })).code).toBe(0);
    const lock = join(dir, 'changes', `@127.0.0.1_${new URL(api.url).port}`, 'fleet.json.lock');
    writeFileSync(lock, '999999');
    const old = new Date(Date.now() - 11_000);
    utimesSync(lock, old, old);
    const run = await runMain(['computers', 'list', '--changes', 'fleet'], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^no changes since/);
    expect(existsSync(lock)).toBe(false);
  });

  it('the same fact in another payload form is not a change', async () => {
    const fields = ['--fields', 'last_report,boot_volume_usage_percent,ard_field_1,hidden,group'];
    fleet.computers = [
      computer(1, 'g_a', [], {
        last_report: 1_795_000_000,
        boot_volume_usage_percent: 41.5,
        ard_field_1: 'Desk 4',
        hidden: false,
      }),
    ];
    expect((await runMain(['computers', 'list', '--changes', 'forms', ...fields], { env: env() })).code).toBe(0);
    // ISO time for epoch, the decimal as a string, the sample's muted_until, the group expanded.
    fleet.computers = [
      computer(1, { uid: 'g_a', name: 'Alpha' } as unknown as string, [], {
        last_report: new Date(1_795_000_000_000).toISOString(),
        boot_volume_usage_percent: '41.50',
        ard_field1: 'Desk 4',
        hidden: false,
      }),
    ];
    const same = await runMain(['computers', 'list', '--changes', 'forms', ...fields, '--json'], { env: env() });
    expect(same).toMatchObject({ code: 0, stdout: '' });
    expect(same.stderr).toMatch(/^no changes since .* \(1 computer\)\n$/);
    fleet.computers = [
      computer(1, 'g_a', [], {
        last_report: 1_795_000_060,
        boot_volume_usage_percent: '41.50',
        ard_field_1: 'Desk 4',
        hidden: false,
      }),
    ];
    const later = await runMain(['computers', 'list', '--changes', 'forms', ...fields, '--json'], { env: env() });
    expect(lines(later.stdout)).toEqual([expect.objectContaining({ change: 'changed', changed: ['last_report'] })]);
  });

  it('the same NAME under two profiles never mixes', async () => {
    for (const name of ['acme', 'globex']) {
      const added = await runMain(['profile', 'add', name, '--base-url', api.url, '--api-key-stdin'], {
        env: { MON_CONFIG_DIR: dir },
        input: KEY,
      });
      expect(added.code).toBe(0);
    }
    const run = (profile: string, ...extra: string[]) =>
      runMain(['-p', profile, 'computers', 'list', '--changes', 'fleet', '--json', ...extra], {
        env: { MON_CONFIG_DIR: dir },
      });
    expect((await run('acme')).stderr).toBe("recorded 250 computers as the baseline of 'fleet'\n");
    fleet.computers.pop();
    // globex has no state of its own yet: a baseline, not acme's differences.
    expect(await run('globex')).toEqual({
      code: 0,
      stdout: '',
      stderr: "recorded 249 computers as the baseline of 'fleet'\n",
    });
    const acme = await run('acme');
    expect(lines(acme.stdout).map((item) => [item.change, item.uid])).toEqual([['gone', 'c_250']]);
    expect((await run('globex', '-q')).stdout).toBe('');
    expect(stateFiles(dir).sort()).toEqual(['acme/fleet.json', 'globex/fleet.json']);
  });

  it.each([
    [
      '--page',
      ['--page', '2'],
      '--changes and --page cannot be used together — --changes compares the whole list, every page; drop --page',
    ],
    ['--offset', ['--offset', '5'], '--changes and --offset cannot be used together'],
    ['--limit', ['--limit', '5'], '--changes and --limit cannot be used together'],
    ['--count', ['--count'], '--changes and --count cannot be used together'],
    [
      'a NAME that is not a file name',
      ['--changes', '../x'],
      "--changes: '../x' is not a NAME of letters, digits, '.', '_' and '-' (starting with a letter or digit, at most 64)",
    ],
    ['--reset alone', ['--reset'], '--reset: forgets the saved state of --changes NAME, so it needs --changes'],
  ])('computers list --changes refuses %s before sending', async (_label, args, message) => {
    const withName = args.includes('--changes') || args.includes('--reset') ? args : ['--changes', 'x', ...args];
    const run = await runMain(['computers', 'list', ...withName], { env: env() });
    expectRefusedBeforeSending(run, message, api.requests);
  });

  it.each([
    ['alerts', ['alerts', '--changes', '../x'], "--changes: '../x' is not a NAME"],
    ['status', ['status', '--changes', 'x'], "unknown option '--changes' for status"],
    [
      'computers get',
      ['computers', 'get', 'CLIENT-1', '--changes', 'x'],
      "unknown option '--changes' for computers get",
    ],
    [
      'notes create',
      ['notes', 'create', '--group', 'g_a', '--body', 'x', '--changes', 'x'],
      "unknown option '--changes' for notes create",
    ],
  ])('%s: --changes is refused where it does not belong, or with a bad NAME', async (_label, args, message) => {
    const run = await runMain(args, { env: env() });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`mon: ${message}`);
    expect(api.requests).toEqual([]);
  });

  it('--dry-run shows the first page it would read and saves nothing', async () => {
    const run = await runMain(['computers', 'list', '--changes', 'fleet', '--dry-run'], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^GET .*\/v2\.5\/computers\?.*page=1&per_page=100/);
    expect(api.requests).toEqual([]);
    expect(() => readdirSync(join(dir, 'changes'))).toThrow();
  });
});

describe('--changes saves only what reached its reader', () => {
  it('a --jq filter that fails over the changes, or stdout on a full disk: the state stays, and the next run prints them again', async () => {
    const dir = tempConfigDir();
    const mon = (...args: string[]) => runMain(['--sandbox', ...args], { env: { MON_CONFIG_DIR: dir } });
    expect((await mon('notes', 'list', '--changes', 'notes', '-q')).code).toBe(0);
    expect((await mon('notes', 'create', '--group', 'Acme Design', '--body', 'kept for the next run')).code).toBe(0);

    const filtered = await mon(
      'notes',
      'list',
      '--changes',
      'notes',
      '--jq',
      'if length > 0 then error("boom") else . end',
    );
    expect(filtered).toMatchObject({ code: 1, stdout: '', stderr: 'mon: --jq: boom\n' });

    // bin/mon itself, its stdout /dev/full: the write fails after the listing was made.
    const { openSync, closeSync } = await import('node:fs');
    const { spawnSync } = await import('node:child_process');
    const full = openSync('/dev/full', 'w');
    try {
      const run = spawnSync(
        process.execPath,
        [MON_BIN, '--sandbox', 'notes', 'list', '--changes', 'notes', '-o', 'ndjson'],
        {
          env: { PATH: process.env.PATH, HOME: dir, MON_CONFIG_DIR: dir },
          stdio: ['ignore', full, 'pipe'],
          encoding: 'utf8',
        },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^mon: could not write to standard output: ENOSPC/);
    } finally {
      closeSync(full);
    }

    const again = await mon('notes', 'list', '--changes', 'notes', '-o', 'ndjson');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('"kept for the next run"');
  });
});

describe('mon changes list over states that are not regular files', () => {
  it('a FIFO and a link to /dev/zero are listed as unreadable (-1), at once', async () => {
    const dir = tempConfigDir();
    expect(
      (await runMain(['--sandbox', 'computers', 'list', '--changes', 'kept', '-q'], { env: { MON_CONFIG_DIR: dir } }))
        .code,
    ).toBe(0);
    const folder = join(dir, 'changes', '@sandbox');
    const { execFileSync } = await import('node:child_process');
    const { symlinkSync } = await import('node:fs');
    execFileSync('mkfifo', ['-m', '600', join(folder, 'fifo.json')]);
    symlinkSync('/dev/zero', join(folder, 'zero.json'));
    const { runMon } = await import('../helpers/run-mon.js');
    const listed = await runMon(['changes', 'list', '-o', 'csv', '--fields', 'name,items'], {
      env: { MON_CONFIG_DIR: dir },
      timeoutMs: 10_000,
    });
    expect(listed).toMatchObject({ code: 0, signal: null, stdout: 'name,items\nfifo,-1\nkept,40\nzero,-1\n' });
    // Read by its own --changes run: damaged, exit 1, as a state that is not JSON is.
    const fifo = await runMon(['--sandbox', 'computers', 'list', '--changes', 'fifo'], {
      env: { MON_CONFIG_DIR: dir },
      timeoutMs: 10_000,
    });
    expect(fifo).toMatchObject({ code: 1, stdout: '' });
    expect(fifo.stderr).toMatch(
      /^mon: the saved state of --changes fifo \(--sandbox\) is damaged \(not a regular file \(it is a FIFO\)\): .* — look at it, then start again with --changes fifo --reset/,
    );
  });
});
