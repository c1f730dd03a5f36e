import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, DAY, NOW_SEC, errorOf, start } from './helpers.js';

interface Expiration {
  uid: string;
  license_key: string;
  expires_at: number | null;
  expiration_manufacturer: string;
  expiration_product: string;
  group: string | null;
  computer: string | null;
  renewable: boolean;
  notes: string | null;
  [k: string]: unknown;
}
interface Named {
  uid: string;
  slug: string;
  name: string;
}

let sandbox: RunningSandbox;
let api: Api;
let all: Expiration[];
let makers: Named[];
let products: Named[];
let groups: Named[];
let computers: { uid: string; client_id: string; group: string }[];

beforeAll(async () => {
  ({ sandbox, api } = await start());
  all = (await api.get('/v2.5/expirations', { per_page: 100 })).body;
  makers = (await api.get('/v2.5/expiration_manufacturers')).body;
  products = (await api.get('/v2.5/expiration_products')).body;
  groups = (await api.get('/v2.5/groups')).body;
  computers = (await api.get('/v2.5/computers', { per_page: 100 })).body;
});
afterAll(() => sandbox.close());

const uids = (xs: { uid: string }[]): string[] => xs.map((x) => x.uid);
const list = async (query: Record<string, string>): Promise<Expiration[]> => {
  const res = await api.get('/v2.5/expirations', { per_page: 100, ...query });
  expect(res.status, JSON.stringify(query)).toBe(200);
  return res.body;
};
const base = (): Record<string, string> => ({
  'expiration[license_key]': 'LIC-TEST-1',
  'expiration[expires_at]': String(NOW_SEC + 30 * DAY),
  'expiration[expiration_manufacturer_id]': (makers[0] as Named).uid,
  'expiration[expiration_product_id]': (products[0] as Named).uid,
});

