/**
 * Time as the client, its retries and the rate budget see it. The system clock in a command;
 * tests hand in one they move forward themselves instead of sleeping.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`; rejects as {@link sleep} does when the signal aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Resolves after `ms`; when `signal` aborts first, rejects as node:timers/promises' setTimeout
 * does: an AbortError (code ABORT_ERR) whose cause is the signal's reason. Not that module: a
 * command that sleeps only on a retry would load it at every start (about 1.7 M instructions of
 * a one-request command, Node 24).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const aborted = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** What node:timers/promises rejects with on an abort. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

export const systemClock: Clock = { now: () => Date.now(), sleep };
