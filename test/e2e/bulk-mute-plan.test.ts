import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';
import { readAll } from '../helpers/sandbox-http.js';
import { onTerminal } from '../helpers/terminal.js';

type Item = Record<string, unknown>;

/**
 * A bulk mute names what it will do (the plan as rows: computer, group, plugin, status, action),
 * in --dry-run in the chosen format and on a terminal before the question; its --dry-run sends
 * every read the selection needs and no write; the raw requests only with --verbose.
 */
describe('the plan of plugin mute|unmute with selectors', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let groups: Item[];
  let computers: Item[];
  const nowSec = () => Math.floor(Date.now() / 1000);
  const inForce = (r: Item) =>
    r.muted === true && !(r.mute_type === 'timed_mute' && Number(r.mute_until ?? r.muted_until) <= nowSec());
  const writes = () => sandbox.requests.filter((r) => r.method !== 'GET');
  /** The unmuted, visible results of the computers `keep` picks, with their computer. */
  const targets = (keep: (c: Item) => boolean) =>
    computers
      .filter(keep)
      .flatMap((c) =>
        (c.plugin_results as Item[])
          .filter((r) => r.visible !== false && !inForce(r))
          .map((r) => ({ result: r, computer: c })),
      );
  const groupName = (uid: unknown) => groups.find((g) => g.uid === uid)!.name;
  const computerName = (c: Item) => c.custom_name || c.computer_name;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey, TZ: 'UTC' };
    groups = await readAll(sandbox, '/v2.5/groups');
    computers = await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results');
    sandbox.requests.length = 0;
  });
  afterEach(() => sandbox.close());

  it('--dry-run prints the plan as rows in the chosen format (CSV: names), sends no write, and no request line without --verbose', async () => {
    const group = groups[0]!;
    const want = targets((c) => c.group === group.uid);
    expect(want.length).toBeGreaterThan(1);
    const run = await runMain(
      ['plugin', 'mute', '--group', String(group.name), '--timed', '2h', '--dry-run', '-o', 'csv'],
      { env },
    );
    expect(run.code).toBe(0);
    expect(writes()).toEqual([]);
    const [header, ...lines] = run.stdout.trimEnd().split('\n');
    expect(header).toBe('computer,group,plugin,status,action');
    expect(lines).toHaveLength(want.length);
    const expected = want.map(({ result, computer }) =>
      [computerName(computer), group.name, result.name, result.status].join(','),
    );
    expect(lines.map((line) => line.replace(/,mute for 2h \(until [\d-]+ [\d:]+\)$/, '')).sort()).toEqual(
      expected.sort(),
    );
    expect(run.stdout + run.stderr).not.toMatch(/^PUT /m);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      'dry run: no mute was sent (the selection was read to find them; --verbose shows each request)',
    );
  });

  it('--dry-run -o json: one object per result with computer and group objects, status and action', async () => {
    const group = groups[1]!;
    const want = targets((c) => c.group === group.uid);
    const run = await runMain(
      ['plugin', 'mute', '--group', String(group.uid), '--ticket', '4711', '--dry-run', '-o', 'json'],
      { env },
    );
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as Item[];
    expect(rows.map((row) => row.uid).sort()).toEqual(want.map(({ result }) => result.uid).sort());
    const one = want[0]!;
    expect(rows.find((row) => row.uid === one.result.uid)).toEqual({
      uid: one.result.uid,
      computer: { uid: one.computer.uid, client_id: one.computer.client_id, name: computerName(one.computer) },
      group: { uid: group.uid, name: group.name },
      plugin: one.result.name,
      status: one.result.status,
      // The mute in force now: none, for what a mute picks.
      previous: null,
      action: 'mute under ticket #4711',
    });
    expect(writes()).toEqual([]);
  });

  it('--dry-run --verbose adds each PUT on stderr, key redacted', async () => {
    const group = groups[0]!;
    const want = targets((c) => c.group === group.uid);
    const run = await runMain(
      ['plugin', 'mute', '--group', String(group.name), '--ignore', '--dry-run', '--verbose', '-o', 'ndjson'],
      { env },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(want.length);
    const puts = run.stderr.split('\n').filter((line) => line.startsWith('PUT '));
    expect(puts.map((line) => line.split('/').at(-1)).sort()).toEqual(want.map(({ result }) => result.uid).sort());
    expect(run.stderr.split('\n').filter((line) => line.trim() === 'plugin_result[mute_type]=ignored')).toHaveLength(
      want.length,
    );
    expect(run.stdout + run.stderr).not.toContain(sandbox.apiKey);
    expect(writes()).toEqual([]);
  });

  it("--dry-run --computer <client id> sends the lookup and the selection's reads, shows the plan, and sends no write", async () => {
    const computer = computers.find((c) => targets((x) => x === c).length > 1)!;
    const want = targets((c) => c === computer);
    const run = await runMain(
      ['plugin', 'mute', '--computer', String(computer.client_id), '--ignore', '--dry-run', '-o', 'ndjson'],
      { env },
    );
    expect(run.code).toBe(0);
    const paths = sandbox.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain(`GET /v2.5/computers/${String(computer.client_id)}`);
    expect(paths).toContain('GET /v2.5/groups');
    expect(paths).toContain('GET /v2.5/computers');
    expect(writes()).toEqual([]);
    const rows = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Item);
    expect(rows.map((row) => row.uid).sort()).toEqual(want.map(({ result }) => result.uid).sort());
    expect(rows[0]).toMatchObject({
      computer: { client_id: computer.client_id },
      group: { name: groupName(computer.group) },
      action: 'mute until unmuted',
    });
  });

  it('on a terminal the question comes after the plan: its first 20 rows, then how many more', async () => {
    const group = groups[0]!;
    const want = targets((c) => c.group === group.uid);
    expect(want.length).toBeGreaterThan(20);
    const run = await onTerminal(['plugin', 'mute', '--group', `'${String(group.slug)}'`, '--ignore'], env, 'n\r');
    expect(run.code).toBe(1);
    // eslint-disable-next-line no-control-regex
    const screen = run.screen.replace(/\r/g, '').replace(/\x1b\[[0-9;]*m/g, '');
    const header = screen.indexOf('COMPUTER');
    const question = screen.indexOf(`Mute these ${want.length} plugin results? [y/N]`);
    expect(header).toBeGreaterThan(-1);
    expect(question).toBeGreaterThan(header);
    const table = screen.slice(header, screen.indexOf('…', header)).trimEnd().split('\n');
    expect(table[0]).toMatch(/^COMPUTER +GROUP +PLUGIN +STATUS +ACTION$/);
    expect(table).toHaveLength(21);
    for (const row of table.slice(1)) expect(row).toMatch(new RegExp(`${String(group.name)} .* mute until unmuted$`));
    expect(screen).toContain(`… and ${want.length - 20} more\n`);
    expect(writes()).toEqual([]);
  });
});