describe('GET /v2.5/expirations', () => {
  it('seeds about 15 expirations around today, sorted by expires_at descending', () => {
    expect(all.length).toBeGreaterThanOrEqual(12);
    const times = all.map((e) => e.expires_at as number);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times.some((t) => t < NOW_SEC)).toBe(true);
    expect(times.some((t) => t > NOW_SEC)).toBe(true);
    expect(all.some((e) => e.computer !== null)).toBe(true);
    expect(all.some((e) => e.computer === null && e.group !== null)).toBe(true);
    for (const e of all) {
      expect(Object.keys(e).sort()).toEqual([
        'computer',
        'created_at',
        'expiration_manufacturer',
        'expiration_product',
        'expires_at',
        'group',
        'license_key',
        'notes',
        'renewable',
        'uid',
        'updated_at',
      ]);
    }
  });

  it('relates a computer’s expiration to that computer’s group', () => {
    for (const e of all.filter((x) => x.computer !== null)) {
      expect(e.group).toBe(computers.find((c) => c.uid === e.computer)?.group);
    }
  });

  it('filters by uid, license_key and renewable', async () => {
    const e = all[2] as Expiration;
    expect(uids(await list({ uid: e.uid }))).toEqual([e.uid]);
    expect(uids(await list({ license_key: e.license_key }))).toEqual(
      uids(all.filter((x) => x.license_key === e.license_key)),
    );
    expect(uids(await list({ renewable: 'false' }))).toEqual(uids(all.filter((x) => !x.renewable)));
  });

  it('filters by manufacturer and product given as uid or slug', async () => {
    const apple = makers.find((m) => m.name === 'Apple') as Named;
    const expected = uids(all.filter((e) => e.expiration_manufacturer === apple.uid));
    expect(expected.length).toBeGreaterThan(0);
    expect(uids(await list({ manufacturer: apple.uid }))).toEqual(expected);
    expect(uids(await list({ manufacturer: 'apple' }))).toEqual(expected);
    const m365 = products.find((p) => p.name.startsWith('Microsoft 365')) as Named;
    const byProduct = uids(all.filter((e) => e.expiration_product === m365.uid));
    expect(uids(await list({ product: m365.slug }))).toEqual(byProduct);
    expect(uids(await list({ product: m365.uid }))).toEqual(byProduct);
    expect(await list({ product: 'no-such-product' })).toEqual([]);
  });

  it('filters by group (uid or slug) and computer (uid or client id)', async () => {
    const e = all.find((x) => x.computer !== null) as Expiration;
    const g = groups.find((x) => x.uid === e.group) as Named;
    const byGroup = uids(all.filter((x) => x.group === g.uid));
    expect(uids(await list({ group: g.uid }))).toEqual(byGroup);
    expect(uids(await list({ group: g.slug }))).toEqual(byGroup);
    const c = computers.find((x) => x.uid === e.computer) as { uid: string; client_id: string };
    const byComputer = uids(all.filter((x) => x.computer === c.uid));
    expect(uids(await list({ computer: c.uid }))).toEqual(byComputer);
    expect(uids(await list({ computer: c.client_id }))).toEqual(byComputer);
  });

  it('filters by an expires_at range, dates or epoch seconds, inclusive', async () => {
    const start = NOW_SEC - (NOW_SEC % DAY);
    const end = start + 60 * DAY;
    const expected = uids(
      all.filter((e) => (e.expires_at as number) >= start && (e.expires_at as number) <= end + DAY - 1),
    );
    expect(expected.length).toBeGreaterThan(0);
    const day = (s: number): string => new Date(s * 1000).toISOString().slice(0, 10);
    expect(uids(await list({ expires_at_start: day(start), expires_at_end: day(end) }))).toEqual(expected);
    expect(uids(await list({ expires_at_start: String(start), expires_at_end: String(end + DAY - 1) }))).toEqual(
      expected,
    );
  });

  it('counts an end date as its whole day, an epoch end as that second', async () => {
    const g = groups[0] as Named;
    const endDay = '2031-03-10';
    const at = Date.parse(`${endDay}T18:30:00Z`) / 1000;
    const created = await api.send('POST', '/v2.5/expirations', {
      ...base(),
      'expiration[group_id]': g.uid,
      'expiration[expires_at]': at,
    });
    expect(created.status).toBe(200);
    expect(uids(await list({ expires_at_start: '2031-03-10', expires_at_end: endDay }))).toEqual([created.body.uid]);
    expect(await list({ expires_at_start: '2031-03-01', expires_at_end: String(at - 1) })).toEqual([]);
    expect(uids(await list({ expires_at_start: String(at), expires_at_end: String(at) }))).toEqual([created.body.uid]);
    await api.send('DELETE', `/v2.5/expirations/${created.body.uid}`);
  });

  it('needs expires_at_start and expires_at_end together (400)', async () => {
    const a = await api.get('/v2.5/expirations', { expires_at_start: '2025-01-01' });
    expect(a.status).toBe(400);
    expect(errorOf(a)).toMatchObject({ code: ':missing_parameter' });
    expect(errorOf(a).details).toContain('expires_at_end');
    const b = await api.get('/v2.5/expirations', { expires_at_end: '2025-01-01' });
    expect(b.status).toBe(400);
    expect(errorOf(b).details).toContain('expires_at_start');
  });

  it('expands manufacturer, product, group and computer, and dotted computer.plugin_results', async () => {
    const e = all.find((x) => x.computer !== null) as Expiration;
    const res = await api.get(`/v2.5/expirations/${e.uid}`, {
      'expand[]': ['expiration_manufacturer', 'expiration_product', 'group', 'computer.plugin_results'],
    });
    expect(res.status).toBe(200);
    expect(res.body.expiration_manufacturer).toMatchObject({
      uid: e.expiration_manufacturer,
      name: expect.any(String),
      slug: expect.any(String),
    });
    expect(res.body.expiration_product).toMatchObject({ uid: e.expiration_product });
    expect(res.body.group).toMatchObject({ uid: e.group, name: expect.any(String) });
    expect(res.body.computer).toMatchObject({ uid: e.computer, client_id: expect.any(String) });
    expect(res.body.computer.plugin_results.length).toBeGreaterThan(0);
    const plain = await api.get(`/v2.5/expirations/${e.uid}`, { 'expand[]': 'computer' });
    expect(plain.body.computer.uid).toBe(e.computer);
    expect(plain.body.computer.plugin_results).toBeUndefined();
    expect(plain.body.group).toBe(e.group);
    const listed = await api.get('/v2.5/expirations', { 'expand[]': 'computer.plugin_results', uid: e.uid });
    expect(listed.body[0].computer.plugin_results.length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown uid', async () => {
    expect((await api.get('/v2.5/expirations/e_none')).status).toBe(404);
  });
});

