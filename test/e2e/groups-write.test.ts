import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runMain } from '../helpers/run-main.js';

type Item = Record<string, unknown>;

describe('groups find-or-create and update against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let target: Item;

  const get = async (path: string): Promise<any> =>
    (await fetch(`${sandbox.url}${path}${path.includes('?') ? '&' : '?'}api_key=${sandbox.apiKey}`)).json();
  const form = (index = 0) => {
    const { api_key: key, ...rest } = sandbox.requests[index]!.form;
    expect(key).toBe(sandbox.apiKey);
    return rest;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    target = ((await get('/v2.5/groups?per_page=1')) as Item[])[0]!;
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it('find-or-create sends group[name], group[description], group[show_contact_menu] and group[build_installers]', async () => {
    const result = await runMain(
      [
        'groups',
        'find-or-create',
        '--name',
        'Northwind Branch Office',
        '--description',
        'Studio, 2nd floor',
        '--show-contact-menu',
        '--build-installers',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v2.5/groups/find_or_create',
      query: {},
      status: 200,
    });
    expect(form()).toEqual({
      'group[name]': 'Northwind Branch Office',
      'group[description]': 'Studio, 2nd floor',
      'group[show_contact_menu]': 'true',
      'group[build_installers]': 'true',
    });
    const group = JSON.parse(result.stdout) as Item;
    expect(group).toMatchObject({
      name: 'Northwind Branch Office',
      description: 'Studio, 2nd floor',
      show_contact_menu: true,
    });
    expect(group.uid).toMatch(/^g_/);
    expect(result.stderr).toBe(`Group Northwind Branch Office (${group.uid as string}) is ready.\n`);
    expect(await get(`/v2.5/groups/${group.uid as string}`)).toEqual(group);
  });

  it('find-or-create with the name of an existing group returns it unchanged', async () => {
    const before = (await get(`/v2.5/groups/${target.uid as string}`)) as Item;
    sandbox.requests.length = 0;
    const result = await runMain(
      [
        'groups',
        'find-or-create',
        '--name',
        before.name as string,
        '--description',
        'ignored for an existing group',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(before);
  });

  it('find-or-create again with the same name returns the same group', async () => {
    const first = JSON.parse(
      (await runMain(['groups', 'find-or-create', '--name', 'Repeat Me', '--json', '-q'], { env })).stdout,
    ) as Item;
    const again = await runMain(
      ['groups', 'find-or-create', '--name', 'Repeat Me', '--no-show-contact-menu', '--json', '-q'],
      { env },
    );
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(again.stdout) as Item).uid).toBe(first.uid);
    expect(form(0)).toEqual({ 'group[name]': 'Repeat Me' });
    expect(form(1)).toEqual({ 'group[name]': 'Repeat Me', 'group[show_contact_menu]': 'false' });
  });

  it('update --name sends one PUT with the new name only', async () => {
    const result = await runMain(['groups', 'update', target.uid as string, '--name', 'Renamed Group', '--json'], {
      env,
    });
    expect(result.code).toBe(0);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({
      method: 'PUT',
      path: `/v2.5/groups/${target.uid as string}`,
      query: {},
      status: 200,
    });
    expect(form()).toEqual({ 'group[name]': 'Renamed Group' });
    expect(JSON.parse(result.stdout)).toMatchObject({ uid: target.uid, name: 'Renamed Group' });
    expect(result.stderr).toBe(`Group ${target.uid as string} updated.\n`);
  });

  it('update without --name reads the group first and sends its current name again', async () => {
    const current = (await get(`/v2.5/groups/${target.uid as string}`)) as Item;
    sandbox.requests.length = 0;
    const result = await runMain(
      [
        'groups',
        'update',
        target.uid as string,
        '--description',
        'New text',
        '--reference-email',
        'it@example.com',
        '--no-show-contact-menu',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET /v2.5/groups/${target.uid as string} 200`,
      `PUT /v2.5/groups/${target.uid as string} 200`,
    ]);
    expect(sandbox.requests[0]!.query).toEqual({ api_key: sandbox.apiKey });
    expect(form(1)).toEqual({
      'group[name]': current.name,
      'group[description]': 'New text',
      'group[reference_email]': 'it@example.com',
      'group[show_contact_menu]': 'false',
    });
    expect(JSON.parse(result.stdout)).toMatchObject({
      uid: target.uid,
      name: current.name,
      description: 'New text',
      reference_email: 'it@example.com',
      show_contact_menu: false,
    });
  });

  it('update --dry-run without --name sends nothing, not even the read', async () => {
    const result = await runMain(['groups', 'update', target.uid as string, '--description', 'x', '--dry-run'], {
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`PUT ${sandbox.url}/v2.5/groups/${target.uid as string}\n`);
    expect(sandbox.requests).toEqual([]);
  });

  it('update of an unknown group exits 4', async () => {
    const result = await runMain(['groups', 'update', 'g_nosuchgroup', '--description', 'x'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^mon: GET \/v2\.5\/groups\/g_nosuchgroup: 404/);
  });

  it.each([
    ['find-or-create without --name', ['find-or-create'], /--name is required/],
    ['an empty --name', ['find-or-create', '--name', '  '], /--name: must not be empty/],
    [
      'a --name of 256 characters',
      ['find-or-create', '--name', 'n'.repeat(256)],
      /--name: at most 255 characters \(got 256\)/,
    ],
    [
      'a --description of 65536 characters',
      ['find-or-create', '--name', 'x', '--description', 'd'.repeat(65_536)],
      /--description: at most 65535 characters/,
    ],
    ['update with nothing to change', ['update', 'g_abc'], /nothing to update/],
    [
      'update of a uid that is not a group',
      ['update', 'c_abc', '--name', 'x'],
      /<group>: 'c_abc' is a computer uid, not a group — give the group's uid \(g_…\), slug or name/,
    ],
    [
      'a --reference-email that is not one',
      ['update', 'g_abc', '--reference-email', 'nobody'],
      /--reference-email: 'nobody' is not an e-mail address/,
    ],
    [
      'a --reference-email of 192 characters',
      ['update', 'g_abc', '--reference-email', `${'a'.repeat(180)}@example.com`],
      /--reference-email: at most 191 characters/,
    ],
    [
      'an update --name of 256 characters',
      ['update', 'g_abc', '--name', 'n'.repeat(256)],
      /--name: at most 255 characters/,
    ],
  ])('%s: exit 2 naming the option, no request', async (_name, args, message) => {
    const result = await runMain(['groups', ...args], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(sandbox.requests).toEqual([]);
  });
});
