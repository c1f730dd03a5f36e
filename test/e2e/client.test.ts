import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runMain } from '../helpers/run-main.js';

const KEY = 'k_test_9f8e7d6c5b4a3210';

function computer(n: number) {
  return {
    uid: `c_${n}`,
    client_id: `client-${n}`,
    computer_name: `host-${n}`,
    platform: 'linux',
    last_report: 1_790_000_000 - n,
  };
}

/** A list server over `total` computers that honours page/per_page and sends the x- headers. */
function paginated(total: number) {
  return (req: { query: URLSearchParams }, res: import('node:http').ServerResponse) => {
    const page = Number(req.query.get('page') ?? 1);
    const perPage = Number(req.query.get('per_page') ?? 50);
    const items = Array.from({ length: total }, (_, i) => computer(i + 1)).slice((page - 1) * perPage, page * perPage);
    const pages = Math.ceil(total / perPage);
    json(res, 200, items, {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(total),
      'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
    });
  };
}

describe('the client against a loopback server', () => {
  let api: FakeApi;
  let env: Record<string, string>;

  beforeAll(async () => {
    api = await startFakeApi(paginated(250));
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());

  it('follows --all over 250 computers at --per-page 100 in exactly 3 requests, in order', async () => {
    api.requests.length = 0;
    api.handle(paginated(250));
    const result = await runMain(['computers', 'list', '--all', '--per-page', '100', '--json'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { uid: string }[];
    expect(printed.map((c) => c.uid)).toEqual(Array.from({ length: 250 }, (_, i) => `c_${i + 1}`));
    expect(api.requests.map((r) => [r.path, r.query.get('page'), r.query.get('per_page')])).toEqual([
      ['/v2.5/computers', '1', '100'],
      ['/v2.5/computers', '2', '100'],
      ['/v2.5/computers', '3', '100'],
    ]);
  });

  it('sends the key as api_key in the query for GET, and the filters as given', async () => {
    api.requests.length = 0;
    api.handle(paginated(3));
    const result = await runMain(
      ['computers', 'list', '--status', 'missing', '--platform', 'mac', '--platform', 'linux', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    const [request] = api.requests;
    expect(request?.query.get('api_key')).toBe(KEY);
    expect(request?.query.get('status')).toBe('missing');
    expect(request?.query.getAll('platform[]')).toEqual(['mac', 'linux']);
    expect(request?.headers['user-agent']).toMatch(/^mon\/\d/);
  });

  it('exits 3 on 401 with one line that never shows the key', async () => {
    api.handle((_req, res) => apiError(res, 401, 'Unauthorized', `invalid api_key ${KEY}`));
    const result = await runMain(['computers', 'list', '--verbose'], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('401');
    expect(result.stderr).not.toContain(KEY);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 4 on 404', async () => {
    api.handle((_req, res) => apiError(res, 404, 'Not Found', 'no such computer'));
    const result = await runMain(['computers', 'get', 'nope'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('404');
  });

  it('refuses plain http to a host that is not loopback, before any connection', async () => {
    api.requests.length = 0;
    const result = await runMain(['computers', 'list'], {
      env: { MON_BASE_URL: 'http://monitoring.example.com', MON_API_KEY: KEY },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/MON_BASE_URL: plain http is refused/);
    expect(api.requests).toHaveLength(0);
  });

  it('with no profile at all, says how to add one (exit 2)', async () => {
    const result = await runMain(['computers', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/mon profile add/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
