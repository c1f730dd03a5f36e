import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, result, type Fleet } from '../helpers/fake-fleet.js';
import { runMain } from '../helpers/run-main.js';
import { readAll } from '../helpers/sandbox-http.js';

/**
 * The same plugin result means the same thing in every command (issue: one answer everywhere).
 * A server the test scripts: the sandbox renders a mute that ran out as unmuted, while an API
 * may still send `muted: true` with the ended timed mute; mon must not believe the stale flag.
 */

const KEY = 'k_one_answer_key';
const now = Math.floor(Date.now() / 1000);
const fleet: Fleet = {
  groups: [{ uid: 'g_a', slug: 'alpha', name: 'Alpha' }],
  computers: [
    computer(1, 'g_a', [
      // muted: true, but the timed mute ended a day ago: not muted.
      result('pr_stale', 'Backups', 'Warning', {
        muted: true,
        mute_type: 'timed_mute',
        mute_until: now - 86_400,
      } as never),
      result('pr_timed', 'Disk Space', 'Alert', {
        muted: true,
        mute_type: 'timed_mute',
        mute_until: now + 86_400,
      } as never),
      result('pr_forever', 'SMART Status', 'Alert', { muted: true, mute_type: 'muted_forever' } as never),
      result('pr_open', 'Uptime', 'Alert'),
    ]),
  ],
  expirations: [],
};

describe('muted means one thing', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  const uids = (stdout: string) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { uid: string }).uid)
      .sort();

  beforeAll(async () => {
    api = await startFakeApi(
      fleetHandler(fleet, (req, res) => {
        // plugin list reads one computer with its plugin results.
        if (req.path !== '/v2.5/computers/CLIENT-1') return false;
        json(res, 200, fleet.computers[0]);
        return true;
      }),
    );
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());

  it('plugin list --muted and --unmuted agree with alerts about a timed mute that has ended', async () => {
    const muted = await runMain(['plugin', 'list', 'CLIENT-1', '--muted', '-o', 'ndjson'], { env });
    expect(muted.stderr).toBe('');
    expect(uids(muted.stdout)).toEqual(['pr_forever', 'pr_timed']);
    const unmuted = await runMain(['plugin', 'list', 'CLIENT-1', '--unmuted', '-o', 'ndjson'], { env });
    expect(uids(unmuted.stdout)).toEqual(['pr_open', 'pr_stale']);
  });

  it('alerts and alerts --muted draw the same line', async () => {
    const alerts = await runMain(['alerts', '-o', 'ndjson'], { env });
    expect(alerts.code).toBe(0);
    expect(uids(alerts.stdout)).toEqual(['pr_open', 'pr_stale']);
    const mutedAlerts = await runMain(['alerts', '--muted', '-o', 'ndjson'], { env });
    expect(uids(mutedAlerts.stdout)).toEqual(['pr_forever', 'pr_timed']);
  });

  it('status counts it as an unmuted warning, and a bulk mute picks it as not yet muted', async () => {
    const status = await runMain(['status', '-o', 'json'], { env });
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as { plugin_results: unknown }).plugin_results).toEqual({
      total: 4,
      alerts: 1,
      warnings: 1,
      muted: 2,
      hidden: 0,
    });

    // --dry-run --verbose shows each PUT that would be sent, on stderr.
    const puts = (stderr: string) =>
      [...stderr.matchAll(/PUT \S*plugin_results\/(pr_\w+)/g)].map((match) => match[1]).sort();
    const mute = await runMain(['plugin', 'mute', '--group', 'Alpha', '--ignore', '--dry-run', '--verbose'], { env });
    expect(mute.code).toBe(0);
    expect(puts(mute.stderr)).toEqual(['pr_open', 'pr_stale']);
    // An unmute lifts every mute in force; with --timed-only, the timed one alone.
    const unmute = await runMain(['plugin', 'unmute', '--group', 'Alpha', '--timed-only', '--dry-run', '--verbose'], {
      env,
    });
    expect(puts(unmute.stderr)).toEqual(['pr_timed']);
    const all = await runMain(['plugin', 'unmute', '--group', 'Alpha', '--dry-run', '--verbose'], { env });
    expect(puts(all.stderr)).toEqual(['pr_forever', 'pr_timed']);
  });
});

