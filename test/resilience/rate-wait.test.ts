/**
 * A wait of the rate budget is said, not silent: more than a second shows a live line on a
 * terminal (how long, and that every mon using the key shares the budget), joins the --all
 * progress and the bulk mute meter, and --verbose says it once in a pipe. Time is a test clock.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBudget } from '../../src/api/budget.js';
import { main } from '../../src/main.js';
import { runMain } from '../helpers/run-main.js';
import { createMeter, createProgress, createWaitNotice, type RateHold } from '../../src/output/progress.js';
import { computersPage, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { testClock } from '../helpers/clock.js';
import { tempConfigDir } from '../helpers/run-mon.js';
import { KEY } from './support.js';

/** A terminal's stderr: what was written, and the line it shows now (after the last `\r`). */
function screen() {
  let text = '';
  return {
    isTTY: true,
    write: (chunk: string) => void (text += chunk),
    text: () => text,
    line: () => (text.split('\r').at(-1) ?? '').replace('\x1b[K', ''),
  };
}

const hold = (until: number): RateHold => ({ until, requests: 400, windowMs: 60_000 });

describe('the wait notice', () => {
  it('a wait of more than a second shows on a line of its own, counted down, and is cleared when it ends', () => {
    let now = 0;
    const err = screen();
    const notice = createWaitNotice(err, () => now, { quiet: false });
    notice.hold(hold(42_000));
    expect(err.line()).toBe(
      'waiting 0:42 for the rate budget (400 requests a minute, shared by every mon using this key)',
    );
    now = 30_500;
    expect(notice.note()).toBe(
      'waiting 0:12 for the rate budget (400 requests a minute, shared by every mon using this key)',
    );
    notice.hold(undefined);
    expect(err.line()).toBe('');
  });

  it('a second or less says nothing', () => {
    const err = screen();
    const lines: string[] = [];
    const notice = createWaitNotice(
      err,
      () => 0,
      { quiet: false },
      (line) => lines.push(line),
    );
    notice.hold(hold(1_000));
    notice.hold(undefined);
    expect(err.text()).toBe('');
    expect(lines).toEqual([]);
  });

  it('in a pipe, nothing but --verbose, once', () => {
    const err = { isTTY: false, write: (chunk: string) => void (written += chunk) };
    let written = '';
    const lines: string[] = [];
    const notice = createWaitNotice(
      err,
      () => 0,
      { quiet: false },
      (line) => lines.push(line),
    );
    notice.hold(hold(5_000));
    notice.hold(undefined);
    notice.hold(hold(3_000));
    expect(written).toBe('');
    expect(lines).toEqual([
      'rate budget: waiting 5 s for a free request (400 requests a minute, shared by every mon using this key)',
    ]);
  });

  it('--quiet keeps the terminal quiet', () => {
    const err = screen();
    createWaitNotice(err, () => 0, { quiet: true }).hold(hold(42_000));
    expect(err.text()).toBe('');
  });

  it('joins the progress line while it lasts, shown at once (before progress would show)', () => {
    let now = 0;
    const err = screen();
    const notice = createWaitNotice(err, () => now, { quiet: false });
    const progress = createProgress(err, () => now, { quiet: false }, notice);
    progress.update('reading computers 100/10000');
    expect(err.text()).toBe('');
    notice.hold(hold(55_000));
    expect(err.line()).toBe(
      'reading computers 100/10000  waiting 0:55 for the rate budget (400 requests a minute, shared by every mon using this key)',
    );
    now = 55_000;
    notice.hold(undefined);
    expect(err.line()).toBe('reading computers 100/10000');
    progress.done();
    expect(err.line()).toBe('');
  });

  it('joins the bulk mute meter', () => {
    let now = 0;
    const err = screen();
    const notice = createWaitNotice(err, () => now, { quiet: false });
    const meter = createMeter(err, () => now, { quiet: false }, { label: 'muting', total: 4 }, notice);
    now = 2_000;
    meter.tick();
    notice.hold(hold(now + 61_000));
    expect(err.line()).toMatch(
      /^muting \[#####-+\] 1\/4 .* left {2}waiting 1:01 for the rate budget \(400 requests a minute, shared by every mon using this key\)$/,
    );
  });
});

describe('the budget says when it holds', () => {
  it('each wait, as it begins and ends', async () => {
    const clock = testClock(1_000_000);
    const holds: (RateHold | undefined)[] = [];
    const budget = sharedBudget(tempConfigDir(), KEY, { MON_RATE_LIMIT: '1/60' }, clock, undefined, (h) =>
      holds.push(h),
    );
    const signal = new AbortController().signal;
    await budget.take(signal);
    expect(holds).toEqual([]);
    await budget.take(signal);
    expect(holds).toHaveLength(2);
    expect(holds[0]).toMatchObject({ requests: 1, windowMs: 60_000 });
    expect(holds[0]!.until - 1_000_000).toBeGreaterThanOrEqual(61_000);
    expect(holds[1]).toBeUndefined();
  });
});

describe('a command held by the budget', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi(computersPage(3));
  });
  afterAll(() => api.close());

  async function run(
    args: string[],
    tty: boolean,
    extraEnv: Record<string, string> = {},
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: { write: (chunk: string) => (stdout += chunk), isTTY: false },
      stderr: { write: (chunk: string) => (stderr += chunk), isTTY: tty },
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
    };
    const env = {
      HOME: tempConfigDir(),
      MON_CONFIG_DIR: tempConfigDir(),
      MON_BASE_URL: api.url,
      MON_API_KEY: KEY,
      MON_RATE_LIMIT: '1/5',
      ...extraEnv,
    };
    const code = await main(['computers', 'list', '--all', '--per-page', '1', ...args], {
      io,
      env,
      clock: testClock(),
    });
    return { code, stdout, stderr };
  }

  it('on a terminal: the --all progress shows the wait', async () => {
    const result = await run([], true);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(4);
    expect(result.stderr).toMatch(
      /\rreading computers 1\/3 {2}waiting 0:0[56] for the rate budget \(1 request per 5 s, shared by every mon using this key\)/,
    );
    // the line is cleared before the table
    expect(result.stderr.endsWith('\r\x1b[K')).toBe(true);
  });

  it('on a terminal that draws no escapes (TERM=dumb): the same line, rewritten over spaces', async () => {
    const result = await run([], true, { TERM: 'dumb' });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(4);
    expect(result.stderr).toMatch(/\rreading computers 1\/3 {2}waiting 0:0[56] for the rate budget/);
    expect(result.stderr).not.toContain('\x1b');
    // cleared before the table: spaces, then back to the line's start
    expect(result.stderr).toMatch(/\r {20,}\r$/);
  });

  it('in a pipe: --verbose says it once; without it, nothing', async () => {
    const verbose = await run(['--verbose'], false);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr.match(/rate budget: waiting/g)).toHaveLength(1);
    expect(verbose.stderr).toMatch(
      /rate budget: waiting [56] s for a free request \(1 request per 5 s, shared by every mon using this key\)/,
    );
    const quiet = await run([], false);
    expect(quiet.stderr).toBe('');
  });
});

describe('MON_RATE_LIMIT raised past the API', () => {
  it.each([
    ['500/60 to the service: a warning', 'https://acme.example.com', '500/60', true],
    ['40/5 (480 a minute) to the service: a warning', 'https://acme.example.com', '40/5', true],
    ['400/60 to the service: none', 'https://acme.example.com', '400/60', false],
    ['100000/60 to a sandbox on loopback: none', 'http://127.0.0.1:9', '100000/60', false],
  ])('%s', async (_name, baseUrl, limit, warned) => {
    const result = await runMain(['--dry-run', 'groups', 'list'], {
      env: { MON_BASE_URL: baseUrl, MON_API_KEY: 'k_rate_limit_123456', MON_RATE_LIMIT: limit },
    });
    expect(result.code).toBe(0);
    const warning = `mon: warning: MON_RATE_LIMIT=${limit} lets mon send more than the API's 400 requests a minute: expect 429 answers (exit 6)\n`;
    expect(result.stderr).toBe(`${warned ? warning : ''}dry run: nothing was sent\n`);
  });
});
