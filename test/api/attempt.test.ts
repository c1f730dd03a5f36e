import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, AttemptFailed, type AttemptSettings, type PreparedRequest } from '../../src/api/attempt.js';
import { settle } from '../../src/api/settle.js';
import { systemClock } from '../../src/clock.js';
import {
  AuthError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  RejectedError,
  ServerError,
} from '../../src/errors.js';
import { hang, json, reset, startFakeApi, type FakeApi } from '../helpers/fake-api.js';

const KEY = 'k_live+9f8e/7d6c=5b4a3210';

describe('one attempt against a loopback server', () => {
  let api: FakeApi;
  let dispatcher: Agent;
  const settings = (over: Partial<AttemptSettings> = {}): AttemptSettings => ({
    dispatcher,
    apiKey: KEY,
    userAgent: 'mon/test',
    host: new URL(api.url).host,
    baseUrlSource: 'MON_BASE_URL',
    timeoutMs: 2_000,
    deadlineMs: 60_000,
    signal: new AbortController().signal,
    clock: systemClock,
    ...over,
  });
  const get = (path = '/v2.5/groups/g_1'): PreparedRequest => ({
    method: 'GET',
    url: new URL(`${api.url}${path}`),
    form: [],
  });

  beforeAll(async () => {
    api = await startFakeApi((_req, res) => json(res, 200, { uid: 'g_1' }, { 'X-Total': '1' }));
    dispatcher = new Agent();
  });
  afterAll(async () => {
    await dispatcher.destroy();
    await api.close();
  });

  it('sends the key in the query of a GET, returns status, lower-case headers and the body as text', async () => {
    const lines: string[] = [];
    const response = await attempt(settings({ log: (line) => lines.push(line) }), get(), 60_000);
    expect(response).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'x-total': '1' }),
      data: '{"uid":"g_1"}',
    });
    expect(api.requests.at(-1)?.query.get('api_key')).toBe(KEY);
    expect(lines).toEqual([
      expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/v2\.5\/groups\/g_1\?api_key=\[REDACTED\] 200 \(\d+ ms\)$/),
    ]);
  });

  it('sends the key in the form body of a PUT, never in the URL', async () => {
    await attempt(
      settings(),
      { method: 'PUT', url: new URL(`${api.url}/v2.5/groups/g_1`), form: [['group[name]', 'Acme']] },
      60_000,
    );
    const received = api.requests.at(-1)!;
    expect(received.form.get('api_key')).toBe(KEY);
    expect(received.form.get('group[name]')).toBe('Acme');
    expect(received.query.has('api_key')).toBe(false);
  });

  it('a reset is transient, a refused connection unsent, and neither message carries the key', async () => {
    api.handle(reset);
    const cut = await attempt(settings(), get(), 60_000).catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(AttemptFailed);
    expect((cut as AttemptFailed).repeat).toBe('transient');
    expect((cut as AttemptFailed).error.message).toMatch(/connection reset/);

    const gone = await startFakeApi(hang);
    const url = gone.url;
    await gone.close();
    const refused = await attempt(
      settings(),
      { method: 'GET', url: new URL(`${url}/v2.5/groups`), form: [] },
      60_000,
    ).catch((error: unknown) => error);
    expect((refused as AttemptFailed).repeat).toBe('unsent');
    expect((refused as AttemptFailed).error.message).toMatch(/connection refused/);
    expect((refused as AttemptFailed).error.message).not.toContain(KEY);
  });

  it('no answer within the timeout is final; with less of the deadline left, the deadline is what ends it', async () => {
    api.handle(hang);
    const timedOut = (await attempt(settings({ timeoutMs: 150 }), get(), 60_000).catch(
      (error: unknown) => error,
    )) as AttemptFailed;
    expect(timedOut.repeat).toBe('final');
    expect(timedOut.error.message).toMatch(/no answer from 127\.0\.0\.1:\d+ within 0\.15 s/);
    const late = (await attempt(settings(), get(), 100).catch((error: unknown) => error)) as AttemptFailed;
    expect(late.error.message).toMatch(/deadline of 60 s/);
    const spent = (await attempt(settings(), get(), 0).catch((error: unknown) => error)) as AttemptFailed;
    expect(spent.error).toBeInstanceOf(NetworkError);
    expect(spent.error.message).toMatch(/deadline/);
  });

  it('a body cut short of its Content-Length is a transient ServerError naming the bytes received', async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"uid":"g_1"');
      setTimeout(() => res.destroy(), 10);
    });
    const failed = (await attempt(settings(), get(), 60_000).catch((error: unknown) => error)) as AttemptFailed;
    expect(failed.repeat).toBe('transient');
    expect(failed.error).toBeInstanceOf(ServerError);
    expect(failed.error.message).toMatch(/answered 200, then the body broke off after 12 bytes/);
  });

  it('an aborted signal ends the attempt as an interruption', async () => {
    api.handle(hang);
    const controller = new AbortController();
    const pending = attempt(settings({ signal: controller.signal }), get(), 60_000);
    setTimeout(() => controller.abort('SIGTERM'), 20);
    await expect(pending).rejects.toMatchObject({ name: expect.stringMatching(/Interrupt/) });
  });
});

