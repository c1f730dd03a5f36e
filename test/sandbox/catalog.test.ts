import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, NOW_SEC, errorOf, start } from './helpers.js';

let sandbox: RunningSandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await start());
});
afterAll(() => sandbox.close());

describe.each([
  ['expiration_manufacturers', 'expiration_manufacturer', 'em_', 4],
  ['expiration_products', 'expiration_product', 'ep_', 4],
])('/v2.5/%s', (path, key, prefix, atLeast) => {
  const url = `/v2.5/${path}`;

  it('lists the seeded items sorted by name, with uid, slug, name and created_at', async () => {
    const res = await api.get(url);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(atLeast);
    const names = res.body.map((x: { name: string }) => x.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    for (const item of res.body) {
      expect(Object.keys(item).sort()).toEqual(['created_at', 'name', 'slug', 'uid']);
      expect(item.uid.startsWith(prefix)).toBe(true);
    }
  });

  it('creates with a slug derived from the name, gets, updates and deletes', async () => {
    const created = await api.send('POST', url, { [`${key}[name]`]: 'Acme Care Plus 2' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Acme Care Plus 2', slug: 'acme-care-plus-2', created_at: NOW_SEC });
    const uid = created.body.uid as string;
    expect(uid.startsWith(prefix)).toBe(true);
    expect((await api.get(`${url}/${uid}`)).body).toEqual(created.body);

    const updated = await api.send('PUT', `${url}/${uid}`, { [`${key}[name]`]: 'Acme Care Premium' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ uid, name: 'Acme Care Premium', slug: 'acme-care-premium' });

    const deleted = await api.send('DELETE', `${url}/${uid}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api.get(`${url}/${uid}`)).status).toBe(404);
  });

  it('requires name on create and update (400)', async () => {
    const res = await api.send('POST', url, {});
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: ':missing_parameter' });
    expect(errorOf(res).details).toContain(`${key}[name]`);
    const first = (await api.get(url)).body[0];
    expect((await api.send('PUT', `${url}/${first.uid}`, {})).status).toBe(400);
  });

  it('answers 500 for a name over 191 characters', async () => {
    expect((await api.send('POST', url, { [`${key}[name]`]: 'x'.repeat(192) })).status).toBe(500);
    expect((await api.send('POST', url, { [`${key}[name]`]: 'y'.repeat(191) })).status).toBe(200);
  });

  it('refuses a duplicate name (422 on name) and unknown attributes (400)', async () => {
    const first = (await api.get(url)).body[0];
    const dup = await api.send('POST', url, { [`${key}[name]`]: first.name.toUpperCase() });
    expect(dup.status).toBe(422);
    expect(errorOf(dup).attribute).toBe('name');
    const extra = await api.send('POST', url, { [`${key}[name]`]: 'Fresh', [`${key}[website]`]: 'x' });
    expect(extra.status).toBe(400);
    expect(errorOf(extra).code).toBe(':unpermitted_parameter');
  });

  it('answers 404 for unknown uids', async () => {
    expect((await api.get(`${url}/${prefix}none`)).status).toBe(404);
    expect((await api.send('PUT', `${url}/${prefix}none`, { [`${key}[name]`]: 'x' })).status).toBe(404);
    expect((await api.send('DELETE', `${url}/${prefix}none`)).status).toBe(404);
  });
});

describe('deleting a product that expirations use', () => {
  it('keeps the uid on the expiration and expands it to null', async () => {
    const e = (await api.get('/v2.5/expirations')).body[0];
    const res = await api.send('DELETE', `/v2.5/expiration_products/${e.expiration_product}`);
    expect(res.status).toBe(204);
    const after = await api.get(`/v2.5/expirations/${e.uid}`, { 'expand[]': 'expiration_product' });
    expect(after.body.expiration_product).toBeNull();
    expect((await api.get(`/v2.5/expirations/${e.uid}`)).body.expiration_product).toBe(e.expiration_product);
  });
});