describe('POST /v2.5/expirations', () => {
  it('creates an expiration for a computer, related to the computer’s group', async () => {
    const c = computers[4] as { uid: string; group: string };
    const res = await api.send('POST', '/v2.5/expirations', {
      ...base(),
      'expiration[computer_id]': c.uid,
      'expiration[renewable]': 'true',
      'expiration[notes]': 'three years',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      license_key: 'LIC-TEST-1',
      computer: c.uid,
      group: c.group,
      renewable: true,
      notes: 'three years',
      expires_at: NOW_SEC + 30 * DAY,
      created_at: NOW_SEC,
      updated_at: NOW_SEC,
    });
    expect(res.body.uid).toMatch(/^e_/);
    expect((await api.get(`/v2.5/expirations/${res.body.uid}`)).body).toEqual(res.body);
  });

  it('creates a group-only expiration; expires_at may be a YYYY-MM-DD date; renewable defaults false', async () => {
    const g = groups[1] as Named;
    const res = await api.send('POST', '/v2.5/expirations', {
      ...base(),
      'expiration[group_id]': g.uid,
      'expiration[expires_at]': '2026-01-31',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      group: g.uid,
      computer: null,
      renewable: false,
      notes: null,
      expires_at: Date.parse('2026-01-31T00:00:00Z') / 1000,
    });
  });

  it.each(['license_key', 'expires_at', 'expiration_manufacturer_id', 'expiration_product_id'])(
    'requires %s (400 :missing_parameter)',
    async (attr) => {
      const form: Record<string, string> = { ...base(), 'expiration[group_id]': (groups[0] as Named).uid };
      delete form[`expiration[${attr}]`];
      const res = await api.send('POST', '/v2.5/expirations', form);
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: ':missing_parameter' });
      expect(errorOf(res).details).toContain(`expiration[${attr}]`);
    },
  );

  it('needs one of group_id and computer_id: neither is 400, both is 422', async () => {
    const neither = await api.send('POST', '/v2.5/expirations', base());
    expect(neither.status).toBe(400);
    expect(errorOf(neither).code).toBe(':missing_parameter');
    const both = await api.send('POST', '/v2.5/expirations', {
      ...base(),
      'expiration[group_id]': (groups[0] as Named).uid,
      'expiration[computer_id]': (computers[0] as { uid: string }).uid,
    });
    expect(both.status).toBe(422);
    expect(errorOf(both).attribute).toBe('computer_id');
  });

  it.each([
    ['expiration_product_id', 'ep_missing'],
    ['expiration_manufacturer_id', 'em_missing'],
    ['group_id', 'g_missing'],
    ['computer_id', 'c_missing'],
    ['expires_at', 'next tuesday'],
    ['renewable', 'sometimes'],
  ])('answers 422 on %s for %s', async (attr, value) => {
    const form = { ...base(), 'expiration[group_id]': (groups[0] as Named).uid };
    if (attr === 'computer_id') delete (form as Record<string, string>)['expiration[group_id]'];
    const res = await api.send('POST', '/v2.5/expirations', { ...form, [`expiration[${attr}]`]: value });
    expect(res.status).toBe(422);
    expect(errorOf(res).attribute).toBe(attr);
  });

  it('answers 422 for a product of another subscriber (no leak)', async () => {
    const theirs = (await api.as(sandbox.otherApiKey).get('/v2.5/expiration_products')).body[0] as Named;
    const res = await api.send('POST', '/v2.5/expirations', {
      ...base(),
      'expiration[group_id]': (groups[0] as Named).uid,
      'expiration[expiration_product_id]': theirs.uid,
    });
    expect(res.status).toBe(422);
    expect(errorOf(res).attribute).toBe('expiration_product_id');
  });

  it('answers 500 for a license_key over 191 and notes over 65535', async () => {
    const g = { 'expiration[group_id]': (groups[0] as Named).uid };
    expect(
      (await api.send('POST', '/v2.5/expirations', { ...base(), ...g, 'expiration[license_key]': 'k'.repeat(192) }))
        .status,
    ).toBe(500);
    expect(
      (await api.send('POST', '/v2.5/expirations', { ...base(), ...g, 'expiration[license_key]': 'k'.repeat(191) }))
        .status,
    ).toBe(200);
    expect(
      (await api.send('POST', '/v2.5/expirations', { ...base(), ...g, 'expiration[notes]': 'n'.repeat(65536) })).status,
    ).toBe(500);
  });

  it('refuses unknown attributes (400 :unpermitted_parameter)', async () => {
    const res = await api.send('POST', '/v2.5/expirations', {
      ...base(),
      'expiration[group_id]': (groups[0] as Named).uid,
      'expiration[cost]': '12',
    });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: ':unpermitted_parameter' });
  });
});

