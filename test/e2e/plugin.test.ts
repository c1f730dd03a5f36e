import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runMain } from '../helpers/run-main.js';

type Item = Record<string, unknown>;

/** Reads straight from the sandbox over HTTP, without mon in between. */
async function fetchJson(
  sandbox: RunningSandbox,
  path: string,
  init?: { method: string; form: Record<string, string> },
): Promise<any> {
  const separator = path.includes('?') ? '&' : '?';
  if (!init) return (await fetch(`${sandbox.url}${path}${separator}api_key=${sandbox.apiKey}`)).json();
  const body = new URLSearchParams({ ...init.form, api_key: sandbox.apiKey });
  return (await fetch(`${sandbox.url}${path}`, { method: init.method, body })).json();
}

const MUTE = 'plugin_result[mute_type]';
const UNTIL = 'plugin_result[mute_until]';
const nowSec = () => Math.floor(Date.now() / 1000);

const STATUSES = ['OK', 'Warning', 'Alert', 'Informational'];

describe('plugin list against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let clientId: string;
  let results: Item[];
  const fetchResults = async () =>
    (await fetchJson(sandbox, `/v2.5/computers/${clientId}?expand[]=plugin_results`)).plugin_results as Item[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    // TZ pinned: the mute column shows local time.
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey, TZ: 'UTC' };
    const computers = (await fetchJson(sandbox, '/v2.5/computers?per_page=100&expand[]=plugin_results')) as Item[];
    // A computer with service plugins (visible false), at least four visible results of two
    // statuses, and a status none of its results has.
    const chosen = computers.find((c) => {
      const prs = c.plugin_results as Item[];
      const visible = prs.filter((p) => p.visible !== false);
      const statuses = new Set(prs.map((p) => p.status));
      return (
        prs.some((p) => p.visible === false) &&
        visible.length >= 4 &&
        new Set(visible.map((p) => p.status)).size >= 2 &&
        statuses.size < STATUSES.length
      );
    })!;
    expect(chosen, 'the seed has a computer to test plugin list on').toBeDefined();
    clientId = chosen.client_id as string;
    const visible = (chosen.plugin_results as Item[]).filter((p) => p.visible !== false);
    // One of each kind of mute, set directly on the server, and one result left unmuted.
    const until = nowSec() + 3 * 86_400;
    await fetchJson(sandbox, `/v2.5/plugin_results/${visible[0]!.uid as string}`, {
      method: 'PUT',
      form: { [MUTE]: 'timed', [UNTIL]: String(until) },
    });
    await fetchJson(sandbox, `/v2.5/plugin_results/${visible[1]!.uid as string}`, {
      method: 'PUT',
      form: { [MUTE]: 'ticket', 'plugin_result[ticket_number]': '123' },
    });
    await fetchJson(sandbox, `/v2.5/plugin_results/${visible[2]!.uid as string}`, {
      method: 'PUT',
      form: { [MUTE]: 'ignored' },
    });
    for (const extra of visible.slice(3))
      await fetchJson(sandbox, `/v2.5/plugin_results/${extra.uid as string}`, {
        method: 'PUT',
        form: { [MUTE]: 'none' },
      });
    results = await fetchResults();
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  const shown = () => results.filter((p) => p.visible !== false);

  it('GETs the computer with expand[]=plugin_results and prints the visible results as received (--json)', async () => {
    const result = await runMain(['plugin', 'list', clientId, '--json'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(shown());
    expect(shown().length).toBeLessThan(results.length);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: `/v2.5/computers/${clientId}`, status: 200 });
    expect(sandbox.requests[0]!.query).toEqual({ 'expand[]': 'plugin_results', api_key: sandbox.apiKey });
  });

  it('prints a table of uid, status, name, last run and a readable mute column', async () => {
    const result = await runMain(['plugin', 'list', clientId], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID\s+STATUS\s+NAME\s+LAST RUN\s+MUTE$/);
    expect(lines).toHaveLength(shown().length + 1);
    const [timed, ticket, forever, plain] = shown();
    const until = new Date((timed!.mute_until as number) * 1000).toISOString().slice(0, 16).replace('T', ' ');
    expect(lines[1]).toMatch(
      new RegExp(`^${timed!.uid as string}\\s+${timed!.status as string}\\s+.*\\s{2}until ${until}$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^${ticket!.uid as string}\\s.*\\s{2}ticket #123$`));
    expect(lines[3]).toMatch(new RegExp(`^${forever!.uid as string}\\s.*\\s{2}forever$`));
    // Not muted: the line ends with the last run, the mute column empty.
    expect(lines[4]).toMatch(new RegExp(`^${plain!.uid as string}\\s.*\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$`));
  });

  it('--include-hidden adds the service plugins', async () => {
    const result = await runMain(['plugin', 'list', clientId, '--include-hidden', '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(results);
  });

  it.each([
    ['--muted', (p: Item) => p.muted === true],
    ['--unmuted', (p: Item) => p.muted !== true],
  ])('%s filters on the client; the request stays the same', async (flag, keep) => {
    const result = await runMain(['plugin', 'list', clientId, flag, '--include-hidden', '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(results.filter(keep));
    expect(sandbox.requests[0]!.query).toEqual({ 'expand[]': 'plugin_results', api_key: sandbox.apiKey });
  });

  it('--status keeps one status; an empty table says "No results." on stderr', async () => {
    const status = shown()[0]!.status as string;
    const result = await runMain(['plugin', 'list', clientId, '--status', status, '--json'], { env });
    expect(JSON.parse(result.stdout)).toEqual(shown().filter((p) => p.status === status));
    const absent = STATUSES.find((s) => !results.some((p) => p.status === s))!;
    const empty = await runMain(['plugin', 'list', clientId, '--status', absent], { env });
    expect(empty).toMatchObject({ code: 0, stdout: '', stderr: 'No results.\n' });
  });

  it('csv keeps the mute column plain and times in ISO 8601 UTC', async () => {
    const result = await runMain(['plugin', 'list', clientId, '-o', 'csv', '--fields', 'uid,mute,last_run'], { env });
    expect(result.code).toBe(0);
    const [header, first] = result.stdout.split('\n');
    expect(header).toBe('uid,mute,last_run');
    const iso = (seconds: unknown) => new Date((seconds as number) * 1000).toISOString().replace('.000Z', 'Z');
    expect(first).toBe(
      `${shown()[0]!.uid as string},until ${iso(shown()[0]!.mute_until)},${iso(shown()[0]!.last_run)}`,
    );
  });

  it('the aliases plugins and plugin-results name the same command', async () => {
    for (const alias of ['plugins', 'plugin-results']) {
      const result = await runMain([alias, 'list', clientId, '--json'], { env });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(shown());
    }
  });

  it('--expand on the command line is sent beside expand[]=plugin_results, not instead of it', async () => {
    const result = await runMain(['--expand', 'group', 'plugin', 'list', clientId, '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(shown());
    expect(sandbox.requests[0]!.query).toEqual({ 'expand[]': ['plugin_results', 'group'], api_key: sandbox.apiKey });
  });

  it('an unknown client id exits 4', async () => {
    const result = await runMain(['plugin', 'list', 'NO-SUCH-CLIENT'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^mon: GET \/v2\.5\/computers\/NO-SUCH-CLIENT: 404/);
    expect(result.stdout).toBe('');
  });

  it('--dry-run prints the GET and sends nothing', async () => {
    const result = await runMain(['plugin', 'list', clientId, '--dry-run'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `GET ${sandbox.url}/v2.5/computers/${clientId}?expand[]=plugin_results&api_key=[REDACTED]\n`,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it.each([
    [['--muted', '--unmuted'], /--muted and --unmuted cannot be used together/],
    [['--status', 'Error'], /--status: 'Error' is not one of OK, Warning, Alert, Informational/],
  ])('%j exits 2 naming the option, with no request', async (extra, message) => {
    const result = await runMain(['plugin', 'list', clientId, ...extra], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(sandbox.requests).toEqual([]);
  });
});

describe('plugin list with muted_until instead of mute_until', () => {
  let fake: FakeApi;
  const result = {
    uid: 'pr_1',
    name: 'Disk Space',
    status: 'Warning',
    last_run: 1_790_000_000,
    muted: true,
    mute_type: 'timed_mute',
    muted_until: 1_800_000_000,
    visible: true,
  };

  beforeAll(async () => {
    fake = await startFakeApi((_request, response) =>
      json(response, 200, { uid: 'c_1', client_id: 'CID-1', plugin_results: [result] }),
    );
  });
  afterAll(() => fake.close());

  it('shows the end of the mute from either spelling', async () => {
    const out = await runMain(['plugin', 'list', 'CID-1', '-o', 'tsv', '--no-header'], {
      env: { MON_BASE_URL: fake.url, MON_API_KEY: 'k_test_1234567890', TZ: 'UTC' },
    });
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toBe('pr_1\tWarning\tDisk Space\t2026-09-21T14:13:20Z\tuntil 2027-01-15T08:00:00Z\n');
  });
});

/**
 * The mute column says what every filter and count says (src/model/plugin-result.ts, isMuted): a timed
 * mute whose end has passed is no mute, whatever the payload's flag; and a machine reads its end
 * in UTC, the same in every time zone.
 */
describe('the mute column: one answer with the filters, and the same in every time zone', () => {
  let fake: FakeApi;
  const now = Math.floor(Date.now() / 1000);
  const results = [
    {
      uid: 'pr_ended',
      name: 'Ended',
      status: 'Alert',
      last_run: now - 60,
      muted: true,
      mute_type: 'timed_mute',
      mute_until: now - 3600,
      visible: true,
    },
    {
      uid: 'pr_timed',
      name: 'Timed',
      status: 'Alert',
      last_run: now - 60,
      muted: true,
      mute_type: 'timed_mute',
      mute_until: 2_000_000_000,
      visible: true,
    },
  ];
  beforeAll(async () => {
    fake = await startFakeApi((request, response) => {
      if (request.path.endsWith('/computers/CID-1'))
        return json(response, 200, { uid: 'c_1', client_id: 'CID-1', plugin_results: results });
      return json(
        response,
        200,
        [{ uid: 'c_1', client_id: 'CID-1', name: 'One', status: 'online', plugin_results: results }],
        { 'x-total': '1', 'x-total-pages': '1' },
      );
    });
  });
  afterAll(() => fake.close());
  const env = (tz: string) => ({ MON_BASE_URL: fake.url, MON_API_KEY: 'k_test_1234567890', TZ: tz });

  it.each(['UTC', 'Asia/Tokyo', 'America/Los_Angeles'])(
    'TZ=%s: an ended timed mute is shown as none, in plugin list --unmuted and in alerts; csv gives the end in UTC',
    async (tz) => {
      const unmuted = await runMain(['plugin', 'list', 'CID-1', '--unmuted', '-o', 'csv', '--fields', 'uid,mute'], {
        env: env(tz),
      });
      expect(unmuted).toEqual({ code: 0, stdout: 'uid,mute\npr_ended,\n', stderr: '' });
      const alerts = await runMain(['alerts', '-o', 'csv', '--fields', 'plugin,mute'], { env: env(tz) });
      expect(alerts).toMatchObject({ code: 0, stdout: 'plugin,mute\nEnded,\n' });
      const every = await runMain(['plugin', 'list', 'CID-1', '-o', 'csv', '--fields', 'uid,mute'], { env: env(tz) });
      expect(every.stdout).toBe('uid,mute\npr_ended,\npr_timed,until 2033-05-18T03:33:20Z\n');
      const json = await runMain(['plugin', 'list', 'CID-1', '--json', '--fields', 'uid,mute'], { env: env(tz) });
      expect(JSON.parse(json.stdout)).toEqual([
        { uid: 'pr_ended', mute: '' },
        { uid: 'pr_timed', mute: 'until 2033-05-18T03:33:20Z' },
      ]);
    },
  );
});
