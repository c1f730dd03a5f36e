import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiError, hang, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, result, type Fleet } from '../helpers/fake-fleet.js';
import { testClock } from '../helpers/clock.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';

/**
 * The fleet commands against a server with known data: Nagios lines and exit codes for each
 * state, every kind of failure as UNKNOWN, no partial answer when a page fails, and streaming.
 */

const KEY = 'k_fleet_test_key';
const groups = [
  { uid: 'g_a', slug: 'team-alpha', name: 'Alpha' },
  { uid: 'g_b', slug: 'beta', name: 'Beta' },
];

/** A fleet of `size` computers with the given numbers of unmuted alerts, warnings and missing computers. */
function fleetOf({ size = 12, alerts = 0, warnings = 0, missing = 0 }): Fleet {
  const computers = Array.from({ length: size }, (_, i) => {
    const results = [
      result(`pr_ok_${i}`, 'Uptime', 'OK'),
      // Muted and hidden alerts never count.
      result(`pr_muted_${i}`, 'Disk Space', 'Alert', { muted: true }),
      result(`pr_hidden_${i}`, 'Agent Health', 'Alert', { visible: false }),
    ];
    if (i < alerts) results.push(result(`pr_alert_${i}`, 'SMART Status', 'Alert'));
    if (i < warnings) results.push(result(`pr_warning_${i}`, 'Backups', 'Warning'));
    return computer(i + 1, groups[i % 2]!.uid, results, { missing: i < missing });
  });
  return { groups, computers, expirations: [] };
}

