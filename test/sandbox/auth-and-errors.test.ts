import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_API_KEY, SANDBOX_OTHER_API_KEY, startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, errorOf, start } from './helpers.js';

let sandbox: RunningSandbox;
let api: Api;
let other: Api;

beforeAll(async () => {
  ({ sandbox, api } = await start());
  other = api.as(sandbox.otherApiKey);
});
afterAll(() => sandbox.close());

describe('the running sandbox', () => {
  it('gives a loopback base URL without /v2.5 and the two fixed keys', () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.apiKey).toBe(SANDBOX_API_KEY);
    expect(sandbox.otherApiKey).toBe(SANDBOX_OTHER_API_KEY);
    expect(SANDBOX_API_KEY).toBe('sbx_live_demo_4f6c2a9e1b7d');
    expect(SANDBOX_OTHER_API_KEY).toBe('sbx_live_other_8d3e5b0c7a21');
  });

  it.each(['0.0.0.0', '192.168.1.10', 'example.com', '::'])('refuses to listen on %s', async (host) => {
    await expect(startSandbox({ host })).rejects.toThrow(/loopback/);
  });

  it('listens on ::1 and brackets it in the URL', async () => {
    let six: RunningSandbox;
    try {
      six = await startSandbox({ host: '::1' });
    } catch {
      return; // no IPv6 loopback on this machine
    }
    expect(six.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const res = await fetch(`${six.url}/v2.5/users?api_key=${six.apiKey}`);
    expect(res.status).toBe(200);
    await six.close();
  });
});

describe('authentication (api-v2.5, Authentication)', () => {
  it('answers 401 with the JSON error array when api_key is missing', async () => {
    const res = await api.as(null).get('/v2.5/groups');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(errorOf(res)).toMatchObject({ status_code: 401, code: ':unauthorized', title: 'Unauthorized' });
  });

  it('answers 401 for an unknown key, also on writes', async () => {
    expect((await api.as('sbx_live_wrong').get('/v2.5/computers')).status).toBe(401);
    const res = await api.as('nope').send('POST', '/v2.5/groups/find_or_create', { 'group[name]': 'X' });
    expect(res.status).toBe(401);
    expect(errorOf(res).details).toMatch(/api_key/);
  });

  it('accepts the key in the query string or in the form body', async () => {
    const inQuery = await api.raw('GET', '/v2.5/users', { query: { api_key: api.key } });
    expect(inQuery.status).toBe(200);
    const inBody = await api.raw('PUT', `/v2.5/notes/${(await api.get('/v2.5/notes')).body[0].uid}`, {
      form: { api_key: api.key, 'note[include_in_report]': 'true' },
    });
    expect(inBody.status).toBe(200);
    const putWithQueryKey = await api.raw('PUT', `/v2.5/notes/${inBody.body.uid}`, {
      query: { api_key: api.key },
      form: { 'note[include_in_report]': 'false' },
    });
    expect(putWithQueryKey.status).toBe(200);
    expect(putWithQueryKey.body.include_in_report).toBe(false);
  });
});

describe('two subscribers', () => {
  it('lists only the caller’s items', async () => {
    const mine = await api.get('/v2.5/groups');
    const theirs = await other.get('/v2.5/groups');
    expect(theirs.body.map((g: { name: string }) => g.name)).toEqual(['Contoso Labs']);
    const mineUids = new Set(mine.body.map((g: { uid: string }) => g.uid));
    expect(mineUids.has(theirs.body[0].uid)).toBe(false);
    expect((await other.get('/v2.5/computers')).body).toHaveLength(2);
    expect((await other.get('/v2.5/users')).body).toHaveLength(1);
  });

  it('answers 403 for every kind of item of another subscriber, both ways', async () => {
    const theirGroup = (await other.get('/v2.5/groups')).body[0];
    const theirComputer = (await other.get('/v2.5/computers', { 'expand[]': 'plugin_results' })).body[0];
    const theirExpiration = (await other.get('/v2.5/expirations')).body[0];
    const theirMaker = (await other.get('/v2.5/expiration_manufacturers')).body[0];
    const theirProduct = (await other.get('/v2.5/expiration_products')).body[0];
    const theirNote = (await other.get('/v2.5/notes')).body[0];
    const checks: [string, string, Record<string, string>][] = [
      ['GET', `/v2.5/groups/${theirGroup.uid}`, {}],
      ['PUT', `/v2.5/groups/${theirGroup.uid}`, { 'group[name]': 'Mine now' }],
      ['GET', `/v2.5/computers/${theirComputer.client_id}`, {}],
      ['PUT', `/v2.5/computers/${theirComputer.client_id}`, { 'computer[asset_id]': 'X' }],
      ['GET', `/v2.5/expirations/${theirExpiration.uid}`, {}],
      ['DELETE', `/v2.5/expirations/${theirExpiration.uid}`, {}],
      ['GET', `/v2.5/expiration_manufacturers/${theirMaker.uid}`, {}],
      ['DELETE', `/v2.5/expiration_products/${theirProduct.uid}`, {}],
      ['GET', `/v2.5/notes/${theirNote.uid}`, {}],
      ['PUT', `/v2.5/notes/${theirNote.uid}`, { 'note[body]': 'x' }],
      ['PUT', `/v2.5/plugin_results/${theirComputer.plugin_results[0].uid}`, { 'plugin_result[mute_type]': 'ignored' }],
    ];
    for (const [method, path, form] of checks) {
      const res = method === 'GET' ? await api.get(path) : await api.send(method as 'PUT' | 'DELETE', path, form);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(errorOf(res)).toMatchObject({ code: ':forbidden', title: 'Forbidden' });
    }
    const myGroup = (await api.get('/v2.5/groups')).body[0];
    expect((await other.get(`/v2.5/groups/${myGroup.uid}`)).status).toBe(403);
    // nothing was changed by the refused writes
    expect((await other.get(`/v2.5/groups/${theirGroup.uid}`)).body.name).toBe('Contoso Labs');
    expect((await other.get(`/v2.5/expirations/${theirExpiration.uid}`)).status).toBe(200);
  });

  it('does not resolve another subscriber’s slug (404, not a leak)', async () => {
    expect((await api.get('/v2.5/groups/contoso-labs')).status).toBe(404);
  });
});

