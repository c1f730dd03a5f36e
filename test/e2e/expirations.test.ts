import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { expectRefusedBeforeSending, runMain } from '../helpers/run-main.js';
import { api } from '../helpers/sandbox-http.js';
import { onTerminal } from '../helpers/terminal.js';

type Item = Record<string, unknown>;

/** 2025-06-01 12:00 UTC: the sandbox seeds its demo data around this day. */
const NOW = Date.parse('2025-06-01T12:00:00Z');
const DAY = 86_400;
const now = () => NOW;
const soonest = (items: Item[]) =>
  [...items].sort(
    (a, b) => (a.expires_at as number) - (b.expires_at as number) || String(a.uid).localeCompare(String(b.uid)),
  );
const uids = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as Item).uid);

describe('expirations against the sandbox', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let all: Item[];
  let manufacturer: string;
  let product: string;
  let group: string;
  let computer: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => NOW });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
    all = (await api(sandbox, '/v2.5/expirations?per_page=100')).body as Item[];
    manufacturer = ((await api(sandbox, '/v2.5/expiration_manufacturers')).body as Item[])[0]!.uid as string;
    product = ((await api(sandbox, '/v2.5/expiration_products')).body as Item[])[0]!.uid as string;
    group = ((await api(sandbox, '/v2.5/groups')).body as Item[])[0]!.uid as string;
    computer = ((await api(sandbox, '/v2.5/computers')).body as Item[])[0]!.uid as string;
    expect(all.length).toBeGreaterThan(3);
  });
  beforeEach(() => {
    sandbox.requests.length = 0;
  });
  afterAll(() => sandbox.close());

  it('`list` sends every filter under its API name (names and slugs as uids), dates as epoch seconds covering whole UTC days', async () => {
    const uidOf = async (path: string, key: string, value: string) =>
      ((await api(sandbox, path)).body as Item[]).find((item) => item[key] === value)!.uid;
    const apple = await uidOf('/v2.5/expiration_manufacturers', 'slug', 'apple');
    const care = await uidOf('/v2.5/expiration_products', 'name', 'AppleCare+ for Mac');
    const acme = await uidOf('/v2.5/groups', 'slug', 'acme-design');
    sandbox.requests.length = 0;
    const result = await runMain(
      [
        'expirations',
        'list',
        '--uid',
        'e_nothing',
        '--manufacturer',
        'apple',
        '--product',
        'applecare+ FOR mac',
        '--group',
        'acme-design',
        '--computer',
        'c_x',
        '--license-key',
        'K-1',
        '--expires-start',
        '2026-01-01',
        '--expires-end',
        '2026-03-31',
        '--json',
      ],
      { env },
    );
    expect(result).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    // One lookup each for the manufacturer, the product and the group, then the list itself.
    expect(sandbox.requests.map((r) => r.path)).toEqual([
      '/v2.5/expiration_manufacturers',
      '/v2.5/expiration_products',
      '/v2.5/groups/acme-design',
      '/v2.5/expirations',
    ]);
    expect(sandbox.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v2.5/expirations', status: 200 });
    expect(sandbox.requests.at(-1)!.query).toEqual({
      uid: 'e_nothing',
      manufacturer: apple,
      product: care,
      group: acme,
      computer: 'c_x',
      license_key: 'K-1',
      per_page: '100',
      expires_at_start: '1767225600',
      expires_at_end: String(1774915200 + 86_399),
      page: '1',
      api_key: sandbox.apiKey,
    });
  });

  it("`list` is soonest expiry first, across every page; --order latest keeps the API's order and its pages", async () => {
    const result = await runMain(['expirations', 'list', '--per-page', '5', '-o', 'ndjson'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(uids(result.stdout)).toEqual(soonest(all).map((e) => e.uid));
    expect(sandbox.requests.length).toBe(Math.ceil(all.length / 5));
    const limited = await runMain(['expirations', 'list', '--limit', '2', '-o', 'ndjson'], { env });
    expect(uids(limited.stdout)).toEqual(
      soonest(all)
        .slice(0, 2)
        .map((e) => e.uid),
    );
    sandbox.requests.length = 0;
    const latest = await runMain(
      ['expirations', 'list', '--order', 'latest', '--per-page', '3', '--page', '2', '-o', 'ndjson'],
      { env },
    );
    expect(uids(latest.stdout)).toEqual(all.slice(3, 6).map((e) => e.uid));
    expect(sandbox.requests).toHaveLength(1);
  });

  it('`list --within 30d`: from today (UTC) through the day 30 days from now, soonest first', async () => {
    const today = Math.floor(NOW / 1000 / DAY) * DAY;
    const end = Math.floor((NOW / 1000 + 30 * DAY) / DAY) * DAY + DAY - 1;
    const result = await runMain(['expirations', 'list', '--within', '30d', '-o', 'ndjson'], { env, now });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(sandbox.requests.at(-1)!.query).toMatchObject({
      expires_at_start: String(today),
      expires_at_end: String(end),
    });
    const expected = soonest(all.filter((e) => (e.expires_at as number) >= today && (e.expires_at as number) <= end));
    expect(expected.length).toBeGreaterThan(0);
    expect(uids(result.stdout)).toEqual(expected.map((e) => e.uid));
  });

  it('`list --expired`: every expiry before today, soonest first; with --within, both', async () => {
    const today = Math.floor(NOW / 1000 / DAY) * DAY;
    const expired = await runMain(['expirations', 'list', '--expired', '-o', 'ndjson'], { env, now });
    expect(expired).toMatchObject({ code: 0, stderr: '' });
    expect(sandbox.requests.at(-1)!.query).toMatchObject({ expires_at_start: '0', expires_at_end: String(today - 1) });
    const before = soonest(all.filter((e) => (e.expires_at as number) < today));
    expect(before.length).toBeGreaterThan(0);
    expect(uids(expired.stdout)).toEqual(before.map((e) => e.uid));
    const both = await runMain(['expirations', 'list', '--expired', '--within', '2w', '-o', 'ndjson'], { env, now });
    const end = Math.floor((NOW / 1000 + 14 * DAY) / DAY) * DAY + DAY - 1;
    expect(uids(both.stdout)).toEqual(soonest(all.filter((e) => (e.expires_at as number) <= end)).map((e) => e.uid));
  });

  it.each([
    [['--within', '0d'], "mon: --within: '0d' is not a duration such as 30d, 2w or 12h"],
    [['--within', 'soon'], "mon: --within: 'soon' is not a duration such as 30d, 2w or 12h"],
    [['--within', '36501d'], 'mon: --within: at most 36500d (100 years)'],
    [
      ['--within', '30d', '--expires-start', '2026-01-01', '--expires-end', '2026-02-01'],
      'mon: --within and --expires-start cannot be used together',
    ],
    [
      ['--expired', '--expires-start', '2026-01-01', '--expires-end', '2026-02-01'],
      'mon: --expired and --expires-start cannot be used together',
    ],
    [['--page', '2'], 'mon: --page: soonest first is sorted after every page is read, so it has no pages'],
    [['--order', 'first'], "mon: --order: 'first' is not one of soonest, latest"],
  ])('`list %j`: exit 2 naming the option, nothing sent', async (words, said) => {
    const result = await runMain(['expirations', 'list', ...words], { env, now });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr.startsWith(said)).toBe(true);
    expect(sandbox.requests).toEqual([]);
  });

  it('`list --json` prints the objects as received; the date range keeps what the API keeps', async () => {
    const [first] = all;
    const day = new Date((first!.expires_at as number) * 1000).toISOString().slice(0, 10);
    const expected = all.filter((e) => new Date((e.expires_at as number) * 1000).toISOString().slice(0, 10) === day);
    const result = await runMain(['expirations', 'list', '--expires-start', day, '--expires-end', day, '--json'], {
      env,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('`list` prints a table of product, license key, expiry date, renewal and owner, by name', async () => {
    sandbox.requests.length = 0;
    const result = await runMain(['expirations', 'list', '--limit', '3'], { env });
    expect(result.code).toBe(0);
    // A table names what JSON leaves as uids: it asks for them expanded.
    expect(sandbox.requests[0]!.query['expand[]']).toEqual(['expiration_product', 'computer', 'group']);
    // Soonest expiry first: the API's order (latest first) sorted the other way.
    const named = soonest(
      (
        await api(
          sandbox,
          '/v2.5/expirations?per_page=100&expand[]=expiration_product&expand[]=computer&expand[]=group',
        )
      ).body as Item[],
    ).slice(0, 3);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID\s+PRODUCT\s+LICENSE KEY\s+EXPIRES\s+RENEWABLE\s+OWNER$/);
    expect(lines).toHaveLength(4);
    named.forEach((e, i) => {
      const owner = (e.computer ?? e.group) as Item;
      const expires = new Date((e.expires_at as number) * 1000).toISOString().slice(0, 10);
      const product = (e.expiration_product as Item).name;
      const ownerName = owner.name ?? owner.custom_name ?? owner.computer_name;
      expect(lines[i + 1]!.split(/\s{2,}/)).toEqual([
        e.uid,
        product,
        e.license_key,
        expires,
        e.renewable ? 'yes' : 'no',
        ownerName,
      ]);
    });
  });

  it('`get <uid> --json` prints the expiration as received', async () => {
    const uid = all[0]!.uid as string;
    const result = await runMain(['expirations', 'get', uid, '--json'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual((await api(sandbox, `/v2.5/expirations/${uid}`)).body);
    expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: `/v2.5/expirations/${uid}` });
  });

  it('`create` for a group POSTs every attribute as expiration[...], the date as epoch seconds', async () => {
    const result = await runMain(
      [
        'expirations',
        'create',
        '--license-key',
        'XK-2231-99',
        '--expires-at',
        '2026-09-30',
        '--manufacturer',
        manufacturer,
        '--product',
        product,
        '--group',
        group,
        '--renewable',
        '--notes',
        'PO 4471',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as Item;
    expect(created).toMatchObject({
      license_key: 'XK-2231-99',
      expires_at: 1790726400,
      group,
      computer: null,
      renewable: true,
      notes: 'PO 4471',
    });
    expect(result.stderr).toBe(`Expiration ${String(created.uid)} created.\n`);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'POST', path: '/v2.5/expirations', query: {}, status: 200 });
    expect(sandbox.requests[0]!.form).toEqual({
      'expiration[license_key]': 'XK-2231-99',
      'expiration[expires_at]': '1790726400',
      'expiration[expiration_manufacturer_id]': manufacturer,
      'expiration[expiration_product_id]': product,
      'expiration[group_id]': group,
      'expiration[renewable]': 'true',
      'expiration[notes]': 'PO 4471',
      api_key: sandbox.apiKey,
    });
  });

  it('`create` for a computer sends computer_id, and --no-renewable as false', async () => {
    const result = await runMain(
      [
        'expirations',
        'create',
        '--license-key',
        'C02XL0',
        '--expires-at',
        '2027-01-15',
        '--manufacturer',
        manufacturer,
        '--product',
        product,
        '--computer',
        computer,
        '--no-renewable',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ computer, renewable: false });
    expect(sandbox.requests[0]!.form).toEqual({
      'expiration[license_key]': 'C02XL0',
      'expiration[expires_at]': String(Date.parse('2027-01-15T00:00:00Z') / 1000),
      'expiration[expiration_manufacturer_id]': manufacturer,
      'expiration[expiration_product_id]': product,
      'expiration[computer_id]': computer,
      'expiration[renewable]': 'false',
      api_key: sandbox.apiKey,
    });
  });

  it('`update` PUTs only the options given', async () => {
    const uid = all[1]!.uid as string;
    const result = await runMain(
      ['expirations', 'update', uid, '--notes', 'Renewed', '--expires-at', '2038-01-19', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Expiration ${uid} updated.\n`);
    expect(JSON.parse(result.stdout)).toMatchObject({ uid, notes: 'Renewed', expires_at: 2147472000 });
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'PUT', path: `/v2.5/expirations/${uid}`, status: 200 });
    expect(sandbox.requests[0]!.form).toEqual({
      'expiration[notes]': 'Renewed',
      'expiration[expires_at]': '2147472000',
      api_key: sandbox.apiKey,
    });
  });

  it('`--dry-run create` prints the request, key redacted, and sends nothing', async () => {
    const result = await runMain(
      [
        'expirations',
        'create',
        '--license-key',
        'K',
        '--expires-at',
        '2026-09-30',
        '--manufacturer',
        'em_1',
        '--product',
        'ep_1',
        '--group',
        'g_1',
        '--dry-run',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `POST ${sandbox.url}/v2.5/expirations`,
        'expiration[license_key]=K',
        'expiration[expires_at]=1790726400',
        'expiration[expiration_manufacturer_id]=em_1',
        'expiration[expiration_product_id]=ep_1',
        'expiration[group_id]=g_1',
        // The table after a create names the product and owner, as the list's does.
        'expand[]=expiration_product',
        'expand[]=computer',
        'expand[]=group',
        'api_key=[REDACTED]',
        '',
      ].join('\n'),
    );
    expect(result.stdout + result.stderr).not.toContain(sandbox.apiKey);
    expect(sandbox.requests).toEqual([]);
  });

  it('`--fields` picks documented keys and table columns; csv keeps epoch times as ISO dates', async () => {
    const now = soonest(all).slice(0, 2);
    sandbox.requests.length = 0;
    const result = await runMain(
      ['expirations', 'list', '--limit', '2', '-o', 'csv', '--fields', 'uid,license_key,expires_at,owner'],
      { env },
    );
    expect(result.code).toBe(0);
    const expected = now.map((e) =>
      [
        e.uid,
        e.license_key,
        new Date((e.expires_at as number) * 1000).toISOString().slice(0, 10),
        e.computer ?? e.group,
      ].join(','),
    );
    expect(result.stdout.trimEnd().split(/\r?\n/)).toEqual(['uid,license_key,expires_at,owner', ...expected]);
  });

  it('`--fields` with an unknown key exits 2 saying where the keys come from, before any request', async () => {
    const result = await runMain(['expirations', 'list', '--fields', 'uid,colour'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "mon: --fields: unknown key colour — the keys are those of -o json, and the table's columns owner\n",
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('`delete --dry-run` prints the DELETE, asks nothing and sends nothing', async () => {
    const result = await runMain(['expirations', 'delete', 'e_1', '--dry-run'], { env });
    expect(result).toMatchObject({
      code: 0,
      stdout: `DELETE ${sandbox.url}/v2.5/expirations/e_1\napi_key=[REDACTED]\n`,
    });
    expect(sandbox.requests).toEqual([]);
  });

  it('`delete` in a pipe without --yes is refused with exit 2 and deletes nothing', async () => {
    const uid = all[2]!.uid as string;
    const result = await runMain(['expirations', 'delete', uid], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/refusing to delete without --yes/);
    expect(sandbox.requests).toEqual([]);
    expect((await api(sandbox, `/v2.5/expirations/${uid}`)).status).toBe(200);
  });

  it('`delete --yes` sends DELETE, prints nothing on stdout and exits 0 on 204', async () => {
    const uid = all[2]!.uid as string;
    const result = await runMain(['expirations', 'delete', uid, '--yes'], { env });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'DELETE', path: `/v2.5/expirations/${uid}`, status: 204 });
    expect(sandbox.requests[0]!.form).toEqual({ api_key: sandbox.apiKey });
    expect((await api(sandbox, `/v2.5/expirations/${uid}`)).status).toBe(404);
  });

  it('`delete` on a terminal shows what will go and deletes after a "y"', async () => {
    const e = all[3]!;
    const { code, screen } = await onTerminal(['expirations', 'delete', String(e.uid)], env, 'y\n');
    expect(code).toBe(0);
    expect(screen).toContain(
      `Delete expiration ${String(e.uid)} (license key ${String(e.license_key)}, product ${String(e.expiration_product)}`,
    );
    expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET /v2.5/expirations/${String(e.uid)} 200`,
      `DELETE /v2.5/expirations/${String(e.uid)} 204`,
    ]);
  });

  const long = (prefix: string, length: number) => prefix + 'x'.repeat(length - prefix.length);
  const create = (overrides: Record<string, string | undefined>, extra: string[] = []) => {
    const options: Record<string, string | undefined> = {
      '--license-key': 'K',
      '--expires-at': '2026-09-30',
      '--manufacturer': 'em_1',
      '--product': 'ep_1',
      '--group': 'g_1',
      ...overrides,
    };
    return [
      'expirations',
      'create',
      ...Object.entries(options).flatMap(([flag, value]) => (value === undefined ? [] : [flag, value])),
      ...extra,
    ];
  };

  // In-process through main(): the same parsing and checks as bin/mon, without a node start per case.
  it.each([
    ['create without --license-key', create({ '--license-key': undefined }), '--license-key is required'],
    ['create without --expires-at', create({ '--expires-at': undefined }), '--expires-at is required'],
    ['create without --manufacturer', create({ '--manufacturer': undefined }), '--manufacturer is required'],
    ['create without an owner', create({ '--group': undefined }), 'give one of --group or --computer'],
    ['create with both owners', create({ '--computer': 'c_1' }), 'give only one of --group and --computer'],
    [
      'a license key over 191',
      create({ '--license-key': 'k'.repeat(192) }),
      '--license-key: at most 191 characters (got 192)',
    ],
    ['an empty license key', create({ '--license-key': ' ' }), '--license-key: must not be empty'],
    [
      'a manufacturer id over 191',
      create({ '--manufacturer': long('em_', 192) }),
      '--manufacturer: at most 191 characters (got 192)',
    ],
    ['a group over 255', create({ '--group': long('g_', 256) }), '--group: at most 255 characters (got 256)'],
    ['notes over 65535', create({ '--notes': 'n'.repeat(65_536) }), '--notes: at most 65535 characters (got 65536)'],
    [
      'a product uid for --manufacturer',
      create({ '--manufacturer': 'ep_1' }),
      "--manufacturer: 'ep_1' is an expiration product uid, not an expiration manufacturer — give the expiration manufacturer's uid (em_…), slug or name",
    ],
    [
      'a manufacturer uid for --product',
      create({ '--product': 'em_1' }),
      "--product: 'em_1' is an expiration manufacturer uid, not an expiration product — give the expiration product's uid (ep_…), slug or name",
    ],
    [
      'a note uid for --group',
      create({ '--group': 'n_1' }),
      "--group: 'n_1' is a note uid, not a group — give the group's uid (g_…), slug or name",
    ],
    [
      'a group uid for --computer',
      create({ '--group': undefined, '--computer': 'g_1' }),
      "--computer: 'g_1' is a group uid, not a computer — give the computer's client id or c_ uid",
    ],
    [
      'an impossible date',
      create({ '--expires-at': '2026-02-30' }),
      "--expires-at: '2026-02-30' does not exist: February 2026 has 28 days",
    ],
    [
      'a date in another form',
      create({ '--expires-at': '30/09/2026' }),
      "--expires-at: '30/09/2026' is not a date of the form YYYY-MM-DD",
    ],
    [
      'a date past 32-bit time',
      create({ '--expires-at': '2038-01-20' }),
      '--expires-at: must lie between 1970-01-01 and 2038-01-19 (the API keeps times in 32 bits)',
    ],
    [
      'a start without an end',
      ['expirations', 'list', '--expires-start', '2026-01-01'],
      '--expires-start and --expires-end go together: give both',
    ],
    [
      'an end without a start',
      ['expirations', 'list', '--expires-end', '2026-01-01'],
      '--expires-start and --expires-end go together: give both',
    ],
    [
      'a start after the end',
      ['expirations', 'list', '--expires-start', '2026-02-01', '--expires-end', '2026-01-01'],
      '--expires-start: must not be after --expires-end',
    ],
    [
      'a start after the end, with a group to look up',
      ['expirations', 'list', '--group', 'acme-design', '--expires-start', '2026-02-01', '--expires-end', '2026-01-01'],
      '--expires-start: must not be after --expires-end',
    ],
    [
      'a bad start date',
      ['expirations', 'list', '--expires-start', '2026-13-01', '--expires-end', '2026-12-01'],
      "--expires-start: '2026-13-01' has no month 13",
    ],
    [
      'a note uid for list --uid',
      ['expirations', 'list', '--uid', 'n_1'],
      "--uid: 'n_1' is not an expiration uid (they start with e_)",
    ],
    [
      'a license key filter over 191',
      ['expirations', 'list', '--license-key', 'k'.repeat(192)],
      '--license-key: at most 191 characters (got 192)',
    ],
    [
      'get with a group uid',
      ['expirations', 'get', 'g_1'],
      "<uid>: 'g_1' is not an expiration uid (they start with e_)",
    ],
    [
      'get with a bare prefix',
      ['expirations', 'get', 'e_'],
      "<uid>: 'e_' is not an expiration uid (they start with e_)",
    ],
    [
      'delete with a note uid',
      ['expirations', 'delete', 'n_1', '--yes'],
      "<uid>: 'n_1' is not an expiration uid (they start with e_)",
    ],
    [
      'update with nothing to change',
      ['expirations', 'update', 'e_1'],
      'nothing to update: give at least one attribute option',
    ],
    [
      'update with both owners',
      ['expirations', 'update', 'e_1', '--group', 'g_1', '--computer', 'c_1'],
      '--group and --computer cannot be used together',
    ],
    [
      'update with a manufacturer uid for --product',
      ['expirations', 'update', 'e_1', '--product', 'em_1'],
      "--product: 'em_1' is an expiration manufacturer uid, not an expiration product — give the expiration product's uid (ep_…), slug or name",
    ],
    [
      'update with a bad date',
      ['expirations', 'update', 'e_1', '--expires-at', 'tomorrow'],
      "--expires-at: 'tomorrow' is not a date of the form YYYY-MM-DD",
    ],
  ] as const)('%s: exit 2, one line naming the option, no request', async (_, args, message) => {
    expectRefusedBeforeSending(await runMain(args, { env }), message, sandbox.requests);
  });
});
