import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, keyFingerprint, parseLimit, redate, sharedBudget } from '../../src/api/budget.js';
import type { Clock } from '../../src/clock.js';
import { computersPage, json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { testClock } from '../helpers/clock.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';
import { KEY } from './support.js';

const never = new AbortController().signal;

/** The most arrivals inside any interval of `spanMs` (a sliding window over sorted times). */
function busiest(times: readonly number[], spanMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= spanMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/**
 * A budget on a fresh folder whose ledger lock is already there: a file, or a folder in its
 * place, dated `ageMs` ago (negative: in the future). --verbose lines are collected.
 */
/** A budget whose ledger file already holds `text`. */
function budgetWithLedger(limit: string, text: string) {
  const dir = tempConfigDir();
  const budget = sharedBudget(dir, KEY, { MON_RATE_LIMIT: limit });
  mkdirSync(join(dir, 'rate'), { recursive: true });
  writeFileSync(budget.ledgerFile, text);
  return budget;
}

function lockedBudget(limit: string, kind: 'file' | 'folder', ageMs: number, clock?: Clock) {
  const dir = tempConfigDir();
  const lines: string[] = [];
  const budget = sharedBudget(dir, KEY, { MON_RATE_LIMIT: limit }, clock, (line) => lines.push(line));
  mkdirSync(join(dir, 'rate'), { recursive: true });
  const lock = `${budget.ledgerFile}.lock`;
  if (kind === 'file') writeFileSync(lock, '');
  else mkdirSync(lock);
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(lock, when, when);
  return { budget, lock, lines };
}

describe('the shared rate budget, in one process', () => {
  it('names the ledger after FNV-1a (32 bits) of the key', () => {
    // Published FNV-1a test vectors.
    expect(keyFingerprint('')).toBe('811c9dc5');
    expect(keyFingerprint('a')).toBe('e40c292c');
    expect(keyFingerprint('foobar')).toBe('bf9cf968');
    expect(keyFingerprint(KEY)).not.toBe(keyFingerprint(`${KEY}x`));
  });

  it('keeps its ledger under <configDir>/rate/<fingerprint of the key>.json, mode 0600, without the key', async () => {
    const dir = tempConfigDir();
    const budget = sharedBudget(dir, KEY, { MON_RATE_LIMIT: '3/1' });
    await budget.take(never);
    const file = join(dir, 'rate', `${keyFingerprint(KEY)}.json`);
    expect(budget.ledgerFile).toBe(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect((JSON.parse(text) as { sent: number[] }).sent).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('admits the budget at once, then waits for the window rather than failing', async () => {
    const clock = testClock();
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '3/0.4' }, clock);
    await Promise.all([1, 2, 3].map(() => budget.take(never)));
    expect(clock.sleeps).toEqual([]);
    await budget.take(never);
    // The window (400 ms) plus its slack (400/60 ms), and up to 20 ms of jitter.
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(400);
    expect(clock.sleeps[0]).toBeLessThan(430);
  });

  it('requests waiting together are admitted by one ledger write, within the limit', async () => {
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '10/60' });
    await Promise.all(Array.from({ length: 8 }, () => budget.take(never)));
    // One write: every slot carries the same time (eight writes in turn would span milliseconds).
    const { sent } = JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] };
    expect(sent).toHaveLength(8);
    expect(new Set(sent).size).toBe(1);
  });

  it('of requests waiting together, only what fits is admitted; one aborted fails alone, the others go on', async () => {
    const clock = testClock();
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '2/60' }, clock);
    const controller = new AbortController();
    const order: string[] = [];
    const take = (name: string, signal = never) => budget.take(signal).then(() => order.push(name));
    const third = take('c', controller.signal);
    controller.abort('SIGINT');
    const all = Promise.allSettled([take('a'), take('b'), third, take('d')]);
    const [a, b, c, d] = await all;
    expect([a, b, d].map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(c).toEqual({ status: 'rejected', reason: 'SIGINT' });
    expect(order).toEqual(['a', 'b', 'd']);
    // d waited for the window: a minute and its slack.
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(61_000);
  });

  it('two budgets on the same folder and key share one window (as two processes do); another key does not', async () => {
    const dir = tempConfigDir();
    const env = { MON_RATE_LIMIT: '2/0.5' };
    const clock = testClock();
    const first = sharedBudget(dir, KEY, env, clock);
    const second = sharedBudget(dir, KEY, env, clock);
    const other = sharedBudget(dir, 'k_other_key_0001', env, clock);
    await first.take(never);
    await first.take(never);
    await other.take(never);
    expect(clock.sleeps).toEqual([]);
    await second.take(never);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(500);
  });

  it('breaks a lock left behind by a process that died holding it', async () => {
    const dir = tempConfigDir();
    const clock = testClock();
    const budget = sharedBudget(dir, KEY, { MON_RATE_LIMIT: '5/1' }, clock);
    mkdirSync(join(dir, 'rate'), { recursive: true });
    const lock = `${budget.ledgerFile}.lock`;
    writeFileSync(lock, '');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    await budget.take(never);
    // Taken over at the first look: one short step of the lock's polling at most, not its 5 s.
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(100);
  });

  it('waits for a lock that is held, and goes on once it is released', async () => {
    const dir = tempConfigDir();
    const { rmSync } = await import('node:fs');
    let lock = '';
    // The holder lets go during the third wait.
    const clock = testClock(Date.now(), (sleeps) => sleeps.length === 3 && rmSync(lock));
    const budget = sharedBudget(dir, KEY, { MON_RATE_LIMIT: '5/1' }, clock);
    mkdirSync(join(dir, 'rate'), { recursive: true });
    lock = `${budget.ledgerFile}.lock`;
    writeFileSync(lock, '');
    await budget.take(never);
    // It waited while the lock was held, and not once after it was released.
    expect(clock.sleeps).toHaveLength(3);
    expect((JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent).toHaveLength(1);
  });

  it('breaks a lock dated in the future (a clock set back) at once, and says so with --verbose', async () => {
    const clock = testClock();
    const { budget, lines } = lockedBudget('5/1', 'file', -3_600_000, clock);
    await budget.take(never);
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(100);
    expect(lines).toEqual([
      expect.stringMatching(
        /^rate ledger: broke the lock .*\.lock, dated 3600 s in the future \(was the clock set back\?\)$/,
      ),
    ]);
    expect((JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent).toHaveLength(1);
  });

  it('a lock of the wrong kind (a folder) is not waited for: this process keeps its own budget, and says so', async () => {
    const clock = testClock();
    const { budget, lines } = lockedBudget('2/0.4', 'folder', 60_000, clock);
    await budget.take(never);
    expect(clock.sleeps).toEqual([]);
    expect(lines).toEqual([
      expect.stringMatching(/^rate ledger: the lock .*\.lock is not a file; this process keeps its own budget$/),
    ]);
    // Still a budget: the third request in the window waits for the window to move on.
    await budget.take(never);
    await budget.take(never);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(300);
  });

  it('the wait for a lock that never comes free is bounded (10 s), then this process keeps its own budget', async () => {
    // A fresh lock that nobody releases, waited for on a test clock: 10 s pass in its sleeps,
    // while the lock file (real time) stays far younger than stale.
    const clock = testClock();
    const { budget, lines } = lockedBudget('5/1', 'file', 0, clock);
    const started = clock.now();
    await budget.take(never);
    expect(clock.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(clock.now() - started).toBeLessThan(10_100);
    expect(lines).toEqual([
      expect.stringMatching(/^rate ledger: the lock .* was not free within 10 s; this process keeps its own budget$/),
    ]);
  });

  it('a temporary ledger file left by a process killed mid-write is removed on the next write; a fresh one is not', async () => {
    const dir = tempConfigDir();
    const budget = sharedBudget(dir, KEY, { MON_RATE_LIMIT: '5/1' });
    mkdirSync(join(dir, 'rate'), { recursive: true });
    const stale = `${budget.ledgerFile}.4242.m1abc.tmp`;
    const fresh = `${budget.ledgerFile}.4343.m1abd.tmp`;
    writeFileSync(stale, '{"version":1,"sent":[]}');
    writeFileSync(fresh, '{"version":1,"sent":[]}');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(stale, old, old);
    await budget.take(never);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('a damaged ledger is read as empty and written anew', async () => {
    const budget = budgetWithLedger('5/1', '{"sent":[17000');
    await budget.take(never);
    expect((JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent).toHaveLength(1);
  });

  it('a ledger written out of order, or with entries that are not times, is read sorted and clean', async () => {
    const now = Date.now();
    const budget = budgetWithLedger(
      '50/60',
      JSON.stringify({ version: 1, sent: [now - 3, 'x', now - 9, null, now - 5, 0] }),
    );
    await budget.take(never);
    const { sent } = JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] };
    expect(sent.slice(0, 3)).toEqual([now - 9, now - 5, now - 3]);
    expect(sent).toHaveLength(4);
    expect([...sent].sort((x, y) => x - y)).toEqual(sent);
  });

  it('a ledger that shrinks a little is written over the old one in place, the rest blank, and read back whole', async () => {
    // Three sends long out of the window, one still in it: the next write keeps two, a shorter text.
    const old = JSON.stringify({ version: 1, sent: [1_000_000, 1_000_001, 1_000_002, Date.now()] });
    const budget = budgetWithLedger('50/1', old);
    await budget.take(never);
    const text = readFileSync(budget.ledgerFile, 'utf8');
    expect(text).toHaveLength(old.length);
    expect(text.trimEnd()).toMatch(/^\{"version":1,"sent":\[\d+,\d+\]\}$/);
    await budget.take(never);
    expect((JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent).toHaveLength(3);
  });

  it('a ledger that shrinks to less than half is cut to size', async () => {
    // Forty sends long out of the window (a raised limit no longer in use): the next write keeps one.
    const budget = budgetWithLedger(
      '50/1',
      JSON.stringify({ version: 1, sent: Array.from({ length: 40 }, (_, i) => 1_000_000 + i) }),
    );
    await budget.take(never);
    expect(readFileSync(budget.ledgerFile, 'utf8')).toMatch(/^\{"version":1,"sent":\[\d+\]\}$/);
  });

  it('a ledger that is a symbolic link is not followed: the file it points at stays as it was', async () => {
    const dir = tempConfigDir();
    const lines: string[] = [];
    const budget = sharedBudget(dir, KEY, { MON_RATE_LIMIT: '5/1' }, undefined, (line) => lines.push(line));
    mkdirSync(join(dir, 'rate'), { recursive: true });
    const elsewhere = join(tempConfigDir(), 'elsewhere.json');
    writeFileSync(elsewhere, 'untouched');
    symlinkSync(elsewhere, budget.ledgerFile);
    await budget.take(never);
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
    expect(lines).toEqual([
      expect.stringMatching(/^rate ledger: cannot keep it in .* \(ELOOP\); this run counts its requests in memory$/),
    ]);
  });

  it('where the config folder cannot be written, still limits this process', async () => {
    const file = join(tempConfigDir(), 'not-a-folder');
    writeFileSync(file, '');
    const clock = testClock();
    const budget = sharedBudget(file, KEY, { MON_RATE_LIMIT: '2/0.4' }, clock);
    await budget.take(never);
    await budget.take(never);
    expect(clock.sleeps).toEqual([]);
    await budget.take(never);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(400);
  });

  it('an abort ends a wait at once', async () => {
    // A wait that ends only when aborted, aborted as soon as it starts.
    const controller = new AbortController();
    const asked: number[] = [];
    const clock: Clock = {
      now: Date.now,
      sleep: (ms, signal) =>
        new Promise((_, reject) => {
          asked.push(ms);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          controller.abort('SIGINT');
        }),
    };
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '1/60' }, clock);
    await budget.take(never);
    await expect(budget.take(controller.signal)).rejects.toBe('SIGINT');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeGreaterThan(50_000);
  });

  it('counts a request from when it was answered: its slot is re-dated, the list stays sorted', async () => {
    const sent = [100, 200, 300];
    redate(sent, 100, 250);
    expect(sent).toEqual([200, 250, 300]);
    redate(sent, 999, 1_000);
    expect(sent).toEqual([200, 250, 300]);

    const clock = testClock();
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '5/1' }, clock);
    const answered = await budget.take(never);
    const admitted = (JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent[0]!;
    expect(admitted).toBe(clock.now());
    await clock.sleep(50);
    await answered?.();
    const later = (JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent[0]!;
    expect(later - admitted).toBe(50);
  });

  it('MON_RATE_LIMIT is <requests>/<seconds>; anything else is a usage error', () => {
    expect(parseLimit(undefined)).toBeUndefined();
    expect(parseLimit('200/60')).toEqual({ requests: 200, windowMs: 60_000 });
    expect(parseLimit(' 5/0.5 ')).toEqual({ requests: 5, windowMs: 500 });
    for (const bad of ['400', '0/60', '5/0', 'x/60', '5/60s', '-1/60'])
      expect(() => parseLimit(bad)).toThrow(/MON_RATE_LIMIT: must be/);
  });

  it('a process that keeps sending takes slots ahead: fewer ledger writes than requests, at most 8 ahead, none by a command of two', async () => {
    const clock = testClock();
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '1000/60' }, clock);
    const ledger = () => (JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent;
    await budget.take(never);
    clock.advance(5);
    await budget.take(never);
    expect(ledger()).toHaveLength(2);
    for (let i = 0; i < 38; i++) {
      clock.advance(5);
      await budget.take(never);
    }
    // 40 requests, one every 5 ms: each write's time is one entry or more.
    const sent = ledger();
    const writes = new Set(sent).size;
    expect(writes).toBeLessThan(12);
    expect(sent.length).toBeGreaterThanOrEqual(40);
    expect(sent.length).toBeLessThanOrEqual(40 + 8);
  });

  it('a slot taken ahead is used only while fresh (half the slack): an older one is dropped for a new write', async () => {
    const clock = testClock();
    // A minute's window: a slack of one second.
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '1000/60' }, clock);
    const ledger = () => (JSON.parse(readFileSync(budget.ledgerFile, 'utf8')) as { sent: number[] }).sent;
    // A millisecond apart: the third write takes one ahead (the fourth request's), the fourth
    // write (the fifth request's) three.
    for (let i = 0; i < 5; i++) {
      await budget.take(never);
      clock.advance(1);
    }
    const stamp = clock.now() - 1;
    expect(ledger().filter((t) => t === stamp)).toHaveLength(4);
    // Still fresh: no write.
    clock.advance(499);
    await budget.take(never);
    expect(ledger()).toHaveLength(8);
    // Past half the slack: the two left are dropped, and a write admits the request.
    clock.advance(2);
    await budget.take(never);
    expect(ledger()).toContain(stamp + 502);
  });

  it('property: with slots taken ahead, whatever the request times, no window ever sees more requests than the limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 60 }),
        async (requests, steps) => {
          const clock = testClock(1_000_000);
          const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: `${requests}/1` }, clock);
          // When each request reaches the server: when its slot is handed over.
          const used: number[] = [];
          for (const step of steps) {
            clock.advance(step);
            await budget.take(never);
            used.push(clock.now());
          }
          expect(busiest(used, 1_000)).toBeLessThanOrEqual(requests);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: whatever the request times, no window ever admits more than the limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 10, max: 1_000 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 120 }),
        (requests, windowMs, steps) => {
          const limit = { requests, windowMs };
          const sent: number[] = [];
          const admitted: number[] = [];
          let now = 0;
          for (const step of steps) {
            now += step;
            // A caller that is told to wait comes back exactly when told.
            for (let wait = admit(sent, now, limit); wait > 0; wait = admit(sent, now, limit)) now += wait;
            admitted.push(now);
          }
          expect(busiest(admitted, windowMs)).toBeLessThanOrEqual(requests);
        },
      ),
    );
  });
});

