import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { fanOut } from '../../src/fleet/fan-out.js';
import { attributesOf, planLine, planMute, roughDuration, type MuteOutcome } from '../../src/fleet/mute.js';
import { failureOf, stateSet } from '../../src/fleet/mute-send.js';
import type { SelectedResult } from '../../src/fleet/selection.js';
import { meterLine } from '../../src/output/progress.js';
import { parseFromLines, parseUidLines } from '../../src/validate/uid-list.js';

const outcome = (uid: string, failed?: { code: number; reason: string }): MuteOutcome & { exitCode?: number } => ({
  uid,
  computer: { uid: 'c_1', client_id: 'C-1', name: 'one' },
  group: null,
  plugin: 'Disk Space',
  outcome: failed ? 'failed' : 'muted',
  reason: failed?.reason ?? null,
  previous: null,
  mute: failed ? null : { mute_type: 'timed_mute', mute_until: 2_000_000_000 },
  exitCode: failed?.code,
});

describe('--from lines', () => {
  it('takes uids and ndjson objects with a uid, trims, skips blank lines, keeps the first of repeats', () => {
    expect(parseUidLines('pr_a\r\n{"uid":"pr_b","name":"x"}\n\n  pr_c \npr_a\n', '-')).toEqual([
      'pr_a',
      'pr_b',
      'pr_c',
    ]);
  });

  it.each([
    ['c_81d0', "line 1 of 'uids.txt' (6 characters) does not start with pr_"],
    ['pr_a\n{"uid": 7}', 'line 2 of \'uids.txt\' (10 characters) is a JSON object whose "uid" is not a string'],
    ['pr_a\npr_b\n{not json', "line 3 of 'uids.txt' (9 characters) starts like JSON but does not parse"],
    ['pr_a b', "line 1 of 'uids.txt' (6 characters) holds white space, '/', '?' or '#'"],
    ['["pr_a"]', "line 1 of 'uids.txt' (8 characters) does not start with pr_"],
    ['pr_', "line 1 of 'uids.txt' (3 characters) has nothing after pr_"],
    [`pr_${'a'.repeat(253)}`, "line 1 of 'uids.txt' (256 characters) is longer than the 255 characters a uid may be"],
    [
      `{"uid": "pr_${'a'.repeat(253)}"}`,
      'line 1 of \'uids.txt\' (267 characters) is a JSON object whose "uid" is longer than the 255 characters a uid may be',
    ],
  ])('%j is refused, the line described and not quoted', (text, message) => {
    expect(() => parseUidLines(text, "'uids.txt'")).toThrow(UsageError);
    expect(() => parseUidLines(text, "'uids.txt'")).toThrow(`--from: ${message}`);
  });

  it('takes a uid of 255 characters', () => {
    expect(parseUidLines(`pr_${'a'.repeat(252)}`, '-')).toHaveLength(1);
  });
});

describe('--from lines that are the rows of a bulk mute', () => {
  const row = (uid: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      uid,
      outcome: 'muted',
      reason: null,
      previous: null,
      mute: { mute_type: 'timed_mute', mute_until: 2_000_000_000 },
      ...extra,
    });

  it('keeps each row by uid: its outcome, the mute before and the mute it set', () => {
    const { uids, rows } = parseFromLines(
      `${row('pr_a')}\n\n${row('pr_b', { outcome: 'failed', mute: null, previous: { mute_type: 'muted_forever' } })}\n`,
      '-',
    );
    expect(uids).toEqual(['pr_a', 'pr_b']);
    expect(rows?.get('pr_a')).toEqual({
      outcome: 'muted',
      previous: null,
      mute: { mute_type: 'timed_mute', mute_until: 2_000_000_000 },
    });
    expect(rows?.get('pr_b')).toEqual({ outcome: 'failed', previous: { mute_type: 'muted_forever' }, mute: null });
  });

  it('plain uids and the objects of `alerts -o ndjson` are no rows', () => {
    expect(parseFromLines('pr_a\n{"uid":"pr_b","muted":true}', '-')).toEqual({ uids: ['pr_a', 'pr_b'] });
  });

  it.each([
    [
      `${row('pr_a')}\npr_b`,
      "line 2 of 'f' (4 characters) is not a row of a mute's output, as the lines before it are",
    ],
    [`pr_b\n${row('pr_a')}`, "is a row of a mute's output, but line 1 is not"],
    [row('pr_a', { mute: undefined }), 'is a row of a mute\'s output whose "mute" is not a mute'],
    [row('pr_a', { previous: { mute_until: 5 } }), 'is a row of a mute\'s output whose "previous" is not a mute'],
    [row('pr_a', { outcome: 1 }), 'is a row of a mute\'s output whose "outcome" is not a string'],
  ])('%j is exit 2, the line described and not quoted', (text, message) => {
    expect(() => parseFromLines(text, "'f'")).toThrow(UsageError);
    expect(() => parseFromLines(text, "'f'")).toThrow(message);
  });
});

