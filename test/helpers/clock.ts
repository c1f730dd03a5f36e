import type { Clock } from '../../src/clock.js';

/** A clock whose sleeps return at once, moving its time forward by what they asked for. */
export interface TestClock extends Clock {
  /** Every sleep asked for, in ms, in order. */
  readonly sleeps: number[];
  /** Moves the time forward, as a slow server or a busy machine would. */
  advance(ms: number): void;
}

/**
 * Time that moves only when the code under test sleeps: retries, Retry-After and the rate
 * budget's waits take no wall time, and a test reads what was waited from `sleeps`. Timeouts
 * of a request stay on the wall clock: they measure a real server.
 */
export function testClock(start = Date.now(), onSleep?: (sleeps: readonly number[]) => void): TestClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
      // What the world does meanwhile: a test releases a lock, aborts, changes the server.
      onSleep?.(sleeps);
      // Let other work (pages fetched ahead, the server) take its turn, as a real wait would.
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
    },
  };
}