describe('errors', () => {
  it('answers an unknown route with a 404 JSON error', async () => {
    for (const path of ['/', '/v2.5/widgets', '/v2.2/groups', '/v2.5/groups/a/b']) {
      const res = await api.get(path);
      expect(res.status, path).toBe(404);
      expect(errorOf(res).code).toBe(':not_found');
    }
  });

  it('says paths begin with /v2.5 only of a path that does not', async () => {
    for (const path of ['/', '/v2.2/groups', '/groups'])
      expect(errorOf(await api.get(path)).details, path).toMatch(/paths begin with \/v2\.5$/);
    for (const path of ['/v2.5/widgets', '/v2.5/groups/a/b', '/v2.5']) {
      const details = errorOf(await api.get(path)).details;
      expect(details, path).not.toMatch(/begin with/);
      expect(details, path).toMatch(/the v2\.5 API has no such path/);
    }
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const res = await api.send('DELETE', '/v2.5/groups/g_whatever');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT');
    expect(errorOf(res).code).toBe(':method_not_allowed');
    const patch = await api.send('PATCH', '/v2.5/notes/n_x', { 'note[body]': 'x' });
    expect(patch.status).toBe(405);
    expect((await api.send('POST', '/v2.5/users')).status).toBe(405);
  });

  it('answers 404 for unknown uids of every resource', async () => {
    for (const path of [
      '/v2.5/groups/g_nope',
      '/v2.5/computers/NOPE',
      '/v2.5/expirations/e_nope',
      '/v2.5/expiration_manufacturers/em_nope',
      '/v2.5/expiration_products/ep_nope',
      '/v2.5/notes/n_nope',
    ]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(404);
      expect(errorOf(res)).toMatchObject({ code: ':not_found', title: 'Not Found' });
    }
    const put = await api.send('PUT', '/v2.5/plugin_results/pr_nope', { 'plugin_result[mute_type]': 'ignored' });
    expect(put.status).toBe(404);
  });

  it('refuses a body that is neither form-encoded nor JSON', async () => {
    const res = await api.raw('POST', '/v2.5/notes', {
      query: { api_key: api.key },
      body: 'note[body]=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toMatch(/x-www-form-urlencoded, multipart\/form-data or application\/json/);
  });

  it('accepts a form content type with a charset', async () => {
    const res = await api.raw('POST', '/v2.5/groups/find_or_create', {
      body: new URLSearchParams({ api_key: api.key ?? '', 'group[name]': 'Charset Co' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Charset Co');
  });

  it('answers 204 with an empty body on delete', async () => {
    const created = await api.send('POST', '/v2.5/expiration_products', { 'expiration_product[name]': 'Temp Product' });
    const res = await api.send('DELETE', `/v2.5/expiration_products/${created.body.uid}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBeNull();
  });
});

describe('recorded requests', () => {
  it('records method, path, parsed query and form, headers and status in order', async () => {
    const { sandbox: sb, api: a } = await start();
    try {
      await a.get('/v2.5/computers', { 'platform[]': ['mac', 'linux'], status: 'missing' });
      await a.send('POST', '/v2.5/groups/find_or_create', {
        'group[name]': 'Recorded',
        'group[build_installers]': 'true',
      });
      await a.as('bad').get('/v2.5/users');
      expect(sb.requests).toHaveLength(3);
      const [list, create, denied] = sb.requests;
      expect(list).toMatchObject({ method: 'GET', path: '/v2.5/computers', status: 200 });
      expect(list?.query).toEqual({ 'platform[]': ['mac', 'linux'], status: 'missing', api_key: a.key });
      expect(list?.form).toEqual({});
      expect(create).toMatchObject({ method: 'POST', path: '/v2.5/groups/find_or_create', status: 200, query: {} });
      expect(create?.form).toEqual({ 'group[name]': 'Recorded', 'group[build_installers]': 'true', api_key: a.key });
      expect(create?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(denied?.status).toBe(401);
    } finally {
      await sb.close();
    }
  });
});
