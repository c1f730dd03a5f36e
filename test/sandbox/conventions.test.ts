import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, errorOf, start } from './helpers.js';

let sandbox: RunningSandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await start());
});
afterAll(() => sandbox.close());

describe('request conventions (api-v2.5, What the service does)', () => {
  it('answers JSON with a charset on every response', async () => {
    for (const res of [
      await api.get('/v2.5/groups'),
      await api.get('/v2.5/groups/g_x'),
      await api.as('x').get('/v2.5/groups'),
    ]) {
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(() => JSON.parse(res.text)).not.toThrow();
    }
  });

  it('ignores a trailing slash and answers HEAD like GET without a body', async () => {
    expect((await api.get('/v2.5/groups/')).status).toBe(200);
    const head = await fetch(`${sandbox.url}/v2.5/groups?api_key=${api.key}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-total')).toBe('9');
    expect(await head.text()).toBe('');
  });

  it('reads expand as expand[] (repeated), expand, or comma-separated, from query or body', async () => {
    const c = (await api.get('/v2.5/computers')).body[0];
    const path = `/v2.5/computers/${c.client_id}`;
    const check = (body: Record<string, unknown>): void => {
      expect(Array.isArray(body.plugin_results)).toBe(true);
      expect(typeof body.group).toBe('object');
    };
    check((await api.get(path, { 'expand[]': ['plugin_results', 'group'] })).body);
    check((await api.get(path, { expand: 'plugin_results,group' })).body);
    check((await api.send('PUT', path, { 'expand[]': ['plugin_results', 'group'] })).body);
    const unknown = await api.get(path, { 'expand[]': 'no_such_key' });
    expect(unknown.status).toBe(200);
    expect(unknown.body.group).toBe(c.group);
  });

  it('expands the group of every computer in a list', async () => {
    const res = await api.get('/v2.5/computers', { 'expand[]': 'group', per_page: 5 });
    for (const c of res.body)
      expect(c.group).toMatchObject({ uid: expect.stringMatching(/^g_/), name: expect.any(String) });
  });

  it('takes create attributes from the query string as well as the body', async () => {
    const res = await api.send('POST', '/v2.5/groups/find_or_create', {}, { 'group[name]': 'From Query' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('From Query');
  });

  it('answers 500 for an integer beyond 32 bits', async () => {
    const e = (await api.get('/v2.5/expirations')).body[0];
    const res = await api.send('PUT', `/v2.5/expirations/${e.uid}`, { 'expiration[expires_at]': '4294967296' });
    expect(res.status).toBe(500);
    expect(errorOf(res).details).toContain('expiration[expires_at]');
  });

  it('keeps UTF-8 text intact', async () => {
    const g = (await api.get('/v2.5/groups')).body[0];
    const text = 'Café ✓ — 東京 — 👩‍💻';
    const res = await api.send('POST', '/v2.5/notes', { 'note[group_id]': g.uid, 'note[body]': text });
    expect(res.body.body).toBe(text);
    expect((await api.get(`/v2.5/notes/${res.body.uid}`)).body.body).toBe(text);
  });

  it('counts characters, not UTF-16 units, against limits', async () => {
    // 191 emoji are 382 UTF-16 units but 191 characters
    const res = await api.send('POST', '/v2.5/expiration_manufacturers', {
      'expiration_manufacturer[name]': '🔧'.repeat(191),
    });
    expect(res.status).toBe(200);
    expect(
      (await api.send('POST', '/v2.5/expiration_manufacturers', { 'expiration_manufacturer[name]': '🔩'.repeat(192) }))
        .status,
    ).toBe(500);
  });

  it('refuses include_private values it does not understand', async () => {
    const res = await api.get('/v2.5/notes', { include_private: 'maybe' });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toContain('include_private');
  });
});
