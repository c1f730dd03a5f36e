/**
 * Writes with a JSON body (nested objects) give what the same write with a form body gives
 * (#13, item 3). Two sandboxes with the same seed and clock run the same script, one with form
 * bodies and one with JSON bodies: every answer must be identical, uids included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, DAY, NOW_SEC, errorOf, start, type Fields, type Res } from './helpers.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

type Json = Record<string, unknown>;

/** `{"note": {"body": "x"}}` -> `note[body]=x`, arrays as `key[]`: the form a script would send. */
function toForm(body: Json, prefix = ''): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(body)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (Array.isArray(v)) out[`${key}[]`] = v as string[];
    else if (v !== null && typeof v === 'object') Object.assign(out, toForm(v as Json, key));
    else out[key] = v as string | number | boolean | null;
  }
  return out;
}

function sendJson(api: Api, method: string, path: string, body: Json, query: Fields = {}): Promise<Res> {
  return api.raw(method, path, { query, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
}

let form: { sandbox: RunningSandbox; api: Api };
let json: { sandbox: RunningSandbox; api: Api };

beforeAll(async () => {
  form = await start();
  json = await start();
});
afterAll(async () => {
  await form.sandbox.close();
  await json.sandbox.close();
});

describe('JSON request bodies', () => {
  it('give the same result as form bodies for every write, the key in the JSON body', async () => {
    const first = (await form.api.get('/v2.5/computers')).body[0];
    const expanded = (await form.api.get(`/v2.5/computers/${first.client_id}`, { 'expand[]': 'plugin_results' })).body;
    const pr = expanded.plugin_results[0].uid;
    const group = (await form.api.get('/v2.5/groups')).body[0].uid;

    // each step may use the answers of earlier ones (uids of what it created)
    const steps: ((prev: Res[]) => [method: string, path: string, body: Json])[] = [
      () => [
        'POST',
        '/v2.5/groups/find_or_create',
        {
          group: {
            name: 'Zürich Büro',
            description: 'Opened in May',
            show_contact_menu: false,
            build_installers: true,
          },
        },
      ],
      (p) => [
        'PUT',
        `/v2.5/groups/${p[0]?.body.uid}`,
        { group: { name: 'Zürich Büro (Oerlikon)', reference_email: 'it@zurich.example' } },
      ],
      () => [
        'PUT',
        `/v2.5/computers/${first.client_id}`,
        {
          computer: {
            asset_id: 'A-1',
            custom_name: "Renée's laptop",
            beacon_reporting: true,
            beacon_missing_threshold_in_minutes: 10,
            estimated_manufacture_date: '2021-03-04',
            description: null,
          },
          expand: ['group'],
        },
      ],
      () => ['POST', '/v2.5/expiration_manufacturers', { expiration_manufacturer: { name: 'Sophos' } }],
      () => ['POST', '/v2.5/expiration_products', { expiration_product: { name: 'Intercept X' } }],
      (p) => [
        'PUT',
        `/v2.5/expiration_manufacturers/${p[3]?.body.uid}`,
        { expiration_manufacturer: { name: 'Sophos Ltd' } },
      ],
      (p) => [
        'PUT',
        `/v2.5/expiration_products/${p[4]?.body.uid}`,
        { expiration_product: { name: 'Intercept X Advanced' } },
      ],
      (p) => [
        'POST',
        '/v2.5/expirations',
        {
          expiration: {
            license_key: 'SOPH-1',
            expires_at: '2026-01-31',
            expiration_manufacturer_id: p[3]?.body.uid,
            expiration_product_id: p[4]?.body.uid,
            computer_id: first.uid,
            renewable: true,
          },
        },
      ],
      (p) => [
        'PUT',
        `/v2.5/expirations/${p[7]?.body.uid}`,
        { expiration: { notes: 'renewed', expires_at: NOW_SEC + 300 * DAY } },
      ],
      () => [
        'POST',
        '/v2.5/notes',
        {
          note: {
            group_id: group,
            body: 'Line one\nLine two',
            private: true,
            include_in_email: false,
            include_in_report: true,
          },
        },
      ],
      (p) => ['PUT', `/v2.5/notes/${p[9]?.body.uid}`, { note: { computer_id: first.uid, body: 'moved' } }],
      () => [
        'PUT',
        `/v2.5/plugin_results/${pr}`,
        {
          plugin_result: {
            mute_type: 'timed',
            mute_until: NOW_SEC + 2 * DAY,
            ticket_url: 'https://helpdesk.example/t/1',
          },
        },
      ],
      () => ['PUT', `/v2.5/plugin_results/${pr}`, { plugin_result: { mute_type: 'none' } }],
      (p) => ['DELETE', `/v2.5/notes/${p[9]?.body.uid}`, {}],
      (p) => ['DELETE', `/v2.5/expirations/${p[7]?.body.uid}`, {}],
      (p) => ['DELETE', `/v2.5/expiration_products/${p[4]?.body.uid}`, {}],
      (p) => ['DELETE', `/v2.5/expiration_manufacturers/${p[3]?.body.uid}`, {}],
    ];
    const viaForm: Res[] = [];
    const viaJson: Res[] = [];
    for (const step of steps) {
      const [method, path, body] = step(viaForm);
      viaForm.push(await form.api.send(method as 'POST', path, toForm(body)));
      const [jm, jp, jb] = step(viaJson);
      viaJson.push(await sendJson(json.api, jm, jp, { ...jb, api_key: json.api.key }));
    }
    for (const [i, res] of viaJson.entries()) {
      const expected = viaForm[i] as Res;
      expect([res.status, res.body], `step ${i + 1}`).toEqual([expected.status, expected.body]);
      expect(res.status, `step ${i + 1}: ${res.text}`).toBeLessThan(300);
    }
    // the writes took effect: a nested boolean, a number, a date and a null
    const updated = viaJson[2]?.body;
    expect(updated).toMatchObject({
      asset_id: 'A-1',
      custom_name: "Renée's laptop",
      beacon_reporting: true,
      beacon_missing_threshold_in_minutes: 10,
      description: null,
    });
    expect(typeof updated.group).toBe('object');
    expect(viaJson[0]?.body.show_contact_menu).toBe(false);
  });

  it('takes the key from the query string, from a form body or from a JSON body', async () => {
    const body = { note: { group_id: (await json.api.get('/v2.5/groups')).body[0].uid, body: 'key placement' } };
    const inQuery = await sendJson(json.api, 'POST', '/v2.5/notes', body, { api_key: json.api.key });
    const inBody = await sendJson(json.api, 'POST', '/v2.5/notes', { ...body, api_key: json.api.key });
    const inForm = await json.api.send('POST', '/v2.5/notes', toForm(body));
    expect([inQuery.status, inBody.status, inForm.status]).toEqual([200, 200, 200]);
    const none = await sendJson(json.api, 'POST', '/v2.5/notes', body);
    expect(none.status).toBe(401);
  });

  it('checks a JSON body like a form body: unpermitted, missing and invalid attributes', async () => {
    const key = { api_key: json.api.key };
    const unpermitted = await sendJson(json.api, 'POST', '/v2.5/notes', {
      ...key,
      note: { body: 'x', group_id: 'g_x', colour: 'red' },
    });
    expect(unpermitted.status).toBe(400);
    expect(errorOf(unpermitted)).toMatchObject({
      code: ':unpermitted_parameter',
      details: expect.stringContaining('note[colour]'),
    });
    const missing = await sendJson(json.api, 'POST', '/v2.5/notes', { ...key, note: { body: null, group_id: 'g_x' } });
    expect(missing.status).toBe(400);
    expect(errorOf(missing).code).toBe(':missing_parameter');
    const deep = await sendJson(json.api, 'PUT', `/v2.5/groups/${(await json.api.get('/v2.5/groups')).body[0].uid}`, {
      ...key,
      group: { name: { first: 'x' } },
    });
    expect(deep.status).toBe(400);
    expect(errorOf(deep).code).toBe(':unpermitted_parameter');
  });

  it.each([
    ['text/plain', 'note[body]=x', /multipart\/form-data or application\/json, not text\/plain/],
    ['application/xml', '<note/>', /not application\/xml/],
  ])('refuses a body of type %j with the error array', async (type, body, details) => {
    const res = await json.api.raw('POST', '/v2.5/notes', {
      query: { api_key: json.api.key },
      body,
      headers: type ? { 'content-type': type } : {},
    });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: ':bad_request', details: expect.stringMatching(details) });
  });

  it.each([
    ['not JSON', '{"note": {', /not valid JSON/],
    ['an array', '[{"note": {"body": "x"}}]', /must be an object/],
    ['a string', '"note"', /must be an object/],
    ['objects in an array', '{"expand": [{"group": 1}]}', /array may hold only/],
  ])('refuses a JSON body that is %s with 400', async (_what, body, details) => {
    const res = await json.api.raw('POST', '/v2.5/notes', {
      query: { api_key: json.api.key },
      body,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: ':bad_request', details: expect.stringMatching(details) });
  });
});
