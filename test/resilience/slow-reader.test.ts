import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeApi, type FakeApi, type Handler } from '../helpers/fake-api.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';
import { KEY } from './support.js';

/**
 * `mon … --all | slow-reader`: while the reader does not read, mon must stop fetching pages
 * instead of holding every page in memory, then go on and print everything in order.
 */
const TOTAL = 10_000;
const PER_PAGE = 100;

/** Pages of computers with a 2 KB description each: about 200 KB a page, so buffers fill fast. */
const bigPages: Handler = (req, res) => {
  const page = Number(req.query.get('page') ?? 1);
  const items = Array.from({ length: PER_PAGE }, (_, i) => ({ uid: `c_${(page - 1) * PER_PAGE + i + 1}`, description: 'x'.repeat(2_000) }));
  json(res, 200, items, { 'x-page': String(page), 'x-per-page': String(PER_PAGE), 'x-total': String(TOTAL), 'x-total-pages': String(TOTAL / PER_PAGE) });
};

describe('a long --all into a reader that pauses', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi(bigPages);
  });
  afterAll(() => api.close());

  it.each([
    [['computers', 'list', '--all', '-o', 'ndjson']],
    [['api', 'get', '/computers', '--paginate', '-o', 'ndjson']],
  ])('mon %j waits for the reader, then prints every page in order', async (args) => {
    api.requests.length = 0;
    const child = spawn(process.execPath, [MON_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), MON_BASE_URL: api.url, MON_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Not reading: the pipe fills, then mon's own buffer.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const whilePaused = api.requests.length;
    // 100 pages in all; a few in the pipe and the stream's buffer, and four fetched ahead.
    expect(whilePaused).toBeGreaterThan(0);
    expect(whilePaused).toBeLessThan(20);

    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stdout.resume();
    expect(await exited).toBe(0);
    const uids = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { uid: string }).uid);
    expect(uids).toEqual(Array.from({ length: TOTAL }, (_, i) => `c_${i + 1}`));
    expect(api.requests).toHaveLength(100);
  }, 30_000);
});
