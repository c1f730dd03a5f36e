import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { readAll } from '../helpers/sandbox-http.js';

type Item = Record<string, unknown>;

/** One row per plugin result with its computer, as the test reads the account itself. */
interface Row {
  result: Item;
  computer: Item;
}

const sorted = (uids: unknown[]) => [...uids].map(String).sort();

describe('mon alerts against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let groups: Item[];
  let rows: Row[];
  /** The uids of the rows that pass `keep`, sorted. */
  const expected = (keep: (row: Row) => boolean) => sorted(rows.filter(keep).map((row) => row.result.uid));
  const attention = (row: Row) =>
    ['Alert', 'Warning'].includes(String(row.result.status)) &&
    row.result.muted !== true &&
    row.result.visible !== false;
  const alerts = async (...args: string[]) => {
    const result = await runMain(['alerts', ...args, '-o', 'ndjson'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Item);
  };
  const uidsOf = (items: Item[]) => sorted(items.map((item) => item.uid));

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    groups = await readAll(sandbox, '/v2.5/groups');
    const computers = await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results');
    rows = computers.flatMap((computer) => (computer.plugin_results as Item[]).map((result) => ({ result, computer })));
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.requests.length = 0;
  });

  it('by default lists exactly the unmuted, visible Alert and Warning results, each with its computer and group', async () => {
    const items = await alerts();
    const want = expected(attention);
    expect(want.length).toBeGreaterThan(0);
    expect(uidsOf(items)).toEqual(want);
    for (const item of items) {
      const row = rows.find((r) => r.result.uid === item.uid)!;
      const group = groups.find((g) => g.uid === row.computer.group)!;
      // The plugin result as sent, plus computer and group.
      expect(item).toEqual({
        ...row.result,
        computer: {
          uid: row.computer.uid,
          client_id: row.computer.client_id,
          name: row.computer.custom_name || row.computer.computer_name,
        },
        group: { uid: group.uid, name: group.name },
      });
    }
  });

  it('reads groups once, then every computer page with plugin_results expanded at per_page 100', async () => {
    await alerts();
    const paths = sandbox.requests.map((request) => request.path);
    expect(paths.filter((path) => path === '/v2.5/groups')).toHaveLength(1);
    const pages = sandbox.requests.filter((request) => request.path === '/v2.5/computers');
    expect(pages.length).toBe(Math.ceil(new Set(rows.map((row) => row.computer.uid)).size / 100));
    for (const request of pages) expect(request.query).toMatchObject({ 'expand[]': 'plugin_results', per_page: '100' });
  });

  it.each([
    [
      '--status OK',
      ['--status', 'OK'],
      (row: Row) => row.result.status === 'OK' && row.result.muted !== true && row.result.visible !== false,
    ],
    [
      '--status Informational --status Alert',
      ['--status', 'Informational', '--status', 'Alert'],
      (row: Row) =>
        ['Informational', 'Alert'].includes(String(row.result.status)) &&
        row.result.muted !== true &&
        row.result.visible !== false,
    ],
    [
      '--muted',
      ['--muted'],
      (row: Row) =>
        ['Alert', 'Warning'].includes(String(row.result.status)) &&
        row.result.muted === true &&
        row.result.visible !== false,
    ],
    [
      '--include-muted',
      ['--include-muted'],
      (row: Row) => ['Alert', 'Warning'].includes(String(row.result.status)) && row.result.visible !== false,
    ],
    [
      '--include-hidden',
      ['--include-hidden'],
      (row: Row) => ['Alert', 'Warning'].includes(String(row.result.status)) && row.result.muted !== true,
    ],
  ])('%s selects exactly the matching plugin results', async (_label, args, keep) => {
    const want = expected(keep);
    expect(want.length).toBeGreaterThan(0);
    expect(uidsOf(await alerts(...args))).toEqual(want);
  });

  it('--muted goes with any --status (OK too)', async () => {
    expect(uidsOf(await alerts('--muted', '--status', 'OK'))).toEqual(
      expected((row) => row.result.status === 'OK' && row.result.muted === true && row.result.visible !== false),
    );
    // The statuses that muted results have in this account, whatever the seed holds.
    const statuses = [
      ...new Set(rows.filter((row) => row.result.muted === true).map((row) => String(row.result.status))),
    ];
    const want = expected(
      (row) =>
        statuses.includes(String(row.result.status)) && row.result.muted === true && row.result.visible !== false,
    );
    expect(want.length).toBeGreaterThan(0);
    expect(uidsOf(await alerts('--muted', ...statuses.flatMap((status) => ['--status', status])))).toEqual(want);
  });

  it('--missing keeps the results of missing computers only', async () => {
    const statuses = [
      ...new Set(rows.filter((row) => row.computer.missing === true).map((row) => String(row.result.status))),
    ];
    const keep = (row: Row) =>
      statuses.includes(String(row.result.status)) && row.result.muted !== true && row.result.visible !== false;
    const want = expected((row) => keep(row) && row.computer.missing === true);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(expected(keep).length);
    expect(uidsOf(await alerts('--missing', ...statuses.flatMap((status) => ['--status', status])))).toEqual(want);
  });

  it('--missing asks the API for missing computers only', async () => {
    await alerts('--missing', '--status', 'OK');
    for (const request of sandbox.requests.filter((r) => r.path === '/v2.5/computers'))
      expect(request.query.status).toBe('missing');
  });

  it('--plugin takes a name or a slug in any case, and is repeatable', async () => {
    const [first, second] = [...new Set(rows.filter(attention).map((row) => row.result.name as string))];
    const slug = rows.find((row) => row.result.name === second)!.result.slug as string;
    const want = expected((row) => attention(row) && [first, second].includes(row.result.name as string));
    expect(uidsOf(await alerts('--plugin', first!.toUpperCase(), '--plugin', slug))).toEqual(want);
  });

  it('--group takes a uid, a slug or a name; one group is sent as group_id', async () => {
    const group = groups.find((g) => rows.some((row) => attention(row) && row.computer.group === g.uid))!;
    const want = expected((row) => attention(row) && row.computer.group === group.uid);
    for (const given of [group.uid, group.slug, group.name]) {
      sandbox.requests.length = 0;
      expect(uidsOf(await alerts('--group', String(given)))).toEqual(want);
      for (const request of sandbox.requests.filter((r) => r.path === '/v2.5/computers'))
        expect(request.query.group_id).toBe(group.uid);
    }
  });

  it('several --group options select the union, filtered here (the API takes one group)', async () => {
    const [a, b] = groups.filter((g) => rows.some((row) => attention(row) && row.computer.group === g.uid));
    const want = expected((row) => attention(row) && (row.computer.group === a!.uid || row.computer.group === b!.uid));
    expect(uidsOf(await alerts('--group', String(a!.slug), '--group', String(b!.name)))).toEqual(want);
    for (const request of sandbox.requests.filter((r) => r.path === '/v2.5/computers'))
      expect(request.query.group_id).toBeUndefined();
  });

  it('--computer takes a client_id or a c_ uid, and is repeatable', async () => {
    const [a, b] = [...new Map(rows.filter(attention).map((row) => [row.computer.uid, row.computer])).values()];
    const want = expected((row) => attention(row) && (row.computer.uid === a!.uid || row.computer.uid === b!.uid));
    expect(uidsOf(await alerts('--computer', String(a!.client_id), '--computer', String(b!.uid)))).toEqual(want);
  });

  it('--ran-since keeps results whose plugin last ran at or after the time; --since, its old name, says so', async () => {
    const times = rows
      .filter(attention)
      .map((row) => Number(row.result.last_run))
      .sort((x, y) => x - y);
    const since = times[Math.floor(times.length / 2)]!;
    const want = expected((row) => attention(row) && Number(row.result.last_run) >= since);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(expected(attention).length);
    expect(uidsOf(await alerts('--ran-since', String(since)))).toEqual(want);
    // The old name still works, and tells once on stderr that it is not "alerting since" (-q quiets it).
    const old = await runMain(['alerts', '--since', String(since), '-o', 'ndjson'], { env });
    expect(old.code).toBe(0);
    expect(
      uidsOf(
        old.stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Item),
      ),
    ).toEqual(want);
    expect(old.stderr).toBe(
      'mon: warning: --since is now --ran-since: it keeps results whose plugin last ran since then, not those alerting since then\n',
    );
    expect((await runMain(['alerts', '-q', '--since', String(since), '--count'], { env })).stderr).toBe('');
    // Help says what it filters on.
    const help = (await runMain(['alerts', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      '--ran-since <when> only results whose plugin last ran at or after WHEN (not when it began to alert',
    );
  });

  it('the table names computer and group, sorted Alert before Warning, then group, computer, plugin', async () => {
    const result = await runMain(['alerts', '--include-muted'], { env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^COMPUTER\s+GROUP\s+PLUGIN\s+STATUS\s+LAST RUN\s+DETAILS\s+MUTE$/);
    expect(lines).toHaveLength(
      expected((row) => ['Alert', 'Warning'].includes(String(row.result.status)) && row.result.visible !== false)
        .length + 1,
    );
    const statuses = lines.slice(1).map((line) => (/\s(Alert|Warning)\s/.exec(line) ?? [])[1]);
    expect(statuses.indexOf('Warning')).toBeGreaterThan(statuses.lastIndexOf('Alert'));
    const groupNames = lines
      .slice(1)
      .filter((line) => / Alert /.test(line))
      .map((line) => groups.find((g) => line.includes(`  ${g.name}  `))?.name as string);
    expect(groupNames.every(Boolean)).toBe(true);
    expect(groupNames).toEqual([...groupNames].sort((x, y) => x.localeCompare(y, 'en', { sensitivity: 'base' })));
    // Muted rows say how.
    expect(result.stdout).toMatch(/until \d{4}-\d{2}-\d{2} \d{2}:\d{2}|ticket|forever/);
  });

  it('csv with --fields gives the computed columns', async () => {
    const result = await runMain(
      ['alerts', '--status', 'Alert', '-o', 'csv', '--fields', 'uid,computer,group,plugin,status'],
      { env },
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('uid,computer,group,plugin,status');
    const want = rows.filter(
      (row) => row.result.status === 'Alert' && row.result.muted !== true && row.result.visible !== false,
    );
    expect(lines).toHaveLength(want.length + 1);
    const row = want[0]!;
    const group = groups.find((g) => g.uid === row.computer.group)!;
    expect(lines).toContain(
      [
        row.result.uid,
        row.computer.custom_name || row.computer.computer_name,
        group.name,
        row.result.name,
        'Alert',
      ].join(','),
    );
  });

  it.each([
    [
      '--group',
      'No Such Group',
      "mon: --group: no group 'No Such Group' (looked up by uid, slug and name) — list them with `mon groups list`",
    ],
    [
      '--computer',
      'NO-SUCH-CLIENT',
      "mon: --computer: no computer with client id 'NO-SUCH-CLIENT' — list them with `mon computers list --fields client_id,uid,name`",
    ],
  ])('an unknown %s is exit 4 before any computer is read', async (option, value, message) => {
    const result = await runMain(['alerts', option, value], { env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${message}\n`);
    expect(sandbox.requests.filter((r) => r.path === '/v2.5/computers')).toEqual([]);
  });

  it.each([
    ['--plugin', 'No Such Plugin', /^mon: --plugin: no plugin named 'No Such Plugin'/],
    ['--computer', 'c_nosuchcomputer', /^mon: --computer: no computer 'c_nosuchcomputer' — /],
  ])('an unknown %s is exit 4 once every computer is read, not an empty answer', async (option, value, message) => {
    for (const format of ['table', 'ndjson']) {
      const result = await runMain(['alerts', option, value, '-o', format], { env });
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
  });

  it('a --computer given as a client id is looked up once, then matched as its uid', async () => {
    const row = rows.find(attention)!;
    expect(uidsOf(await alerts('--computer', String(row.computer.client_id)))).toEqual(
      expected((r) => attention(r) && r.computer.uid === row.computer.uid),
    );
    expect(sandbox.requests.filter((r) => r.path === `/v2.5/computers/${String(row.computer.client_id)}`)).toHaveLength(
      1,
    );
  });

  it.each([
    [['--muted', '--include-muted'], '--muted and --include-muted cannot be used together'],
    [['--status', 'Bad'], "--status: 'Bad' is not one of OK, Warning, Alert, Informational"],
    [
      ['--since', 'yesterday'],
      "--since: 'yesterday' is not a duration back from now (90m, 2h, 7d), an ISO 8601 time or epoch seconds",
    ],
    [
      ['--ran-since', 'yesterday'],
      "--ran-since: 'yesterday' is not a duration back from now (90m, 2h, 7d), an ISO 8601 time or epoch seconds",
    ],
    [['--ran-since', '2h', '--since', '2h'], '--since and --ran-since cannot be used together'],
    [['--plugin', ''], '--plugin: must not be empty'],
  ])('%j is refused before anything is sent', async (args, message) => {
    expectRefusedBeforeSending(await runMain(['alerts', ...args], { env }), message, sandbox.requests);
  });
});
