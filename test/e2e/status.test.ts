import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';
import { readAll } from '../helpers/sandbox-http.js';

type Item = Record<string, unknown>;

/** The report, counted by the test from what it read itself: the same definitions as the README. */
function count(computers: Item[], expirations: Item[], groups: Item[], nowSec: number, withinSec: number) {
  const results = computers.flatMap((c) => (c.plugin_results as Item[]).map((r) => ({ r, c })));
  const shown = results.filter(({ r }) => r.visible !== false);
  const open = shown.filter(({ r }) => r.muted !== true);
  const platforms: Record<string, number> = {};
  for (const c of computers) platforms[c.platform as string] = (platforms[c.platform as string] ?? 0) + 1;
  const alertsBy = new Map<string, number>();
  for (const { r } of open.filter(({ r }) => r.status === 'Alert')) alertsBy.set(r.name as string, (alertsBy.get(r.name as string) ?? 0) + 1);
  const groupUids = [...new Set(computers.map((c) => c.group as string))];
  return {
    computers: {
      total: computers.length,
      missing: computers.filter((c) => c.missing === true).length,
      hidden: computers.filter((c) => c.hidden === true).length,
      pending_removal: computers.filter((c) => c.pending_removal === true).length,
      platforms,
    },
    plugin_results: {
      total: results.length,
      alerts: open.filter(({ r }) => r.status === 'Alert').length,
      warnings: open.filter(({ r }) => r.status === 'Warning').length,
      muted: shown.filter(({ r }) => r.muted === true).length,
      hidden: results.length - shown.length,
    },
    top_plugins: [...alertsBy].map(([name, alerts]) => ({ name, alerts })).sort((a, b) => b.alerts - a.alerts || a.name.localeCompare(b.name)).slice(0, 10),
    groups: groupUids
      .map((uid) => {
        const mine = computers.filter((c) => c.group === uid);
        const mineOpen = open.filter(({ c }) => c.group === uid);
        return {
          uid,
          name: groups.find((g) => g.uid === uid)?.name ?? null,
          computers: mine.length,
          missing: mine.filter((c) => c.missing === true).length,
          alerts: mineOpen.filter(({ r }) => r.status === 'Alert').length,
          warnings: mineOpen.filter(({ r }) => r.status === 'Warning').length,
        };
      })
      .sort((a, b) => b.alerts - a.alerts || b.missing - a.missing || b.warnings - a.warnings || String(a.name).localeCompare(String(b.name))),
    expirations: {
      expired: expirations.filter((e) => typeof e.expires_at === 'number' && e.expires_at < nowSec).length,
      expiring: expirations.filter((e) => typeof e.expires_at === 'number' && e.expires_at >= nowSec && e.expires_at <= nowSec + withinSec).length,
      within_days: withinSec / 86_400,
    },
  };
}

