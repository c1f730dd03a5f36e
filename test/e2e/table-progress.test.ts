/**
 * A table is printed once its last page is in: on a terminal, the pages are counted on stderr
 * meanwhile (after a second), and the line is gone before the table is printed. Run in-process
 * with stderr as a terminal and a test clock that each page moves on 700 ms, as a slow server
 * would: no page waits on the wall clock.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { testClock, type TestClock } from '../helpers/clock.js';
import { computersPage, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { tempConfigDir } from '../helpers/run-mon.js';

let api: FakeApi;
let clock: TestClock;
beforeAll(async () => {
  const page = computersPage(3);
  // Slow pages: the list takes more than the second after which progress shows.
  api = await startFakeApi((req, res, index) => {
    clock.advance(700);
    return page(req, res, index);
  });
});
afterAll(() => api.close());

it('on a terminal, `--all` as a table counts the pages as they come', async () => {
  clock = testClock();
  // What a terminal shows, both streams in the order they were written.
  let screen = '';
  const io = {
    stdout: { write: (chunk: string) => (screen += chunk), isTTY: false },
    stderr: { write: (chunk: string) => (screen += chunk), isTTY: true },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
  };
  const dir = tempConfigDir();
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    MON_CONFIG_DIR: dir,
    MON_BASE_URL: api.url,
    MON_API_KEY: 'k_test_key_0001',
    NO_COLOR: '1',
  };
  const code = await main(['computers', 'list', '--all', '--per-page', '1'], { io, env, now: clock.now, clock });
  expect(code).toBe(0);
  // Page 1 came before the second had passed: pages 2 and 3 are counted.
  expect(screen).toMatch(/^\rreading computers 2\/3\x1b\[K\rreading computers 3\/3\x1b\[K/);
  // cleared, then the table
  expect(screen).toMatch(/\r\x1b\[KCLIENT ID +NAME/);
  expect(screen).toContain('host-3');
});
