import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';

type Item = Record<string, unknown>;

describe('users list against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let all: Item[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey, TZ: 'UTC' };
    all = (await (await fetch(`${sandbox.url}/v2.5/users?per_page=100&api_key=${sandbox.apiKey}`)).json()) as Item[];
    expect(all.length).toBeGreaterThanOrEqual(3);
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it('GETs /v2.5/users and prints the users as received (--json)', async () => {
    const result = await runMain(['users', 'list', '--json'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(all);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2.5/users', status: 200 });
    expect(sandbox.requests[0]!.query).toEqual({ page: '1', api_key: sandbox.apiKey });
  });

  it('prints a table of uid, email, name, role, 2FA and last sign-in', async () => {
    const result = await runMain(['users', 'list'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID\s+EMAIL\s+NAME\s+ROLE\s+2FA\s+LAST SIGN-IN$/);
    expect(lines).toHaveLength(all.length + 1);
    all.forEach((user, i) => {
      const cells = lines[i + 1]!.split(/\s{2,}/);
      const signin =
        typeof user.last_signin === 'number'
          ? new Date(user.last_signin * 1000).toISOString().slice(0, 16).replace('T', ' ')
          : undefined;
      expect(cells).toEqual([
        user.uid,
        user.email,
        `${String(user.firstname)} ${String(user.lastname)}`,
        user.role,
        user.tfa_status ? 'yes' : 'no',
        ...(signin ? [signin] : []),
      ]);
    });
  });

  it('paging options go to the query; --count prints x-total', async () => {
    const page = await runMain(
      ['users', 'list', '--page', '2', '--per-page', '2', '-o', 'csv', '--fields', 'email,tfa_status'],
      { env },
    );
    expect(page.code).toBe(0);
    expect(page.stdout).toBe(
      ['email,tfa_status', ...all.slice(2, 4).map((u) => `${String(u.email)},${String(u.tfa_status)}`)].join('\n') +
        '\n',
    );
    expect(sandbox.requests[0]!.query).toEqual({ page: '2', per_page: '2', api_key: sandbox.apiKey });
    const count = await runMain(['users', 'list', '--count'], { env });
    expect(count).toMatchObject({ code: 0, stdout: `${all.length}\n` });
  });

  it('--all --per-page 2 -o ndjson follows the pages', async () => {
    const result = await runMain(['users', 'list', '--all', '--per-page', '2', '-o', 'ndjson'], { env });
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(all);
    expect(sandbox.requests.map((r) => r.query.page)).toEqual(
      Array.from({ length: Math.ceil(all.length / 2) }, (_, i) => String(i + 1)),
    );
  });

  it.each([
    [['--per-page', '101'], /--per-page: must be a whole number from 1 to 100/],
    [['--page', '0'], /--page: must be a whole number 1 or more/],
    [['--fields', 'uid,password'], /--fields: unknown key password/],
  ])('%j exits 2 naming the option, with no request', async (extra, message) => {
    const result = await runMain(['users', 'list', ...extra], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(sandbox.requests).toEqual([]);
  });
});