describe('the plan of a mute or an unmute', () => {
  const NOW = 1_900_000_000;
  const result = (uid: string, mute: Record<string, unknown>): SelectedResult => ({
    uid,
    name: 'Load Average',
    status: 'Alert',
    computer: { uid: 'c_1', client_id: 'C-1', name: 'one' },
    group: { uid: 'g_1', name: 'G' },
    ...mute,
  });
  const pages = async function* () {
    yield [
      result('pr_free', { muted: false }),
      result('pr_timed', { muted: true, mute_type: 'timed_mute', mute_until: NOW + 60 }),
      result('pr_ended', { muted: true, mute_type: 'timed_mute', mute_until: NOW - 60 }),
      result('pr_good', { muted: true, mute_type: 'muted_forever' }),
      result('pr_ticket', { muted: true, mute_type: 'ticket_muted', ticket_number: '7' }),
    ];
  };
  const uids = (plan: { targets: { uid: string }[] }) => plan.targets.map((t) => t.uid);

  it('a mute leaves every mute in force as it is, and counts those not timed', async () => {
    const plan = await planMute('mute', pages(), NOW);
    expect(uids(plan)).toEqual(['pr_free', 'pr_ended']);
    expect(planLine(plan, ' for 2h')).toBe(
      'mute 2 plugin results on 1 computer in 1 group for 2h; 3 more are muted already, 2 of them not timed (1 muted for good, 1 under a ticket), and stay as they are',
    );
  });

  it('an unmute with --timed-only lifts timed mutes only; by default every mute, counting those not timed', async () => {
    const timed = await planMute('unmute', pages(), NOW);
    expect(uids(timed)).toEqual(['pr_timed']);
    expect(planLine(timed, '')).toBe(
      'unmute 1 plugin result on 1 computer in 1 group; 2 muted are not timed (1 muted for good, 1 under a ticket) and stay muted (--timed-only); 2 more are unmuted already',
    );
    const every = await planMute('unmute', pages(), NOW, { includeUntimed: true });
    expect(uids(every)).toEqual(['pr_timed', 'pr_good', 'pr_ticket']);
    expect(planLine(every, '')).toBe(
      'unmute 3 plugin results on 1 computer in 1 group, 2 of them not timed (1 muted for good, 1 under a ticket); 2 more are unmuted already',
    );
  });

  it('an undo takes back what still carries the mute its row set, and puts back what was before', async () => {
    const rows = new Map([
      [
        'pr_timed',
        {
          outcome: 'muted',
          previous: { mute_type: 'muted_forever' },
          mute: { mute_type: 'timed_mute', mute_until: NOW + 60 },
        },
      ],
      ['pr_good', { outcome: 'muted', previous: null, mute: { mute_type: 'timed_mute', mute_until: NOW + 60 } }],
      ['pr_free', { outcome: 'muted', previous: null, mute: { mute_type: 'timed_mute', mute_until: NOW + 60 } }],
    ]);
    const plan = await planMute('unmute', pages(), NOW, { rows, undoOf: "'w.ndjson'" });
    expect(plan.targets.map((t) => [t.uid, t.restore])).toEqual([['pr_timed', { mute_type: 'muted_forever' }]]);
    expect(planLine(plan, '')).toBe(
      "unmute 1 plugin result on 1 computer in 1 group, taking back the mute of 'w.ndjson'; 1 was muted otherwise since and stays as it is; 1 more is unmuted already",
    );
  });

  it('a mute is put back with the attributes a request names, and a request reports as the API does', () => {
    expect(attributesOf(null)).toEqual({ mute_type: 'none' });
    expect(attributesOf({ mute_type: 'muted_forever' })).toEqual({ mute_type: 'ignored' });
    expect(attributesOf({ mute_type: 'timed_mute', mute_until: 5 })).toMatchObject({
      mute_type: 'timed',
      mute_until: 5,
    });
    expect(attributesOf({ mute_type: 'ticket_muted', ticket_number: '7', ticket_url: 'https://t/7' })).toEqual({
      mute_type: 'ticket',
      ticket_number: '7',
      ticket_url: 'https://t/7',
    });
    expect(stateSet({ mute_type: 'ignored' })).toEqual({ mute_type: 'muted_forever' });
    expect(stateSet({ mute_type: 'timed', mute_until: 5 })).toEqual({ mute_type: 'timed_mute', mute_until: 5 });
  });
});