describe('status --check and fleet failures against a server with known data', () => {
  let api: FakeApi;
  let env: Record<string, string>;

  beforeAll(async () => {
    api = await startFakeApi(fleetHandler(fleetOf({})));
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  it.each([
    ['OK', {}, [], 0, 'MON OK - 0 alerts, 0 warnings, 0 missing | alerts=0;;0;0 warnings=0;0;;0 missing=0;0;;0'],
    [
      'WARNING (warnings)',
      { warnings: 2 },
      [],
      1,
      'MON WARNING - 0 alerts, 2 warnings, 0 missing | alerts=0;;0;0 warnings=2;0;;0 missing=0;0;;0',
    ],
    [
      'WARNING (missing)',
      { missing: 1 },
      [],
      1,
      'MON WARNING - 0 alerts, 0 warnings, 1 missing | alerts=0;;0;0 warnings=0;0;;0 missing=1;0;;0',
    ],
    [
      'CRITICAL (one alert)',
      { alerts: 1, warnings: 3 },
      [],
      2,
      'MON CRITICAL - 1 alert, 3 warnings, 0 missing | alerts=1;;0;0 warnings=3;0;;0 missing=0;0;;0',
    ],
    [
      'WARNING within the critical range',
      { alerts: 3 },
      ['--warning-alerts', '2', '--critical-alerts', '5'],
      1,
      'MON WARNING - 3 alerts, 0 warnings, 0 missing | alerts=3;2;5;0 warnings=0;0;;0 missing=0;0;;0',
    ],
    [
      'CRITICAL beyond it',
      { alerts: 6 },
      ['--warning-alerts', '2', '--critical-alerts', '5'],
      2,
      'MON CRITICAL - 6 alerts, 0 warnings, 0 missing | alerts=6;2;5;0 warnings=0;0;;0 missing=0;0;;0',
    ],
    [
      'OK when the thresholds allow it',
      { warnings: 4, missing: 2 },
      ['--warning-warnings', '5', '--warning-missing', '~:2'],
      0,
      'MON OK - 0 alerts, 4 warnings, 2 missing | alerts=0;;0;0 warnings=4;5;;0 missing=2;~:2;;0',
    ],
    [
      'CRITICAL inside an @ range',
      { missing: 2 },
      ['--critical-missing', '@1:3'],
      2,
      'MON CRITICAL - 0 alerts, 0 warnings, 2 missing | alerts=0;;0;0 warnings=0;0;;0 missing=2;;@1:3;0',
    ],
    [
      'CRITICAL below a minimum (N:)',
      {},
      ['--group', 'beta', '--critical-warnings', '1:'],
      2,
      'MON CRITICAL - 0 alerts, 0 warnings, 0 missing (Beta) | alerts=0;;0;0 warnings=0;;1:;0 missing=0;0;;0',
    ],
  ])('%s: the Nagios line and its exit code', async (_state, shape, args, code, line) => {
    api.handle(fleetHandler(fleetOf(shape)));
    const run = await runMain(['status', '--check', ...args], { env });
    expect(run.stdout).toBe(`${line}\n`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(code);
  });

  it('a group name with a |, a line break, perf-like text and an escape: one line, exactly one |, the name cleaned', async () => {
    const hostile = [{ uid: 'g_h', slug: 'ops', name: 'Ops | Prod\nx=1;2;3 \u001b[31mred' }];
    const fleet = fleetOf({ alerts: 1 });
    api.handle(
      fleetHandler({ ...fleet, groups: hostile, computers: fleet.computers.map((c) => ({ ...c, group: 'g_h' })) }),
    );
    const run = await runMain(['status', '--check', '--group', 'g_h'], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(
      'MON CRITICAL - 1 alert, 0 warnings, 0 missing (Ops / Prod x=1;2;3 \\e[31mred) | alerts=1;;0;0 warnings=0;0;;0 missing=0;0;;0\n',
    );
    // The UNKNOWN line cleans what it quotes the same way: a group that does not exist, named as typed.
    const unknown = await runMain(['status', '--check', '--group', 'No | such\ngroup=1;2 \u001b[2J'], { env });
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toMatch(/^MON UNKNOWN - --group: [^\n|\u001b]*No \/ such group=1;2 \\e\[2J[^\n|\u001b]*\n$/);
  });

  it('status -o json over known data: every count', async () => {
    const fleet = fleetOf({ size: 12, alerts: 3, warnings: 2, missing: 1 });
    fleet.computers[5]!.hidden = true;
    fleet.computers[6]!.pending_removal = true;
    const now = Math.floor(Date.now() / 1000);
    fleet.expirations = [
      { uid: 'e_1', group: 'g_a', expires_at: now - 86_400 },
      { uid: 'e_2', group: 'g_b', expires_at: now + 5 * 86_400 },
      { uid: 'e_3', group: 'g_b', expires_at: now + 60 * 86_400 },
      { uid: 'e_4', group: 'g_a', expires_at: null },
    ];
    api.handle(fleetHandler(fleet));
    const run = await runMain(['status', '--json'], { env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      scope: { groups: null },
      computers: { total: 12, missing: 1, hidden: 1, pending_removal: 1, platforms: { windows: 4, linux: 4, mac: 4 } },
      // Each computer: OK, a muted Alert, a hidden Alert; then the alerts and warnings asked for.
      plugin_results: { total: 12 * 3 + 3 + 2, alerts: 3, warnings: 2, muted: 12, hidden: 12 },
      top_plugins: [{ name: 'SMART Status', alerts: 3 }],
      groups: [
        // Computers 1, 3, 5… are in Alpha: alerts on 1 and 3, warnings on 1, missing 1.
        // Visible results by status, muted and unmuted (-o openmetrics): every computer has an OK and a muted Alert.
        {
          uid: 'g_a',
          name: 'Alpha',
          computers: 6,
          missing: 1,
          alerts: 2,
          warnings: 1,
          hidden: 0,
          platforms: { linux: 2, mac: 2, windows: 2 },
          results: { muted: { Alert: 6 }, unmuted: { Alert: 2, OK: 6, Warning: 1 } },
        },
        {
          uid: 'g_b',
          name: 'Beta',
          computers: 6,
          missing: 0,
          alerts: 1,
          warnings: 1,
          hidden: 1,
          platforms: { linux: 2, mac: 2, windows: 2 },
          results: { muted: { Alert: 6 }, unmuted: { Alert: 1, OK: 6, Warning: 1 } },
        },
      ],
      // e_2 ends within 30 days; e_3 within 90.
      expirations: { expired: 1, expiring: 1, within_days: 30, windows: { '30d': 1, '90d': 2 } },
    });
  });

  it('UNKNOWN (3) on a 401, with the reason on the line', async () => {
    api.handle((_req, res) => apiError(res, 401, 'Unauthorized', 'no valid API key'));
    const run = await runMain(['status', '--check'], { env });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      /^MON UNKNOWN - GET \/v2\.5\/groups: 401 Unauthorized: no valid API key — the API key or subdomain is not valid[^\n|]*\n$/,
    );
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it('UNKNOWN (3) after a burst of 500s outlasts the retries', async () => {
    api.handle((_req, res) => apiError(res, 500, 'Internal Server Error'));
    const run = await runMain(['status', '--check', '--retries', '1'], { env });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      /^MON UNKNOWN - GET \/v2\.5\/groups: 500 Internal Server Error \(after 2 attempts\)[^\n|]*\n$/,
    );
    expect(api.requests).toHaveLength(2);
  });

  it('UNKNOWN (3) when the server does not answer in time', async () => {
    api.handle(hang);
    const run = await runMain(['status', '--check', '--timeout', '0.3', '--retries', '0'], { env });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^MON UNKNOWN - no answer from 127\.0\.0\.1:\d+ within 0\.3 s/);
  });

  it.each([
    [['--critical-alerts', 'lots'], "--critical-alerts: 'lots' is not a threshold range"],
    [['--critical-alerts', '5:1'], "--critical-alerts: '5:1' is not a threshold range"],
    [['--bogus'], "unknown option '--bogus'"],
    [['--group', 'nowhere'], "--group: no group 'nowhere'"],
  ])('UNKNOWN (3) for bad input %j', async (args, reason) => {
    api.handle(fleetHandler(fleetOf({})));
    const run = await runMain(['status', '--check', ...args], { env });
    expect(run.code).toBe(3);
    expect(run.stdout.startsWith(`MON UNKNOWN - ${reason}`)).toBe(true);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(api.requests.filter((r) => r.path === '/v2.5/computers')).toEqual([]);
  });

  it('a page that fails after the retries gives no partial answer: status exit 7, --check UNKNOWN, alerts exit 7', async () => {
    const fleet = fleetOf({ size: 350, alerts: 350 });
    api.handle(
      fleetHandler(fleet, (req, res) => {
        if (req.path !== '/v2.5/computers' || req.query.get('page') !== '3') return false;
        apiError(res, 503, 'Service Unavailable');
        return true;
      }),
    );
    const json = await runMain(['status', '-o', 'json', '--retries', '1'], { env, clock: testClock() });
    expect(json.code).toBe(7);
    expect(json.stdout).toBe('');
    expect(json.stderr).toMatch(/^mon: GET \/v2\.5\/computers: 503 Service Unavailable \(after 2 attempts\)/);
    const table = await runMain(['status', '--retries', '1'], { env, clock: testClock() });
    expect(table.code).toBe(7);
    expect(table.stdout).toBe('');
    const check = await runMain(['status', '--check', '--retries', '1'], { env, clock: testClock() });
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/^MON UNKNOWN - GET \/v2\.5\/computers: 503/);
    expect(check.stdout).not.toMatch(/alerts=/);
    const alerts = await runMain(['alerts', '--retries', '1'], { env, clock: testClock() });
    expect(alerts.code).toBe(7);
    expect(alerts.stdout).toBe('');
  });

  it('an ambiguous group name is exit 2 with the candidates, before any computer is read', async () => {
    api.handle(
      fleetHandler({ ...fleetOf({}), groups: [...groups, { uid: 'g_c', slug: 'team-alpha-2', name: 'ALPHA' }] }),
    );
    const run = await runMain(['alerts', '--group', 'alpha'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'mon: --group: \'alpha\' names 2 groups: g_a (team-alpha, "Alpha"), g_c (team-alpha-2, "ALPHA") — give the uid or slug of the one you mean\n',
    );
    expect(api.requests.filter((r) => r.path === '/v2.5/computers')).toEqual([]);
  });

  it('streams: the first ndjson line is out before the server has served the last page', async () => {
    const fleet = fleetOf({ size: 600, alerts: 600 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let lastServed = false;
    api.handle(
      fleetHandler(fleet, async (req) => {
        if (req.path === '/v2.5/computers' && req.query.get('page') === '6') {
          // Held until the test has read a line: a mon that buffered would never print one.
          await released;
          lastServed = true;
        }
        return false;
      }),
    );
    const dir = tempConfigDir();
    const child = spawn(process.execPath, [MON_BIN, 'alerts', '-o', 'ndjson'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, MON_CONFIG_DIR: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const firstLine = new Promise<string>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
    });
    const line = await firstLine;
    expect(lastServed).toBe(false);
    expect(JSON.parse(line)).toMatchObject({
      uid: 'pr_alert_0',
      computer: { uid: 'c_1', client_id: 'CLIENT-1', name: 'host-1' },
      group: { uid: 'g_a', name: 'Alpha' },
    });
    release();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(600);
  });
});
