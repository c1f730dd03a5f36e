import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, allPages, errorOf, start, type Res } from './helpers.js';

let sandbox: RunningSandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await start());
});
afterAll(() => sandbox.close());

const headers = (res: Res): Record<string, string | null> =>
  Object.fromEntries(
    ['x-page', 'x-per-page', 'x-offset', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => [
      h,
      res.headers.get(h),
    ]),
  );
const uids = (res: Res): string[] => res.body.map((x: { uid: string }) => x.uid);

describe('pagination (api-v2.5, Limits)', () => {
  it('pages 40 computers at per_page 15 into 15 + 15 + 10', async () => {
    const p1 = await api.get('/v2.5/computers', { per_page: 15 });
    const p2 = await api.get('/v2.5/computers', { per_page: 15, page: 2 });
    const p3 = await api.get('/v2.5/computers', { per_page: 15, page: 3 });
    expect(headers(p1)).toEqual({
      'x-page': '1',
      'x-per-page': '15',
      'x-offset': '0',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '40',
      'x-total-pages': '3',
    });
    expect(headers(p2)).toEqual({
      'x-page': '2',
      'x-per-page': '15',
      'x-offset': '15',
      'x-next-page': '3',
      'x-prev-page': '1',
      'x-total': '40',
      'x-total-pages': '3',
    });
    expect(headers(p3)).toEqual({
      'x-page': '3',
      'x-per-page': '15',
      'x-offset': '30',
      'x-next-page': '',
      'x-prev-page': '2',
      'x-total': '40',
      'x-total-pages': '3',
    });
    expect([p1.body.length, p2.body.length, p3.body.length]).toEqual([15, 15, 10]);
    const all = [...uids(p1), ...uids(p2), ...uids(p3)];
    expect(new Set(all).size).toBe(40);
    const whole = await api.get('/v2.5/computers', { per_page: 100 });
    expect(uids(whole)).toEqual(all);
  });

  it('defaults to page 1 of 50', async () => {
    const res = await api.get('/v2.5/computers');
    expect(res.body).toHaveLength(40);
    expect(headers(res)).toEqual({
      'x-page': '1',
      'x-per-page': '50',
      'x-offset': '0',
      'x-next-page': '',
      'x-prev-page': '',
      'x-total': '40',
      'x-total-pages': '1',
    });
  });

  it('starts offset 5 at record 6, and offset wins over page', async () => {
    const whole = uids(await api.get('/v2.5/computers', { per_page: 100 }));
    const res = await api.get('/v2.5/computers', { offset: 5, per_page: 10, page: 3 });
    expect(uids(res)).toEqual(whole.slice(5, 15));
    expect(headers(res)).toMatchObject({
      'x-offset': '5',
      'x-page': '1',
      'x-per-page': '10',
      'x-next-page': '2',
      'x-total': '40',
      'x-total-pages': '4',
    });
    const deep = await api.get('/v2.5/computers', { offset: 35, per_page: 10 });
    expect(uids(deep)).toEqual(whole.slice(35));
    expect(headers(deep)).toMatchObject({ 'x-page': '4', 'x-next-page': '', 'x-prev-page': '3' });
    expect(uids(await api.get('/v2.5/computers', { offset: 0, per_page: 3 }))).toEqual(whole.slice(0, 3));
  });

  it('clamps per_page above 100 to 100', async () => {
    const { sandbox: big, api: bigApi } = await start({ computers: 130 });
    try {
      const res = await bigApi.get('/v2.5/computers', { per_page: 500 });
      expect(res.body).toHaveLength(100);
      expect(headers(res)).toMatchObject({
        'x-per-page': '100',
        'x-total': '130',
        'x-total-pages': '2',
        'x-next-page': '2',
      });
      const all = await allPages(bigApi, '/v2.5/computers');
      expect(new Set(all.map((c) => (c as { uid: string }).uid)).size).toBe(130);
    } finally {
      await big.close();
    }
  });

  it('returns an empty page past the end', async () => {
    const res = await api.get('/v2.5/computers', { page: 9, per_page: 15 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(headers(res)).toMatchObject({
      'x-page': '9',
      'x-next-page': '',
      'x-prev-page': '8',
      'x-total': '40',
      'x-total-pages': '3',
    });
  });

  it.each([
    ['per_page', '0'],
    ['per_page', 'ten'],
    ['page', '0'],
    ['page', '-1'],
    ['offset', '-5'],
    ['offset', '1.5'],
  ])('rejects %s=%s with 400 naming the parameter', async (name, value) => {
    const res = await api.get('/v2.5/computers', { [name]: value });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: ':invalid_parameter' });
    expect(errorOf(res).details).toContain(name);
  });

  it.each([
    '/v2.5/groups',
    '/v2.5/computers',
    '/v2.5/expirations',
    '/v2.5/expiration_manufacturers',
    '/v2.5/expiration_products',
    '/v2.5/notes',
    '/v2.5/users',
  ])('sends every pagination header on %s, consistent with the body', async (path) => {
    const full = await api.get(path, { per_page: 100 });
    const total = full.body.length;
    expect(total).toBeGreaterThan(1);
    const res = await api.get(path, { per_page: 2, page: 1 });
    expect(res.body).toHaveLength(2);
    expect(headers(res)).toEqual({
      'x-page': '1',
      'x-per-page': '2',
      'x-offset': '0',
      'x-next-page': total > 2 ? '2' : '',
      'x-prev-page': '',
      'x-total': String(total),
      'x-total-pages': String(Math.ceil(total / 2)),
    });
    expect(uids(res)).toEqual(uids(full).slice(0, 2));
  });

  it('reports zero pages for an empty result', async () => {
    const res = await api.get('/v2.5/computers', { serial_number: 'NO-SUCH-SERIAL' });
    expect(res.body).toEqual([]);
    expect(headers(res)).toMatchObject({
      'x-total': '0',
      'x-total-pages': '0',
      'x-next-page': '',
      'x-prev-page': '',
      'x-page': '1',
    });
  });
});