describe('mon status against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let groups: Item[];
  let computers: Item[];
  let expirations: Item[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    groups = await readAll(sandbox, '/v2.5/groups');
    computers = await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results');
    expirations = await readAll(sandbox, '/v2.5/expirations');
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.requests.length = 0;
  });

  it('-o json: every count equals the count made independently from the same data', async () => {
    const before = Math.floor(Date.now() / 1000);
    const result = await runMain(['status', '-o', 'json'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    const want = count(computers, expirations, groups, before, 30 * 86_400);
    expect(report).toMatchObject({ scope: { groups: null }, ...want });
    // The sandbox's fleet has something in every count this test relies on.
    expect(want.computers.missing).toBeGreaterThan(0);
    expect(want.plugin_results.alerts).toBeGreaterThan(0);
    expect(want.plugin_results.muted).toBeGreaterThan(0);
    expect(want.plugin_results.hidden).toBeGreaterThan(0);
    expect(want.expirations.expired + want.expirations.expiring).toBeGreaterThan(0);
  });

  it('--group (repeatable) and --within narrow the counts the same way', async () => {
    const [a, b] = groups.filter((g) => computers.some((c) => c.group === g.uid));
    const before = Math.floor(Date.now() / 1000);
    const result = await runMain(['status', '--group', String(a!.name), '--group', String(b!.slug), '--within', '400d', '--json'], { env });
    expect(result.code).toBe(0);
    const mine = computers.filter((c) => c.group === a!.uid || c.group === b!.uid);
    const theirs = expirations.filter((e) => e.group === a!.uid || e.group === b!.uid);
    const want = count(mine, theirs, groups, before, 400 * 86_400);
    const report = JSON.parse(result.stdout);
    expect(report.scope).toEqual({ groups: [{ uid: a!.uid, name: a!.name }, { uid: b!.uid, name: b!.name }] });
    expect(report.computers).toEqual(want.computers);
    expect(report.plugin_results).toEqual(want.plugin_results);
    expect(report.expirations).toMatchObject(want.expirations);
    expect(report.groups).toMatchObject(want.groups);
  });

  it('one --group is sent to the API as group_id (computers) and group (expirations)', async () => {
    const group = groups[0]!;
    expect((await runMain(['status', '--group', String(group.name), '--json'], { env })).code).toBe(0);
    const computersRead = sandbox.requests.filter((r) => r.path === '/v2.5/computers');
    expect(computersRead.length).toBeGreaterThan(0);
    for (const request of computersRead) expect(request.query.group_id).toBe(group.uid);
    for (const request of sandbox.requests.filter((r) => r.path === '/v2.5/expirations')) expect(request.query.group).toBe(group.uid);
  });

  it('in a pipe: sections with bars, no colour, no progress', async () => {
    const result = await runMain(['status'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const want = count(computers, expirations, groups, Math.floor(Date.now() / 1000), 30 * 86_400);
    expect(result.stdout).toMatch(new RegExp(`^Computers: ${want.computers.total}\\n`));
    expect(result.stdout).toMatch(new RegExp(`\\n  missing +${want.computers.missing}  █`));
    expect(result.stdout).toMatch(new RegExp(`\\n  Alert \\(unmuted\\) +${want.plugin_results.alerts}  █`));
    expect(result.stdout).toContain('\nPlugins with the most unmuted alerts\n');
    expect(result.stdout).toContain(`\n  ${want.top_plugins[0]!.name} `);
    expect(result.stdout).toContain('\nExpirations\n  expired');
    expect(result.stdout).not.toMatch(/\x1b\[/);
  });

  it('on a terminal the bars are coloured, unless NO_COLOR says otherwise', async () => {
    const dir = tempConfigDir();
    // `script` gives mon a real pseudo-terminal, as a person at a shell has.
    const onTerminal = (extra: Record<string, string>) =>
      promisify(execFile)('script', ['-qec', `${process.execPath} ${MON_BIN} status`, '/dev/null'], {
        env: { PATH: process.env.PATH, HOME: dir, MON_CONFIG_DIR: dir, TERM: 'xterm-256color', ...env, ...extra },
        encoding: 'utf8',
      });
    const coloured = (await onTerminal({})).stdout;
    expect(coloured).toMatch(/\x1b\[31m█/);
    expect(coloured).toMatch(/\x1b\[1mComputers: \d+/);
    const plain = (await onTerminal({ NO_COLOR: '1' })).stdout;
    expect(plain).toMatch(/Computers: \d+/);
    expect(plain).not.toMatch(/\x1b\[[0-9;]*m/);
  });

  it('--check against the sandbox: one Nagios line whose counts match', async () => {
    const want = count(computers, expirations, groups, Math.floor(Date.now() / 1000), 30 * 86_400);
    const result = await runMain(['status', '--check'], { env });
    const { alerts, warnings } = want.plugin_results;
    expect(result.stdout).toBe(
      `MON CRITICAL - ${alerts} alert${alerts === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${want.computers.missing} missing | alerts=${alerts};;0;0 warnings=${warnings};0;;0 missing=${want.computers.missing};0;;0\n`,
    );
    expect(result.code).toBe(2);
  });

  it('--dry-run shows the reads in order, key redacted, and sends nothing', async () => {
    const result = await runMain(['status', '--group', 'acme', '--dry-run'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `GET ${sandbox.url}/v2.5/groups?per_page=100&api_key=[REDACTED]`,
        `GET ${sandbox.url}/v2.5/computers?expand[]=plugin_results&group_id=acme&page=1&per_page=100&api_key=[REDACTED]`,
        `GET ${sandbox.url}/v2.5/expirations?per_page=100&group=acme&api_key=[REDACTED]`,
        '',
      ].join('\n'),
    );
    expect(sandbox.requests).toEqual([]);
  });

  it.each([
    [['--warning-alerts', '3'], '--warning-alerts: thresholds apply only with --check'],
    [['--within', 'soon'], "--within: 'soon' is not a duration such as 30d, 2w or 12h"],
  ])('%j is refused before anything is sent', async (args, message) => {
    const result = await runMain(['status', ...args], { env });
    expectRefusedBeforeSending(result, message, sandbox.requests);
  });
});
