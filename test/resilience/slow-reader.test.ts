import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { json, startFakeApi, type FakeApi, type Handler } from '../helpers/fake-api.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';
import { testClock, type TestClock } from '../helpers/clock.js';
import { KEY } from './support.js';
import { bound, SLOW, waitFor } from '../helpers/slow.js';

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
  const items = Array.from({ length: PER_PAGE }, (_, i) => ({
    uid: `c_${(page - 1) * PER_PAGE + i + 1}`,
    description: 'x'.repeat(2_000),
  }));
  json(res, 200, items, {
    'x-page': String(page),
    'x-per-page': String(PER_PAGE),
    'x-total': String(TOTAL),
    'x-total-pages': String(TOTAL / PER_PAGE),
  });
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

describe('a long --all into a reader that pauses', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi(bigPages);
  });
  afterAll(() => api.close());

  it.each([
    // In the order the API reads them in (a full read in another order is sorted, so held whole first).
    [['computers', 'list', '--all', '--order', 'created_desc', '-o', 'ndjson']],
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
    const exited = main(args, {
      io,
      env: { MON_CONFIG_DIR: tempConfigDir(), MON_BASE_URL: api.url, MON_API_KEY: KEY },
    });
    // Not reading: the buffer fills and mon waits for it to drain.
    await waitFor(stdout.waiting, 'mon to wait for the reader');
    // Pages already asked for may still arrive; nothing more is asked for while it waits. (A
    // moment for more to be asked, were mon to ask: a slow machine only weakens this check.)
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
 * and an answer that has not reached its reader is no success. The words come from what holds
 * the process when the deadline passes (output not taken), whichever of mon's deadlines notices
 * first: a request's, the filter's or bin/mon's last word. The output is held back only once
 * the answer is read (with --jq, once jq has it whole), so the deadline leaves the fetch of these
 * 400 KB twenty times what it needs on an idle machine (MON_TEST_SLOW more); the test asserts
 * that the process ended and how, never when.
 */
describe.concurrent('a reader that never reads, under MON_DEADLINE', () => {
  const DEADLINE_S = 6 * SLOW;
  /** 200 computers, 2 KB each: far more than a pipe holds. */
  const fewerPages: Handler = (req, res) => {
    const page = Number(req.query.get('page') ?? 1);
    const items = Array.from({ length: PER_PAGE }, (_, i) => ({
      uid: `c_${(page - 1) * PER_PAGE + i + 1}`,
      description: 'x'.repeat(2_000),
    }));
    json(res, 200, items, {
      'x-page': String(page),
      'x-per-page': String(PER_PAGE),
      'x-total': '200',
      'x-total-pages': '2',
    });
  };
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi(fewerPages);
  });
  afterAll(() => api.close());

  const held = new RegExp(
    `^mon: the command did not finish within its deadline of ${DEADLINE_S} s \\(standard output was not read\\) — raise MON_DEADLINE`,
  );
  it.each([
    ['--all -o ndjson (stuck mid-run)', ['computers', 'list', '--all', '-o', 'ndjson']],
    ['--all as a table (stuck after the answer)', ['computers', 'list', '--all', '--fields', 'uid,description']],
    ['mon api --paginate', ['api', 'GET', '/computers', '--paginate']],
    ["--all --jq '.[]' (the filter's own deadline)", ['computers', 'list', '--all', '--jq', '.[]']],
  ])('%s: exit 8, one line saying standard output was not read', async (_name, args) => {
    const child = spawn(process.execPath, [MON_BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: tempConfigDir(),
        MON_CONFIG_DIR: tempConfigDir(),
        MON_BASE_URL: api.url,
        MON_API_KEY: KEY,
        MON_DEADLINE: String(DEADLINE_S),
      },
    });
    // stdout is never read: its pipe fills and stays full.
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), bound(30_000) + DEADLINE_S * 1000);
      child.on('exit', (exitCode) => {
        clearTimeout(kill);
        resolve(exitCode);
      });
    });
    expect(code).toBe(8);
    expect(stderr).toMatch(held);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

/**
 * The words, in-process on the test clock: the deadline passes while page 2 is asked for (page
 * 1's answer moves the clock past it). With page 1 still held by a stdout nobody reads, the line
 * says so; with page 1 taken, it says only the deadline.
 */
describe("the deadline's words come from what holds the command, not from which wait noticed", () => {
  let api: FakeApi;
  let clock: TestClock;
  beforeAll(async () => {
    api = await startFakeApi((req, res) => {
      const page = Number(req.query.get('page') ?? 1);
      if (page === 1) clock.advance(60_000);
      json(res, 200, [{ uid: `c_${page}`, description: 'small' }], {
        'x-page': String(page),
        'x-per-page': '1',
        'x-total': '2',
        'x-total-pages': '2',
      });
    });
  });
  afterAll(() => api.close());

  it.each([
    ['page 1 not taken by its reader', false, ' (standard output was not read)'],
    ['page 1 taken', true, ''],
  ])('%s', async (_name, taken, words) => {
    clock = testClock();
    const stdout = pausedPipe();
    if (taken) stdout.open();
    let stderr = '';
    const io = {
      stdout: stdout.stream,
      stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
    };
    // In created order, the pages are printed as they come (in another, once all are in).
    const code = await main(['computers', 'list', '--all', '--order', 'created_desc', '-o', 'ndjson'], {
      io,
      env: { MON_CONFIG_DIR: tempConfigDir(), MON_BASE_URL: api.url, MON_API_KEY: KEY, MON_DEADLINE: '5' },
      clock,
    });
    expect(code).toBe(8);
    expect(stdout.text()).toBe(`${JSON.stringify({ uid: 'c_1', description: 'small' })}\n`);
    expect(stderr).toBe(
      `mon: the command did not finish within its deadline of 5 s${words} — raise MON_DEADLINE (seconds) if it needs longer\n`,
    );
  });
});