describe('the exit code of failed writes', () => {
  it('is that of the failures; mixed, the most common; equally common, the first met', () => {
    expect(failureOf('mute', [outcome('pr_a'), outcome('pr_b')])).toBeUndefined();
    const one = failureOf('mute', [outcome('pr_a'), outcome('pr_b', { code: 5, reason: 'no ticket system' })])!;
    expect(one.exitCode).toBe(5);
    expect(one.message).toBe('1 of 2 plugin results not muted (no ticket system): pr_b');
    const mixed = failureOf('unmute', [
      outcome('pr_a', { code: 8, reason: 'timeout' }),
      outcome('pr_b', { code: 7, reason: '500' }),
      outcome('pr_c', { code: 7, reason: '500' }),
    ])!;
    expect(mixed.exitCode).toBe(7);
    expect(mixed.message).toBe('3 of 3 plugin results not unmuted (500): pr_a, pr_b, pr_c');
    expect(
      failureOf('mute', [outcome('pr_a', { code: 8, reason: 'timeout' }), outcome('pr_b', { code: 7, reason: '500' })])!
        .exitCode,
    ).toBe(8);
  });
});

describe('the meter line', () => {
  it.each([
    [{ done: 0, total: 214, rate: 0 }, 'muting [--------------------] 0/214  0.0/s  time left unknown'],
    [{ done: 107, total: 214, rate: 10 }, 'muting [##########----------] 107/214  10.0/s  0:11 left'],
    // More than one window of the budget: the pace cannot stay above it, so the time left follows it.
    [
      { done: 100, total: 600, rate: 50, budgetRate: 400 / 60, budgetRequests: 400 },
      'muting [###-----------------] 100/600  50.0/s  1:15 left',
    ],
    // Within one window the budget does not bite.
    [
      { done: 100, total: 300, rate: 50, budgetRate: 400 / 60, budgetRequests: 400 },
      'muting [#######-------------] 100/300  50.0/s  0:04 left',
    ],
    [{ done: 0, total: 40_000, rate: 6 }, 'muting [--------------------] 0/40000  6.0/s  1:51:07 left'],
  ])('%j', (state, line) => {
    expect(meterLine({ label: 'muting', ...state })).toBe(line);
  });
});

describe('durations in the plan', () => {
  it.each([
    [7200, '2h'],
    [5400, '1h30m'],
    [86_400 * 7, '7d'],
    [93_600, '1d2h'],
    [20, '1m'],
  ])('%i s is %s', (seconds, text) => expect(roughDuration(seconds)).toBe(text));
});

describe('the fan-out', () => {
  it('keeps at most `limit` under way and starts nothing once aborted', async () => {
    const controller = new AbortController();
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await fanOut(
      Array.from({ length: 20 }, (_, i) => i),
      4,
      controller.signal,
      async (item) => {
        started.push(item);
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (item === 9) controller.abort();
        running--;
      },
    );
    expect(most).toBe(4);
    expect(started).toEqual(started.slice().sort((a, b) => a - b));
    // Those under way at the abort finished; none started after it.
    expect(started.length).toBeGreaterThanOrEqual(10);
    expect(started.length).toBeLessThanOrEqual(13);
  });
});
