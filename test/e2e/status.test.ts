import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';

type Item = Record<string, unknown>;

/**
 * The demo account's figures, counted once by hand from the seed (src/sandbox/seed.ts) and fixed
 * here: the test states what the answer is rather than computing it the way the product does.
 * The seed dates expirations from the day it runs, so the counts hold on any day.
 */
const DEMO = {
  computers: { total: 40, missing: 3, hidden: 4, pending_removal: 1, platforms: { mac: 20, windows: 12, linux: 8 } },
  plugin_results: { total: 213, alerts: 2, warnings: 4, muted: 6, hidden: 39 },
  top_plugins: [
    { name: 'Event Log Errors', alerts: 1 },
    { name: 'Time Machine', alerts: 1 },
  ],
  expirations: { expired: 12, expiring: 1, within_days: 30 },
};

describe('mon status against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.requests.length = 0;
  });

  it("-o json: the demo account's counts, groups ranked by unmuted alerts, then missing computers, then warnings", async () => {
    const result = await runMain(['status', '-o', 'json'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ scope: { groups: null }, ...DEMO });
    expect(report.groups.map((g: Item) => [g.name, g.computers, g.missing, g.alerts, g.warnings])).toEqual([
      ["O'Brien & Sons Plumbing", 2, 0, 1, 0],
      ['Old Office (retired)', 3, 0, 1, 0],
      ['Blue Harbor Legal', 4, 2, 0, 0],
      ['Summit Engineering', 6, 1, 0, 1],
      ['Acme Design', 13, 0, 0, 1],
      ['Café Lumière', 3, 0, 0, 1],
      ['Northwind Clinic', 8, 0, 0, 1],
      ['Atelier Hélène Dubois', 1, 0, 0, 0],
    ]);
  });

  it('--group (repeatable, by name or slug) and --within narrow the counts', async () => {
    const result = await runMain(
      ['status', '--group', 'Acme Design', '--group', 'northwind-clinic', '--within', '400d', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.scope).toEqual({
      groups: [
        { uid: 'g_03jmyljizkkhjr', name: 'Acme Design' },
        { uid: 'g_yv0n0fea4b5xvt', name: 'Northwind Clinic' },
      ],
    });
    expect(report.computers).toEqual({
      total: 21,
      missing: 0,
      hidden: 1,
      pending_removal: 1,
      platforms: { windows: 6, linux: 4, mac: 11 },
    });
    expect(report.plugin_results).toEqual({ total: 108, alerts: 0, warnings: 2, muted: 5, hidden: 20 });
    expect(report.expirations).toMatchObject({ expired: 5, expiring: 3, within_days: 400 });
    expect(report.groups.map((g: Item) => [g.name, g.computers, g.missing, g.alerts, g.warnings])).toEqual([
      ['Acme Design', 13, 0, 0, 1],
      ['Northwind Clinic', 8, 0, 0, 1],
    ]);
  });

  it('one --group is sent to the API as group_id (computers) and group (expirations)', async () => {
    const group = { uid: 'g_03jmyljizkkhjr', name: 'Acme Design' };
    expect((await runMain(['status', '--group', group.name, '--json'], { env })).code).toBe(0);
    const computersRead = sandbox.requests.filter((r) => r.path === '/v2.5/computers');
    expect(computersRead.length).toBeGreaterThan(0);
    for (const request of computersRead) expect(request.query.group_id).toBe(group.uid);
    for (const request of sandbox.requests.filter((r) => r.path === '/v2.5/expirations'))
      expect(request.query.group).toBe(group.uid);
  });

  it('in a pipe: sections with bars, no colour, no progress', async () => {
    const result = await runMain(['status'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatchInlineSnapshot(`
      "Computers: 40
        missing           3  ▌
        hidden            4  ▋
        pending removal   1  ▏
        mac              20  ███▍
        windows          12  ██
        linux             8  █▍

      Plugin results: 213
        Alert (unmuted)            2  ▍
        Warning (unmuted)          4  ▋
        OK (unmuted)             144  ████████████████████████
        Informational (unmuted)   18  ███
        muted                      6  █
        hidden                    39  ██████▌

      Plugins with the most unmuted alerts
        Event Log Errors  1  ▏
        Time Machine      1  ▏

      Groups by unmuted alerts, then missing computers
        O'Brien & Sons Plumbing  1  ▏
        Old Office (retired)     1  ▏
        Blue Harbor Legal        0  2 missing
        Summit Engineering       0  1 missing

      Expirations
        expired                  12  ██
        expiring within 30 days   1  ▏
      "
    `);
  });

  it('on a terminal the bars are coloured, unless NO_COLOR or TERM=dumb says otherwise', async () => {
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
    const dumb = (await onTerminal({ TERM: 'dumb' })).stdout;
    expect(dumb).toMatch(/Computers: \d+/);
    expect(dumb).not.toMatch(/\x1b\[[0-9;]*m/);
    expect((await onTerminal({ TERM: 'dumb', FORCE_COLOR: '1' })).stdout).toMatch(/\x1b\[31m█/);
  });

  it('--check against the sandbox: one Nagios line whose counts match', async () => {
    const result = await runMain(['status', '--check'], { env });
    const { alerts, warnings } = DEMO.plugin_results;
    expect(result.stdout).toBe(
      `MON CRITICAL - ${alerts} alerts, ${warnings} warnings, ${DEMO.computers.missing} missing | alerts=${alerts};;0;0 warnings=${warnings};0;;0 missing=${DEMO.computers.missing};0;;0\n`,
    );
    expect(result.code).toBe(2);
  });

  it('the lines under "Plugin results: N" add up to N, and every bar on the screen is drawn to one scale', async () => {
    const { stdout } = await runMain(['status'], { env });
    const [, total, body] = /^Plugin results: (\d+)\n((?: {2}.*\n)+)/m.exec(stdout)!;
    const numbers = [...body!.matchAll(/^ {2}.*?\s(\d+)(?: |$)/gm)].map(([, n]) => Number(n));
    expect(numbers.reduce((a, b) => a + b, 0)).toBe(Number(total));
    // The same number draws the same bar in every section.
    const bars = new Map<number, Set<string>>();
    for (const [, n, drawn] of stdout.matchAll(/^ {2}\S.*?\s(\d+) {2}([█▏▎▍▌▋▊▉]+)/gm))
      bars.set(Number(n), (bars.get(Number(n)) ?? new Set()).add(drawn!));
    expect([...bars.values()].every((drawn) => drawn.size === 1)).toBe(true);
    expect(bars.get(1)).toEqual(new Set(['▏']));
  });

  it('--dry-run shows the reads in order, key redacted, and sends nothing', async () => {
    const result = await runMain(['status', '--group', 'acme', '--dry-run'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `GET ${sandbox.url}/v2.5/groups?per_page=100&api_key=[REDACTED]`,
        `GET ${sandbox.url}/v2.5/computers?expand[]=plugin_results&group_id=acme&page=1&per_page=100&order=created_desc&api_key=[REDACTED]`,
        `GET ${sandbox.url}/v2.5/expirations?per_page=100&group=acme&api_key=[REDACTED]`,
        '',
      ].join('\n'),
    );
    expect(sandbox.requests).toEqual([]);
  });

  it.each([
    [['--warning-alerts', '3'], '--warning-alerts: thresholds apply only with --check'],
    [['--within', 'soon'], "--within: 'soon' is not a duration such as 30d, 2w or 12h"],
    [['-o', 'csv'], '-o csv: `mon status` prints one report of nested counts, not rows'],
    [['-o', 'tsv'], '-o tsv: `mon status` prints one report of nested counts, not rows'],
  ])('%j is refused before anything is sent', async (args, message) => {
    const result = await runMain(['status', ...args], { env });
    expectRefusedBeforeSending(result, message, sandbox.requests);
  });

  it('--check with -o json: UNKNOWN (exit 3), as every mistake under --check, nothing sent', async () => {
    const result = await runMain(['status', '--check', '-o', 'json'], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe(
      'MON UNKNOWN - --check: prints one Nagios line, so -o json does not apply — a monitor runs `mon status --check`; for the counts, `mon status -o json`\n',
    );
    expect(sandbox.requests).toEqual([]);
  });
});
