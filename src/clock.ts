import { setTimeout as wait } from 'node:timers/promises';

/**
 * Time as the client, its retries and the rate budget see it. The system clock in a command;
 * tests hand in one they move forward themselves instead of sleeping.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => wait(ms, undefined, signal ? { signal } : undefined),
};
