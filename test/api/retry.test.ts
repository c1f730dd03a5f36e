import { describe, expect, it } from 'vitest';
import { AttemptFailed, type ApiResponse } from '../../src/api/attempt.js';
import { backoff, retrying, retryWait, type RetryPolicy } from '../../src/api/retry.js';
import { NetworkError, ServerError } from '../../src/errors.js';

const policy: RetryPolicy = { retries: 3, backoffMs: 500, maxRetryAfterMs: 60_000, random: () => 0.5 };
const NOW = Date.UTC(2026, 0, 1);
const answer = (status: number, headers: Record<string, string> = {}): ApiResponse => ({ status, headers, data: '' });
const failed = (repeat: 'unsent' | 'transient' | 'final') =>
  new AttemptFailed(new NetworkError('cannot reach host'), repeat);

describe('the retry policy', () => {
  it('429: Retry-After in seconds or as an HTTP date, else the backoff; too long a wait is no retry', () => {
    expect(retryWait(answer(429, { 'retry-after': '7' }), 0, 'POST', false, policy, NOW)).toBe(7_000);
    expect(
      retryWait(answer(429, { 'retry-after': new Date(NOW + 3_000).toUTCString() }), 0, 'GET', true, policy, NOW),
    ).toBe(3_000);
    expect(retryWait(answer(429), 0, 'GET', true, policy, NOW)).toBe(backoff(0, policy));
    expect(retryWait(answer(429, { 'retry-after': '3600' }), 0, 'GET', true, policy, NOW)).toBeUndefined();
  });

  it('502/503/504 for requests safe to repeat; 500 for reads only; never for a creating POST', () => {
    for (const status of [502, 503, 504])
      expect(retryWait(answer(status), 0, 'PUT', true, policy, NOW), String(status)).toBeDefined();
    expect(retryWait(answer(500), 0, 'GET', true, policy, NOW)).toBeDefined();
    expect(retryWait(answer(500), 0, 'PUT', true, policy, NOW)).toBeUndefined();
    expect(retryWait(answer(503), 0, 'POST', false, policy, NOW)).toBeUndefined();
    expect(retryWait(answer(503, { 'retry-after': '2' }), 0, 'GET', true, policy, NOW)).toBe(2_000);
    for (const status of [200, 400, 401, 404, 422])
      expect(retryWait(answer(status), 0, 'GET', true, policy, NOW), String(status)).toBeUndefined();
  });

  it('failed attempts: unsent ones for every method, transient ones only where safe, final ones never', () => {
    expect(retryWait(failed('unsent'), 0, 'POST', false, policy, NOW)).toBeDefined();
    expect(retryWait(failed('transient'), 0, 'POST', false, policy, NOW)).toBeUndefined();
    expect(retryWait(failed('transient'), 0, 'GET', true, policy, NOW)).toBeDefined();
    expect(retryWait(failed('final'), 0, 'GET', true, policy, NOW)).toBeUndefined();
  });

  it('no retry once the retries are spent', () => {
    expect(retryWait(answer(503), 3, 'GET', true, policy, NOW)).toBeUndefined();
    expect(retryWait(answer(503), 2, 'GET', true, policy, NOW)).toBeDefined();
  });

  it('backoff: half the base plus a jittered share of base·2^attempt, at most 8 s of it', () => {
    expect(backoff(0, { backoffMs: 500, random: () => 0 })).toBe(250);
    expect(backoff(0, { backoffMs: 500, random: () => 0.999 })).toBe(750);
    expect(backoff(2, { backoffMs: 500, random: () => 0.5 })).toBe(1_250);
    expect(backoff(10, { backoffMs: 500, random: () => 0.999 })).toBe(8_242);
  });

  it('retrying: waits between attempts as told, and returns the final answer with its attempt', async () => {
    const answers = [answer(503, { 'retry-after': '1' }), answer(429, { 'retry-after': '2' }), answer(200)];
    const waits: number[] = [];
    const result = await retrying({
      method: 'GET',
      policy,
      now: () => NOW,
      once: async () => answers.shift()!,
      pause: async (ms) => (waits.push(ms), true),
    });
    expect(result).toMatchObject({ attempt: 2, response: { status: 200 } });
    expect(waits).toEqual([1_000, 2_000]);
  });

  it('retrying: a failure that stays says how many attempts it took; a refused pause ends at once', async () => {
    let calls = 0;
    const run = (pause: (ms: number) => Promise<boolean>) =>
      retrying({
        method: 'GET',
        policy,
        now: () => NOW,
        once: async () => (calls++, Promise.reject(failed('transient'))),
        pause,
      });
    await expect(run(async () => true)).rejects.toThrow('cannot reach host (after 4 attempts)');
    expect(calls).toBe(4);
    calls = 0;
    await expect(run(async () => false)).rejects.toThrow(/^cannot reach host$/);
    expect(calls).toBe(1);
  });

  it('retrying: anything but a failed attempt (Ctrl-C, a bug) goes straight through', async () => {
    const error = new ServerError('not an attempt failure');
    await expect(
      retrying({ method: 'GET', policy, now: () => NOW, once: () => Promise.reject(error), pause: async () => true }),
    ).rejects.toBe(error);
  });
});
