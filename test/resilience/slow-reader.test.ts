import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { json, startFakeApi, type FakeApi, type Handler } from '../helpers/fake-api.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';
import { KEY } from './support.js';
import { bound } from '../helpers/slow.js';

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

/**
 * `mon … | reader-that-never-reads` under MON_DEADLINE: bin/mon itself, its stdout a pipe nobody
 * reads. Whatever holds the process, a write mid-run or the last flush after the answer, it ends
 * at the deadline (and a grace) with exit 8 and a line that says why: a cron job never hangs,
 * and an answer that has not reached its reader is no success.
 */
describe('a reader that never reads, under MON_DEADLINE', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi(bigPages);
  });
  afterAll(() => api.close());

  it.each([
    ['--all -o ndjson (stuck mid-run)', ['computers', 'list', '--all', '-o', 'ndjson'], /^mon: the command did not finish within its deadline of 1 s \(standard output was not read\) — /],
    ['--all as a table (stuck after the answer)', ['computers', 'list', '--all', '--fields', 'uid,description'], /^mon: the command did not finish within its deadline of 1 s \(standard output was not read\) — /],
    ['mon api --paginate', ['api', 'GET', '/computers', '--paginate'], /^mon: the command did not finish within its deadline of 1 s \(standard output was not read\) — /],
    ["--all --jq '.[]' (the filter's own deadline)", ['computers', 'list', '--all', '--jq', '.[]'], /^mon: the command did not finish within its deadline of 1 s — /],
  ])('%s: exit 8 within the deadline and its grace', async (_name, args, line) => {
    const started = Date.now();
    const child = spawn(process.execPath, [MON_BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_DEADLINE: '1' },
    });
    // stdout is never read: its pipe fills and stays full.
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
      child.on('exit', (exitCode) => {
        clearTimeout(kill);
        resolve(exitCode);
      });
    });
    expect(code).toBe(8);
    expect(stderr).toMatch(line);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