describe('PUT and DELETE /v2.5/expirations/{uid}', () => {
  it('updates only what is sent (a sample sends only notes)', async () => {
    const e = all[0] as Expiration;
    const res = await api.send('PUT', `/v2.5/expirations/${e.uid}`, { 'expiration[notes]': 'Renewed by phone' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...e, notes: 'Renewed by phone', updated_at: NOW_SEC });
  });

  it('moves an expiration to a computer (group follows) or to a group (computer cleared)', async () => {
    const e = all.find((x) => x.computer === null) as Expiration;
    const c = computers[12] as { uid: string; group: string };
    const toComputer = await api.send('PUT', `/v2.5/expirations/${e.uid}`, { 'expiration[computer_id]': c.uid });
    expect(toComputer.body).toMatchObject({ computer: c.uid, group: c.group });
    const g = groups.find((x) => x.uid !== c.group) as Named;
    const toGroup = await api.send('PUT', `/v2.5/expirations/${e.uid}`, { 'expiration[group_id]': g.uid });
    expect(toGroup.body).toMatchObject({ computer: null, group: g.uid });
    const both = await api.send('PUT', `/v2.5/expirations/${e.uid}`, {
      'expiration[group_id]': g.uid,
      'expiration[computer_id]': c.uid,
    });
    expect(both.status).toBe(422);
  });

  it('answers 500 for over-long values on update too', async () => {
    const e = all[1] as Expiration;
    expect(
      (await api.send('PUT', `/v2.5/expirations/${e.uid}`, { 'expiration[license_key]': 'x'.repeat(192) })).status,
    ).toBe(500);
    expect((await api.get(`/v2.5/expirations/${e.uid}`)).body.license_key).toBe(e.license_key);
  });

  it('deletes with 204 and no body; the uid is then 404', async () => {
    const e = all[all.length - 1] as Expiration;
    const res = await api.send('DELETE', `/v2.5/expirations/${e.uid}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/v2.5/expirations/${e.uid}`)).status).toBe(404);
    expect((await api.send('DELETE', `/v2.5/expirations/${e.uid}`)).status).toBe(404);
  });
});
