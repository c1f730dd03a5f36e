import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { api } from '../helpers/sandbox-http.js';
import { onTerminal } from '../helpers/terminal.js';

type Item = Record<string, unknown>;

/** The two resources of one shape (api-v2.5, Expiration manufacturers and expiration products). */
const KINDS = [
  {
    command: 'expiration-manufacturers',
    alias: 'manufacturers',
    path: '/v2.5/expiration_manufacturers',
    key: 'expiration_manufacturer',
    prefix: 'em_',
    other: 'ep_1',
    noun: 'expiration manufacturer',
    Noun: 'Expiration manufacturer',
  },
  {
    command: 'expiration-products',
    alias: 'products',
    path: '/v2.5/expiration_products',
    key: 'expiration_product',
    prefix: 'ep_',
    other: 'em_1',
    noun: 'expiration product',
    Noun: 'Expiration product',
  },
] as const;

describe.each(KINDS)('$command against the sandbox', ({ command, alias, path, key, prefix, other, noun, Noun }) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let all: Item[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => Date.parse('2025-06-01T12:00:00Z') });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    all = (await api(sandbox, path)).body as Item[];
    expect(all.length).toBeGreaterThan(2);
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it('`list --json` GETs the collection and prints it as received', async () => {
    const result = await runMain([command, 'list', '--json'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(all);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({
      method: 'GET',
      path,
      query: { page: '1', api_key: sandbox.apiKey },
      status: 200,
    });
  });

  it(`\`${alias} list\` (the alias) prints a table of uid, name, slug and creation date`, async () => {
    const result = await runMain([alias, 'list'], { env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID\s+NAME\s+SLUG\s+CREATED$/);
    expect(lines).toHaveLength(all.length + 1);
    all.forEach((item, i) => {
      const [uid, name, slug, created] = lines[i + 1]!.split(/\s{2,}/);
      expect([uid, name, slug]).toEqual([item.uid, item.name, item.slug]);
      // a pipe gets absolute local times
      expect(created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    });
  });

  it('`get <uid>` GETs the item', async () => {
    const uid = all[0]!.uid as string;
    const result = await runMain([command, 'get', uid, '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(all[0]);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: `${path}/${uid}`, status: 200 });
  });

  it(`\`create --name\` POSTs ${key}[name]`, async () => {
    const result = await runMain([command, 'create', '--name', 'Acme Licensing', '--json'], { env });
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as Item;
    expect(created).toMatchObject({ name: 'Acme Licensing', slug: 'acme-licensing' });
    expect(String(created.uid)).toMatch(new RegExp(`^${prefix}`));
    expect(result.stderr).toBe(`${Noun} Acme Licensing (${String(created.uid)}) created.\n`);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'POST', path, query: {}, status: 200 });
    expect(sandbox.requests[0]!.form).toEqual({ [`${key}[name]`]: 'Acme Licensing', api_key: sandbox.apiKey });
  });

  it(`\`update <uid> --name\` PUTs ${key}[name]`, async () => {
    const uid = all[1]!.uid as string;
    const result = await runMain([command, 'update', uid, '--name', 'Renamed Co', '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uid, name: 'Renamed Co', slug: 'renamed-co' });
    expect(result.stderr).toBe(`${Noun} ${uid} updated.\n`);
    expect(sandbox.requests[0]).toMatchObject({ method: 'PUT', path: `${path}/${uid}`, status: 200 });
    expect(sandbox.requests[0]!.form).toEqual({ [`${key}[name]`]: 'Renamed Co', api_key: sandbox.apiKey });
  });

  it('`delete` in a pipe without --yes is refused with exit 2 and deletes nothing', async () => {
    const uid = all[2]!.uid as string;
    const result = await runMain([command, 'delete', uid], { env });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/refusing to delete without --yes/);
    expect(sandbox.requests).toEqual([]);
  });

  it('`delete --yes` sends DELETE, prints nothing on stdout and exits 0 on 204', async () => {
    const uid = all[2]!.uid as string;
    const result = await runMain([command, 'delete', uid, '--yes'], { env });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(sandbox.requests.map((r) => [r.method, r.path, r.status])).toEqual([['DELETE', `${path}/${uid}`, 204]]);
    expect((await api(sandbox, `${path}/${uid}`)).status).toBe(404);
  });

  it('`delete` on a terminal names the item, and an "n" keeps it', async () => {
    const item = all[0]!;
    const { code, screen } = await onTerminal([command, 'delete', String(item.uid)], env, 'n\n');
    expect(code).toBe(1);
    expect(screen).toContain(`Delete ${noun} ${String(item.uid)} (${String(item.name)})? This cannot be undone. [y/N]`);
    expect(sandbox.requests.map((r) => r.method)).toEqual(['GET']);
  });

  // In-process through main(): the same parsing and checks as bin/mon, without a node start per case.
  it.each([
    ['create without --name', [command, 'create'], '--name is required'],
    ['a blank name', [command, 'create', '--name', '  '], '--name: must not be empty'],
    ['a name over 191', [command, 'create', '--name', 'n'.repeat(192)], '--name: at most 191 characters (got 192)'],
    [
      'a name over 191 on update',
      [command, 'update', `${prefix}1`, '--name', 'é'.repeat(192)],
      '--name: at most 191 characters (got 192)',
    ],
    ['update without --name', [command, 'update', `${prefix}1`], '--name is required'],
    [
      'the other kind of uid',
      [command, 'get', other],
      `<uid>: '${other}' is an ${other.startsWith('em_') ? 'expiration manufacturer' : 'expiration product'} uid, not an ${noun} — give the ${noun}'s uid (${prefix}…), slug or name`,
    ],
    [
      'a uid with a slash',
      [command, 'delete', `${prefix}1/../x`, '--yes'],
      `<uid>: '${prefix}1/../x' is not an ${noun} uid (they start with ${prefix})`,
    ],
  ] as const)('%s: exit 2, one line naming the option, no request', async (_, args, message) => {
    expectRefusedBeforeSending(await runMain(args, { env }), message, sandbox.requests);
  });
});