describe('the shared rate budget, across processes', () => {
  let api: FakeApi;
  let refused = 0;
  const LIMIT = 5;
  const WINDOW_MS = 1_000;
  const SERVER_WINDOW_MS = WINDOW_MS * 0.75;

  beforeAll(async () => {
    const pages = computersPage(4);
    // The server's own limit: a 429 for any request that makes a window hold more than LIMIT.
    // The window is three quarters of the client's: on a busy machine a request may take a while
    // to arrive, and arrivals bunch up by that much. A budget twice too generous still goes over
    // it, and four budgets of their own burst 16 at once.
    api = await startFakeApi((req, res, index) => {
      const now = Date.now();
      const recent = api.arrivals.filter((t) => t > now - SERVER_WINDOW_MS);
      if (recent.length > LIMIT) {
        refused++;
        json(res, 429, [{ status_code: 429, title: 'Too Many Requests' }], { 'retry-after': '1' });
        return;
      }
      pages(req, res, index);
    });
  });
  afterAll(() => api.close());

  const burst = (configDirs: string[], extra: string[] = []) =>
    Promise.all(
      configDirs.map((dir) =>
        runMon(['computers', 'list', '--all', '--per-page', '1', '-o', 'ndjson', ...extra], {
          env: {
            MON_BASE_URL: api.url,
            MON_API_KEY: KEY,
            MON_CONFIG_DIR: dir,
            MON_RATE_LIMIT: `${LIMIT}/${WINDOW_MS / 1000}`,
          },
        }),
      ),
    );

  it('four processes started at once share one budget: no window is ever over it, no 429, nothing lost', async () => {
    api.arrivals.length = 0;
    api.requests.length = 0;
    refused = 0;
    const shared = tempConfigDir();
    const results = await burst([shared, shared, shared, shared]);
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(4);
    }
    expect(refused).toBe(0);
    expect(api.requests).toHaveLength(16);
    // No window over the limit, with 16 requests at 5 a window: the last ones waited for the fourth.
    expect(busiest(api.arrivals, SERVER_WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
  });

  it('(the same burst with a budget per process would have gone over: the test can tell)', async () => {
    api.arrivals.length = 0;
    refused = 0;
    // No retries: the first 429 is all this needs to see, and waiting out Retry-After would not change it.
    await burst([tempConfigDir(), tempConfigDir(), tempConfigDir(), tempConfigDir()], ['--retries', '0']);
    expect(refused).toBeGreaterThan(0);
  });
});
