/**
 * multipart/form-data bodies are read like form-encoded ones (#43, item 4): what `curl -F` and a
 * browser's FormData send gets what the same fields form-encoded get.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProgram } from '../helpers/programs.js';
import { type Api, errorOf, start } from './helpers.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

const run = promisify(execFile);
const haveCurl = hasProgram('curl', ['curl', '--version']);

let sandbox: RunningSandbox;
let api: Api;
beforeAll(async () => ({ sandbox, api } = await start()));
afterAll(() => sandbox.close());

async function multipart(
  method: string,
  path: string,
  fields: [string, string | Blob][],
): Promise<{ status: number; body: any }> {
  const data = new FormData();
  for (const [k, v] of fields) data.append(k, v);
  const res = await fetch(`${sandbox.url}${path}`, { method, body: data, headers: { connection: 'close' } });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

describe('multipart/form-data bodies', () => {
  it.skipIf(!haveCurl)("take curl -F 'computer[asset_id]=X' as an update (200, stored)", async () => {
    const first = (await api.get('/v2.5/computers')).body[0];
    const { stdout } = await run('curl', [
      '-sS',
      '-X',
      'PUT',
      '-F',
      `api_key=${api.key}`,
      '-F',
      'computer[asset_id]=CURL-7',
      '-w',
      '\n%{http_code}',
      `${sandbox.url}/v2.5/computers/${first.client_id}`,
    ]);
    const [body, code] = stdout.split('\n');
    expect(code).toBe('200');
    expect(JSON.parse(body as string).asset_id).toBe('CURL-7');
    expect((await api.get(`/v2.5/computers/${first.client_id}`)).body.asset_id).toBe('CURL-7');
  });

  it('give what a form-encoded body gives: repeated keys, a file part as its text, the key in the body', async () => {
    const group = (await api.get('/v2.5/groups')).body[0].uid;
    const res = await multipart('POST', '/v2.5/notes', [
      ['api_key', api.key as string],
      ['note[group_id]', group],
      ['note[body]', new Blob(['Line one\nLine two — é'], { type: 'text/plain' })],
      ['note[private]', 'true'],
      ['expand[]', 'group'],
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ body: 'Line one\nLine two — é', private: true, group: { uid: group } });
    const unpermitted = await multipart('POST', '/v2.5/notes', [
      ['api_key', api.key as string],
      ['note[group_id]', group],
      ['note[body]', 'x'],
      ['note[colour]', 'red'],
    ]);
    expect(unpermitted.status).toBe(400);
    expect(unpermitted.body[0]).toMatchObject({
      code: ':unpermitted_parameter',
      details: expect.stringContaining('note[colour]'),
    });
  });

  it('refuses a multipart body that cannot be read with 400 :bad_request', async () => {
    const res = await api.raw('POST', '/v2.5/notes', {
      query: { api_key: api.key },
      body: '--x\r\nno headers',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({
      code: ':bad_request',
      details: expect.stringMatching(/multipart\/form-data body could not be read/),
    });
  });
});
