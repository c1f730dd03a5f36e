import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClient } from '../helpers/api-client.js';
import {
  apiError,
  hang,
  json,
  reset,
  scripted,
  startFakeApi,
  type FakeApi,
  type Handler,
} from '../helpers/fake-api.js';
import { runMon } from '../helpers/run-mon.js';
import { expectNoKey, KEY } from './support.js';

/**
 * A POST that creates something is never sent twice once it may have reached the server
 * (docs/design/cli-contract.md, Behaviour): the server counts what arrives.
 */

const note = { uid: 'n_1', body: 'Battery replaced', private: false, computer: 'c_1' };
const created: Handler = (_req, res) => json(res, 201, note);

describe('a creating POST under faults', () => {
  let api: FakeApi;
  let env: Record<string, string>;

  beforeAll(async () => {
    api = await startFakeApi(created);
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  const create = () =>
    runMon(['notes', 'create', '--computer', 'c_1', '--body', 'Battery replaced', '--json', '--verbose'], { env });

  const faults: [string, Handler, number][] = [
    ['a connection reset', reset, 8],
    ['a 503', (_req, res) => apiError(res, 503, 'Service Unavailable', '', { 'retry-after': '0' }), 7],
    [
      'a 502 HTML page from a proxy',
      (_req, res) => (res.writeHead(502, { 'content-type': 'text/html' }), res.end('<h1>Bad Gateway</h1>')),
      7,
    ],
    [
      'a body cut off mid-answer',
      (_req, res) => (
        res.writeHead(201, { 'content-length': '300' }), res.write('{"uid":"n_1"'), setTimeout(() => res.destroy(), 20)
      ),
      7,
    ],
  ];

  for (const [what, fault, code] of faults) {
    it(`after ${what}: exactly one request reached the server, exit ${code}`, async () => {
      api.handle(scripted(fault, created));
      const result = await create();
      expect(result.code).toBe(code);
      expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2.5/notes']);
      expect(result.stdout).toBe('');
      expectNoKey(result);
    });
  }

  it('after a timeout: exactly one request, exit 8', async () => {
    api.handle(scripted(hang, created));
    const result = await runMon(['notes', 'create', '--computer', 'c_1', '--body', 'x', '--timeout', '1'], { env });
    expect(result.code).toBe(8);
    expect(api.requests).toHaveLength(1);
  });

  it('a 429 is retried even for a POST: the server did not act on it, and the note is made once', async () => {
    api.handle(scripted((_req, res) => apiError(res, 429, 'Too Many Requests', '', { 'retry-after': '0' }), created));
    const result = await create();
    expect(result.code).toBe(0);
    expect(api.requests).toHaveLength(2);
    expect(JSON.parse(result.stdout)).toEqual(note);
    expect(api.requests[1]!.form.get('note[body]')).toBe('Battery replaced');
    expect(api.requests[1]!.form.get('api_key')).toBe(KEY);
  });
});

describe('the client itself (in-process, real sockets)', () => {
  it('sends a creating POST once after a reset, a find-or-create again', async () => {
    const api = await startFakeApi(reset);
    const client = testClient(api.url, { apiKey: KEY, timeoutMs: 2_000, retries: 3, backoffMs: 10 });
    try {
      await expect(
        client.call('notes.create', { body: { note: { body: 'x', computer_id: 'c_1' } } }),
      ).rejects.toMatchObject({ exitCode: 8 });
      expect(api.requests).toHaveLength(1);
      api.requests.length = 0;
      await expect(client.call('groups.findOrCreate', { body: { group: { name: 'Acme' } } })).rejects.toMatchObject({
        exitCode: 8,
      });
      expect(api.requests).toHaveLength(4);
    } finally {
      await client.close();
      await api.close();
    }
  });
});