describe('reading an answer (settle)', () => {
  const prepared: PreparedRequest = { method: 'GET', url: new URL('http://127.0.0.1/v2.5/groups/g_1'), form: [] };
  const now = Date.now();

  it('parses JSON; a DELETE with an empty body or a 204 has no data', () => {
    expect(settle(prepared, { status: 200, headers: {}, data: '{"uid":"g_1"}' }, KEY, now).data).toEqual({
      uid: 'g_1',
    });
    expect(
      settle({ ...prepared, method: 'DELETE' }, { status: 200, headers: {}, data: '' }, KEY, now).data,
    ).toBeUndefined();
    expect(settle(prepared, { status: 204, headers: {}, data: '' }, KEY, now).data).toBeUndefined();
  });

  it('maps statuses to the typed errors of the exit-code table, quoting the API error body without the key', () => {
    const body = JSON.stringify([{ title: 'Unauthorized', details: `bad key ${KEY}` }]);
    const error = (status: number, headers: Record<string, string> = {}) => {
      try {
        settle(prepared, { status, headers, data: body }, KEY, now);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('settle did not throw');
    };
    expect(error(401)).toBeInstanceOf(AuthError);
    expect(error(401).message).toBe('GET /v2.5/groups/g_1: 401 Unauthorized: bad key [REDACTED]');
    expect(error(403)).toBeInstanceOf(AuthError);
    expect(error(404)).toBeInstanceOf(NotFoundError);
    expect(error(422)).toBeInstanceOf(RejectedError);
    expect(error(409)).toBeInstanceOf(RejectedError);
    expect(error(503)).toBeInstanceOf(ServerError);
    expect(error(429, { 'retry-after': '30' })).toBeInstanceOf(RateLimitError);
    expect((error(429, { 'retry-after': '30' }) as RateLimitError).hint).toBe('try again in 30 s');
  });

  it('a redirect is refused and its Location shown without the key; HTML and cut JSON are named as such', () => {
    expect(() =>
      settle(
        prepared,
        { status: 302, headers: { location: `http://elsewhere/x?api_key=${encodeURIComponent(KEY)}` }, data: '' },
        KEY,
        now,
      ),
    ).toThrow(/redirect to http:\/\/elsewhere\/x\?api_key=\[REDACTED\]; redirects are not followed/);
    expect(() =>
      settle(
        prepared,
        { status: 200, headers: { 'content-type': 'text/html' }, data: '<html><title>Proxy login</title></html>' },
        KEY,
        now,
      ),
    ).toThrow(/not JSON \(text\/html: Proxy login\)/);
    expect(() => settle(prepared, { status: 200, headers: {}, data: '[{"uid":"g_' }, KEY, now)).toThrow(
      /JSON that breaks off \(truncated response\)/,
    );
  });

  it('a route whose answer lacks the documented shape is a ServerError', () => {
    expect(() =>
      settle({ ...prepared, route: 'groups.get' }, { status: 200, headers: {}, data: '[1,2]' }, KEY, now),
    ).toThrow(/does not have the documented shape/);
  });
});
