import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { onTerminal } from '../helpers/terminal.js';
import { runMain } from '../helpers/run-main.js';

type Item = Record<string, unknown>;

describe('api against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let users: Item[];
  let group: string;

  const get = async (path: string): Promise<any> =>
    (await fetch(`${sandbox.url}${path}${path.includes('?') ? '&' : '?'}api_key=${sandbox.apiKey}`)).json();

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    users = (await get('/v2.5/users?per_page=100')) as Item[];
    group = ((await get('/v2.5/groups?per_page=1')) as Item[])[0]!.uid as string;
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it('GET without /v2.5, method in any case: fields go to the query, the body is printed as pretty JSON', async () => {
    const result = await runMain(['api', 'get', '/users', '-F', 'per_page=2', '-F', 'page=2'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`${JSON.stringify(users.slice(2, 4), null, 2)}\n`);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2.5/users', form: {} });
    expect(sandbox.requests[0]!.query).toEqual({ per_page: '2', page: '2', api_key: sandbox.apiKey });
  });

  it('without a method, a GET (as gh api): `mon api /groups`, with fields in the query string', async () => {
    const result = await runMain(['api', '/users', '-F', 'per_page=2', '-F', 'page=2'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`${JSON.stringify(users.slice(2, 4), null, 2)}\n`);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2.5/users' });
  });

  it.each([
    [[], 'mon: missing <path> — usage: mon api [method] <path>\n'],
    [['GET'], 'mon: missing <path> — usage: mon api [method] <path>\n'],
    [['gte', '/users'], "mon: <method>: 'gte' is not one of GET, POST, PUT, DELETE, PATCH — did you mean GET?\n"],
  ])('`mon api %j`: exit 2 naming what is wrong, nothing sent', async (words, said) => {
    const result = await runMain(['api', ...words], { env });
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: said,
    });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('api_key in the query string of the path is refused, as -F api_key is: exit 2, nothing sent', async () => {
    const result = await runMain(['api', 'GET', '/computers?per_page=1&api_key=zzz'], { env });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mon: <path>: api_key is added from the profile or MON_API_KEY; do not put it in the query string — `mon api --help` shows its options\n',
    });
    expect(sandbox.requests).toEqual([]);
  });

  it('a method the path does not take (405) is a rejected request: exit 5, one line', async () => {
    const result = await runMain(['api', 'POST', '/users', '-F', 'x=1'], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^mon: POST \/v2\.5\/users: 405/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('keys are sent as typed, repeated keys kept: platform[]=mac -F platform[]=linux', async () => {
    const result = await runMain(
      ['api', 'GET', '/v2.5/computers', '-F', 'platform[]=mac', '-F', 'platform[]=linux', '-F', 'per_page=1'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(sandbox.requests[0]!.query).toEqual({
      'platform[]': ['mac', 'linux'],
      per_page: '1',
      api_key: sandbox.apiKey,
    });
  });

  it('POST sends the fields as a form body; a value may hold "="', async () => {
    const result = await runMain(
      ['api', 'POST', '/notes', '-F', `note[group_id]=${group}`, '-F', 'note[body]=a=b c', '-o', 'ndjson'],
      { env },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(sandbox.requests[0]).toMatchObject({ method: 'POST', path: '/v2.5/notes', query: {}, status: 200 });
    expect(sandbox.requests[0]!.form).toEqual({
      'note[group_id]': group,
      'note[body]': 'a=b c',
      api_key: sandbox.apiKey,
    });
    const note = JSON.parse(result.stdout) as Item;
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(note).toMatchObject({ group, body: 'a=b c' });
    expect(await get(`/v2.5/notes/${note.uid as string}`)).toEqual(note);
  });

  it('--paginate follows the pages and prints one JSON array', async () => {
    const result = await runMain(['api', 'GET', '/users', '--paginate', '-F', 'per_page=2'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(users);
    expect(result.stdout).toBe(`${JSON.stringify(users, null, 2)}\n`);
    expect(sandbox.requests.map((r) => r.query)).toEqual(
      Array.from({ length: Math.ceil(users.length / 2) }, (_, i) => ({
        per_page: '2',
        page: String(i + 1),
        api_key: sandbox.apiKey,
      })),
    );
  });

  it('--paginate -o ndjson prints one line per item; per_page defaults to 100', async () => {
    const result = await runMain(['api', 'GET', '/users', '--paginate', '-o', 'ndjson'], { env });
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(users);
    expect(sandbox.requests.map((r) => r.query)).toEqual([{ per_page: '100', page: '1', api_key: sandbox.apiKey }]);
  });

  it('-i prints the status line and the headers on stdout, a blank line, then the body', async () => {
    const result = await runMain(['api', '-i', 'GET', '/users', '-F', 'per_page=2'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [head, body] = result.stdout.split('\n\n', 2) as [string, string];
    const [status, ...headers] = head.split('\n');
    expect(status).toBe('HTTP/1.1 200 OK');
    expect(headers).toEqual(
      expect.arrayContaining([
        'x-page: 1',
        'x-per-page: 2',
        'x-next-page: 2',
        `x-total: ${users.length}`,
        'content-type: application/json; charset=utf-8',
      ]),
    );
    expect(headers.every((line) => /^[a-z0-9-]+: /.test(line))).toBe(true);
    expect(JSON.parse(body)).toEqual(users.slice(0, 2));
    expect(sandbox.requests).toHaveLength(1);
  });

  it('--include on a 204 prints the head and nothing after it', async () => {
    const product = ((await get('/v2.5/expiration_products?per_page=100')) as Item[]).at(-1)!;
    sandbox.requests.length = 0;
    const result = await runMain(
      ['api', '--include', 'DELETE', `/expiration_products/${product.uid as string}`, '--yes'],
      { env },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^HTTP\/1\.1 204 No Content\n(?:[a-z0-9-]+: .*\n)*\n$/);
  });

  it('DELETE without a terminal and without --yes is refused (exit 2), nothing sent', async () => {
    const result = await runMain(['api', 'DELETE', '/v2.5/expiration_products/ep_x'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refusing to delete without --yes/);
    expect(sandbox.requests).toEqual([]);
  });

  it('DELETE --yes sends the key in the form body; a 204 prints nothing', async () => {
    const product = ((await get('/v2.5/expiration_products?per_page=100')) as Item[]).at(-1)!;
    sandbox.requests.length = 0;
    const result = await runMain(['api', 'DELETE', `/expiration_products/${product.uid as string}`, '--yes'], { env });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(sandbox.requests[0]).toMatchObject({
      method: 'DELETE',
      path: `/v2.5/expiration_products/${product.uid as string}`,
      query: {},
      status: 204,
    });
    expect(sandbox.requests[0]!.form).toEqual({ api_key: sandbox.apiKey });
  });

  it('DELETE on a terminal asks first; "n" keeps the item', async () => {
    const { code, screen } = await onTerminal(['api', 'DELETE', '/notes/n_keepme'], env, 'n\n');
    expect(code).toBe(1);
    expect(screen).toContain('Delete the item at /v2.5/notes/n_keepme? This cannot be undone. [y/N]');
    expect(sandbox.requests).toEqual([]);
  });

  it('--dry-run prints the request with the key redacted and sends nothing', async () => {
    const result = await runMain(['api', 'PUT', '/groups/g_1', '-F', 'group[name]=X', '--dry-run'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`PUT ${sandbox.url}/v2.5/groups/g_1\ngroup[name]=X\napi_key=[REDACTED]\n`);
    expect(sandbox.requests).toEqual([]);
  });

  it.each([
    ['GET', '/computers/NO-SUCH', 4],
    ['GET', '/no_such_resource', 4],
    ['PUT', '/v2.5/plugin_results/pr_nope', 4],
    ['POST', '/notes', 5],
  ])('%s %s: the API error keeps its exit code (%i)', async (method, path, code) => {
    const result = await runMain(['api', method, path], { env });
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^mon: ${method} /v2\\.5/`));
  });

  it.each([
    [['FETCH', '/users'], /<method>: 'FETCH' is not one of GET, POST, PUT, DELETE, PATCH/],
    [['GET', '/users', '-F', 'per_page'], /-F\/--field: 'per_page' is not key=value/],
    [['GET', '/users', '-F', '=2'], /-F\/--field: '=2' is not key=value/],
    [['GET', '/users', '-F', 'api_key=abc'], /-F\/--field: api_key is added from the profile/],
    [['GET', 'https://evil.example/v2.5/users'], /<path>: give a path such as \/v2\.5\/computers, not a URL/],
    [['GET', '/v2.2/computers'], /<path>: mon speaks API v2\.5 only, not v2\.2/],
    [['POST', '/notes', '--paginate'], /--paginate: only a GET can be paginated, not POST/],
    [
      ['GET', '/users', '--paginate', '-i'],
      /^mon: --include: shows the headers of one answer, not of every page with --paginate — drop --paginate/,
    ],
    [['GET', ''], /<path>: must not be empty/],
  ])('%j exits 2 naming the argument or option, with no request', async (args, message) => {
    const result = await runMain(['api', ...args], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(sandbox.requests).toEqual([]);
  });
});
