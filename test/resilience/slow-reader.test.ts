import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { json, startFakeApi, type FakeApi, type Handler } from '../helpers/fake-api.js';
import { tempConfigDir } from '../helpers/run-mon.js';
import { KEY } from './support.js';

/**
 * `mon … --all | slow-reader`: while the reader does not read, mon must stop fetching pages
 * instead of holding every page in memory, then go on and print everything in order. In-process,
 * with a stdout that takes nothing until the test lets it.
 */
const TOTAL = 3_000;
const PER_PAGE = 100;

/** Pages of computers with a 2 KB description each: about 200 KB a page, so buffers fill fast. */
const bigPages: Handler = (req, res) => {
  const page = Number(req.query.get('page') ?? 1);
  const items = Array.from({ length: PER_PAGE }, (_, i) => ({ uid: `c_${(page - 1) * PER_PAGE + i + 1}`, description: 'x'.repeat(2_000) }));
  json(res, 200, items, { 'x-page': String(page), 'x-per-page': String(PER_PAGE), 'x-total': String(TOTAL), 'x-total-pages': String(TOTAL / PER_PAGE) });
};

/** A stdout like a pipe nobody reads yet: writes are held (64 KB buffer) until open() is called. */
function pausedPipe() {
  let text = '';
  let release: (() => void) | undefined;
  let opened = false;
  const stream = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      if (opened) done();
      else release = done;
    },
  });
  return {
    stream: Object.assign(stream, { isTTY: false }),
    /** True once the writer waits for 'drain'. */
    waiting: () => stream.listenerCount('drain') > 0,
    open() {
      opened = true;
      release?.();
    },
    text: () => text,
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error(`never happened: ${what}`);
}

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
    const stdout = pausedPipe();
    let stderr = '';
    const io = {
      stdout: stdout.stream,
      stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
    };
    const exited = main(args, { io, env: { MON_CONFIG_DIR: tempConfigDir(), MON_BASE_URL: api.url, MON_API_KEY: KEY } });
    // Not reading: the buffer fills and mon waits for it to drain.
    await until(stdout.waiting, 'mon waits for the reader');
    // Pages already asked for may still arrive; nothing more is asked for while it waits.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const whilePaused = api.requests.length;
    // 30 pages in all; one or two in the buffer, and four fetched ahead.
    expect(whilePaused).toBeGreaterThan(0);
    expect(whilePaused).toBeLessThan(10);

    stdout.open();
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    const uids = stdout
      .text()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { uid: string }).uid);
    expect(uids).toEqual(Array.from({ length: TOTAL }, (_, i) => `c_${i + 1}`));
    expect(api.requests).toHaveLength(30);
  });
});
