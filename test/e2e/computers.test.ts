import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';
import { runMain } from '../helpers/run-main.js';

/** Reads every computer straight from the sandbox over HTTP, without mon in between. */
async function allComputers(sandbox: RunningSandbox, query = ''): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(
      `${sandbox.url}/v2.5/computers?per_page=100&page=${page}&api_key=${sandbox.apiKey}${query}`,
    );
    const items = (await response.json()) as Record<string, unknown>[];
    out.push(...items);
    if (!response.headers.get('x-next-page')) return out;
  }
}

describe('computers against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  afterAll(() => sandbox.close());

  it('`computers list --status missing --json` prints exactly the missing computers, as received', async () => {
    const expected = (await allComputers(sandbox)).filter((computer) => computer.missing === true);
    expect(expected.length).toBeGreaterThan(0);
    sandbox.requests.length = 0;
    const result = await runMain(['computers', 'list', '--status', 'missing', '--json'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(expected);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2.5/computers', status: 200 });
    expect(sandbox.requests[0]?.query).toMatchObject({ status: 'missing', api_key: sandbox.apiKey });
    // JSON is the API's objects as received: no expansion asked for.
    expect(sandbox.requests[0]?.query['expand[]']).toBeUndefined();
  });

  it('prints a plain, aligned table in a pipe: no colour codes, one row per computer', async () => {
    const missing = (await allComputers(sandbox, '&status=missing')).length;
    const groupNames = new Set(
      (await allComputers(sandbox, '&status=missing&expand[]=group')).map((c) => (c.group as { name: string }).name),
    );
    sandbox.requests.length = 0;
    const result = await runMain(['computers', 'list', '--status', 'missing'], { env });
    expect(result.code).toBe(0);
    // The table names each computer's group: it asks for groups expanded.
    expect(sandbox.requests[0]?.query['expand[]']).toBe('group');
    for (const line of result.stdout.trimEnd().split('\n').slice(1)) {
      expect([...groupNames].some((name) => line.includes(`  ${name}  `))).toBe(true);
    }
    expect(result.stdout).not.toMatch(/\x1b\[/);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CLIENT ID\s+NAME\s+GROUP\s+PLATFORM\s+OS\s+LAST REPORT\s+FLAGS$/);
    expect(lines).toHaveLength(missing + 1);
    for (const line of lines.slice(1)) expect(line).toMatch(/\bmissing\b/);
    // Pipes get absolute dates, so scripts that scrape the table see stable values.
    expect(lines[1]).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  });

  it('on a terminal the table is coloured and times are relative', async () => {
    const dir = tempConfigDir();
    const command = `${process.execPath} ${MON_BIN} computers list --status missing`;
    // `script` gives the command a real pseudo-terminal, as a person at a shell would have.
    const onTerminal = (line: string, term = 'xterm-256color') =>
      promisify(execFile)('script', ['-qec', line, '/dev/null'], {
        env: { PATH: process.env.PATH, HOME: dir, MON_CONFIG_DIR: dir, TERM: term, ...env },
        encoding: 'utf8',
      });
    const screen = (await onTerminal(command)).stdout;
    expect(screen).toMatch(/\x1b\[/);
    expect(screen).toMatch(/days? ago|weeks? ago|months? ago/);
    const plain = (await onTerminal(`${command} --no-color`)).stdout;
    expect(plain).toMatch(/days? ago|weeks? ago|months? ago/);
    expect(plain).not.toMatch(/\x1b\[[0-9;]*m/);
    // A terminal that draws no escapes says so with TERM=dumb: honoured as NO_COLOR.
    const dumb = (await onTerminal(command, 'dumb')).stdout;
    expect(dumb).toMatch(/days? ago|weeks? ago|months? ago/);
    expect(dumb).not.toMatch(/\x1b\[[0-9;]*m/);
  });

  it.each([
    ['csv', /^client_id,computer_name\r?\n/],
    ['tsv', /^client_id\tcomputer_name\n/],
  ])('prints %s with the chosen --fields', async (format, header) => {
    const result = await runMain(
      ['computers', 'list', '-o', format, '--fields', 'client_id,computer_name', '--limit', '3'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(header);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(4);
  });

  /** The exact text is the contract here: the sandbox's demo data is seeded the same every time. */
  it('a table of a few computers in a pipe, and the notice of what was left out', async () => {
    const run = await runMain(
      ['computers', 'list', '--per-page', '4', '--fields', 'client_id,name,group,platform,flags'],
      { env },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatchInlineSnapshot(`
      "CLIENT ID                             NAME                  GROUP               PLATFORM  FLAGS
      079D7068-677B-49EB-8F73-5237627F5D27  Ben D'Amico (laptop)  Summit Engineering  mac
      875EC35D-A9AF-4C57-BD62-D061A6D4C64E  NWC-LT-027            Northwind Clinic    windows   hidden
      C5E335A6-787D-487C-A718-D14D3E1D3575  acme-srv-040          Acme Design         linux
      391BB200-C675-42FD-A2FD-ED3352217C33  Nora D'Amico (desk)   Café Lumière        mac
      "
    `);
    expect(run.stderr).toMatchInlineSnapshot(`
      "showing 4 of 40 — add --all for every page
      "
    `);
  });

  it('a table with wide characters: columns aligned by the width a terminal gives them', async () => {
    // Its own sandbox: the groups written here would change what the other cases read.
    const own = await startSandbox({ port: 0 });
    try {
      const ownEnv = { MON_BASE_URL: own.url, MON_API_KEY: own.apiKey };
      for (const name of ['東京オフィス', 'Zürich 👩‍💻 Labs'])
        expect((await runMain(['groups', 'find-or-create', '--name', name, '-q'], { env: ownEnv })).code).toBe(0);
      const run = await runMain(
        ['groups', 'list', '--fields', 'name,slug,visible_computer_count,hidden_computer_count', '--all'],
        { env: ownEnv },
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toMatchInlineSnapshot(`
        "NAME                     SLUG                   COMPUTERS  HIDDEN
        Acme Design              acme-design            13         0
        Atelier Hélène Dubois    atelier-helene-dubois  1          0
        Blue Harbor Legal        blue-harbor-legal      4          0
        Café Lumière             cafe-lumiere           3          0
        Northwind Clinic         northwind-clinic       7          1
        O'Brien & Sons Plumbing  o-brien-sons-plumbing  2          0
        Old Office (retired)     old-office-retired     0          3
        Staging – new hires      staging-new-hires      0          0
        Summit Engineering       summit-engineering     6          0
        Zürich 👩‍💻 Labs           zurich-labs            0          0
        東京オフィス             item                   0          0
        "
      `);
    } finally {
      await own.close();
    }
  });

  it('`--count` prints x-total only', async () => {
    const total = (await allComputers(sandbox)).length;
    const result = await runMain(['computers', 'list', '--count'], { env });
    expect(result.stdout).toBe(`${total}\n`);
  });

  it('`computers get` fetches by client id; an unknown one exits 4', async () => {
    const [first] = await allComputers(sandbox);
    const clientId = String(first?.client_id);
    sandbox.requests.length = 0;
    const found = await runMain(['computers', 'get', clientId, '--json'], { env });
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ uid: first?.uid, client_id: clientId });
    expect(sandbox.requests[0]?.path).toBe(`/v2.5/computers/${clientId}`);
    const missing = await runMain(['computers', 'get', 'NO-SUCH-CLIENT'], { env });
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
  });

  it('ndjson prints one object per line', async () => {
    const result = await runMain(['computers', 'list', '-o', 'ndjson', '--per-page', '7'], { env });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('client_id');
  });

  it.each([
    [['computers', 'list', '--status', 'gone'], "--status: 'gone' is not one of visible, hidden, missing"],
    [
      ['computers', 'list', '--platform', 'mac', '--platform', 'amiga'],
      "--platform: 'amiga' is not one of mac, linux, windows",
    ],
    [
      ['computers', 'list', '--created-after', '2026-02-30'],
      "--created-after: '2026-02-30' does not exist: February 2026 has 28 days",
    ],
    [['computers', 'list', '--per-page', '101'], '--per-page: must be a whole number from 1 to 100'],
    [['computers', 'list', '--order', 'name'], "--order: 'name' is not one of"],
    [
      ['computers', 'list', '--fields', 'nope'],
      "--fields: unknown key nope — the keys are those of -o json, and the table's columns name, flags",
    ],
    [['computers', 'list', '--asset-id', 'x'.repeat(192)], '--asset-id: at most 191 characters (got 192)'],
    [['--timeout', '0', 'computers', 'list'], '--timeout: must be a number of seconds above 0'],
  ])('rejects %j before sending anything', async (args, message) => {
    sandbox.requests.length = 0;
    const result = await runMain(args, { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(sandbox.requests).toHaveLength(0);
  });
});