type Item = Record<string, unknown>;
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Item);

describe('the same option and value mean the same in every command (sandbox)', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let computers: Item[];
  let clientId: string;
  // In-process: what an option means is under test, not the process (run-main.ts says why).
  const mon = (...args: string[]) => runMain(args, { env });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    computers = await readAll(sandbox, '/v2.5/computers');
    clientId = String(computers[0]!.client_id);
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.requests.length = 0;
  });

  it.each([
    [
      ['computers', 'list', '--group', 'Acme Design', '--group', 'Northwind Clinic'],
      /^mon: --group: given twice \('Acme Design', then 'Northwind Clinic'\); it takes one value — .*`mon alerts --group A --group B` takes several\n$/,
    ],
    [
      ['computers', 'list', '--status', 'missing', '--status', 'hidden'],
      /^mon: --status: given twice \('missing', then 'hidden'\); it takes one value — /,
    ],
    [['-o', 'json', 'computers', 'list', '-o', 'csv'], /^mon: --output: given twice \('json', then 'csv'\)/],
    // --json is short for -o json: with -o as well, the output is given twice, whichever comes first.
    [
      ['computers', 'list', '-o', 'csv', '--json'],
      /^mon: --output: given twice \('csv', then --json\); it takes one value — /,
    ],
    [['--json', 'computers', 'list', '-o', 'table'], /^mon: --output: given twice \(--json, then 'table'\)/],
    [
      ['plugin', 'mute', '--group', 'Acme Design', '--timed', '2h', '--timed', '3h'],
      /^mon: --timed: given twice \('2h', then '3h'\)/,
    ],
    [
      ['notes', 'update', 'n_1', '--private', '--no-private'],
      /^mon: --private: given as --private and as --no-private — keep one of --private and --no-private\n$/,
    ],
  ])(
    'a repeated option the API takes once is refused, naming it, before anything is sent: %j',
    async (args, message) => {
      const result = await mon(...args);
      expect(result.stderr).toMatch(message);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(sandbox.requests).toEqual([]);
    },
  );

  it('a repeated --group of alerts is either group, as before', async () => {
    const [both, acme, northwind] = await Promise.all([
      mon('alerts', '--group', 'Acme Design', '--group', 'northwind-clinic', '--include-muted', '--count'),
      mon('alerts', '--group', 'Acme Design', '--include-muted', '--count'),
      mon('alerts', '--group', 'Northwind Clinic', '--include-muted', '--count'),
    ]);
    expect(Number(both.stdout)).toBe(Number(acme.stdout) + Number(northwind.stdout));
    expect(Number(both.stdout)).toBeGreaterThan(0);
  });

  it('enumerated values are taken in any case and sent as the API spells them', async () => {
    const lower = await mon('alerts', '--status', 'alert', '-o', 'ndjson');
    expect(lower.stderr).toBe('');
    expect(lower.code).toBe(0);
    const exact = await mon('alerts', '--status', 'Alert', '-o', 'ndjson');
    expect(lower.stdout).toBe(exact.stdout);
    expect(lines(lower.stdout).length).toBeGreaterThan(0);

    sandbox.requests.length = 0;
    const missing = await mon('computers', 'list', '--status', 'Missing', '--platform', 'MAC', '-o', 'ndjson');
    expect(missing.code).toBe(0);
    expect(sandbox.requests[0]?.query).toMatchObject({ status: 'missing', platform: 'mac' });
    expect(
      lines(missing.stdout)
        .map((c) => c.client_id)
        .sort(),
    ).toEqual(
      computers
        .filter((c) => c.missing === true && c.platform === 'mac')
        .map((c) => c.client_id)
        .sort(),
    );
  });

  it('alerts takes the computer filters of computers list, --count and --all', async () => {
    const macs = new Set(computers.filter((c) => c.platform === 'mac').map((c) => c.client_id));
    const result = await mon('alerts', '--platform', 'mac', '--include-muted', '--status', 'OK', '-o', 'ndjson');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = lines(result.stdout);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(macs.has((row.computer as Item).client_id)).toBe(true);
    expect(sandbox.requests.find((request) => request.path === '/v2.5/computers')?.query).toMatchObject({
      platform: 'mac',
    });

    const [count, all, plain] = await Promise.all([
      mon('alerts', '--count'),
      mon('alerts', '--all', '-o', 'ndjson'),
      mon('alerts', '-o', 'ndjson'),
    ]);
    expect(count.code).toBe(0);
    expect(count.stdout).toBe(`${lines(plain.stdout).length}\n`);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(plain.stdout);
  });

  it('plugin list takes --count', async () => {
    const [count, rows] = await Promise.all([
      mon('plugin', 'list', clientId, '--count'),
      mon('plugin', 'list', clientId, '-o', 'ndjson'),
    ]);
    expect(count.code).toBe(0);
    expect(count.stdout).toBe(`${lines(rows.stdout).length}\n`);
  });

  /** Every command that prints a list: a repeated option it takes once, a value in the wrong case, and --count. */
  const LISTS: { label: string; command: string[]; repeated: string[]; wrongCase: string[] }[] = [
    {
      label: 'computers list',
      command: ['computers', 'list'],
      repeated: ['--per-page', '5', '--per-page', '6'],
      wrongCase: ['--status', 'MISSING'],
    },
    {
      label: 'groups list',
      command: ['groups', 'list'],
      repeated: ['--per-page', '5', '--per-page', '6'],
      wrongCase: ['--visibility', 'Visible'],
    },
    {
      label: 'users list',
      command: ['users', 'list'],
      repeated: ['--limit', '1', '--limit', '2'],
      wrongCase: ['-o', 'NDJSON'],
    },
    {
      label: 'notes list',
      command: ['notes', 'list'],
      repeated: ['--group', 'acme-design', '--group', 'northwind-clinic'],
      wrongCase: ['-o', 'Ndjson'],
    },
    {
      label: 'expirations list',
      command: ['expirations', 'list'],
      repeated: ['--group', 'acme-design', '--group', 'northwind-clinic'],
      wrongCase: ['-o', 'NDJSON'],
    },
    {
      label: 'expiration-manufacturers list',
      command: ['expiration-manufacturers', 'list'],
      repeated: ['--page', '1', '--page', '2'],
      wrongCase: ['-o', 'NDJSON'],
    },
    {
      label: 'expiration-products list',
      command: ['expiration-products', 'list'],
      repeated: ['--offset', '1', '--offset', '2'],
      wrongCase: ['-o', 'NDJSON'],
    },
    {
      label: 'alerts',
      command: ['alerts'],
      repeated: ['--since', '2h', '--since', '7d'],
      wrongCase: ['--status', 'warning', '--platform', 'Windows'],
    },
    {
      label: 'plugin list CLIENT',
      command: ['plugin', 'list', 'CLIENT'],
      repeated: ['--status', 'OK', '--status', 'Alert'],
      wrongCase: ['--status', 'ok'],
    },
    {
      label: 'profile list',
      command: ['profile', 'list'],
      repeated: ['--fields', 'name', '--fields', 'base_url'],
      wrongCase: ['-o', 'NDJSON'],
    },
    {
      label: 'changes list',
      command: ['changes', 'list'],
      repeated: ['--fields', 'name', '--fields', 'items'],
      wrongCase: ['-o', 'NDJSON'],
    },
  ];

  it.each(LISTS)(
    '$label: refuses a repeat, takes any case, and --count agrees with the list',
    async ({ command, repeated, wrongCase }) => {
      const words = command.map((word) => (word === 'CLIENT' ? clientId : word));
      const paged = command[1] === 'list' && !['plugin', 'profile', 'changes'].includes(command[0]!);
      const [twice, listed, count] = await Promise.all([
        mon(...words, ...repeated),
        mon(...words, ...wrongCase, ...(wrongCase.includes('-o') ? [] : ['-o', 'ndjson']), ...(paged ? ['--all'] : [])),
        mon(...words, ...wrongCase.filter((word, i) => word !== '-o' && wrongCase[i - 1] !== '-o'), '--count'),
      ]);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toMatch(new RegExp(`^mon: ${repeated[0]}: given twice`));
      expect(listed.stderr).not.toMatch(/is not one of/);
      expect(listed.code).toBe(0);
      expect(count.code).toBe(0);
      expect(count.stdout).toBe(`${lines(listed.stdout).length}\n`);
    },
  );
});
