import type { MonError } from '../errors.js';
import { AttemptFailed, type ApiResponse } from './attempt.js';
import { retryAfter } from './settle.js';
import { IDEMPOTENT_POSTS, type HttpMethod, type RouteName } from './endpoints.js';

/**
 * The retry policy of docs/design/cli-contract.md: 429 is retried for every method (the server did not act
 * on it); network failures and 502/503/504 (and 500 on reads) only where a repeat cannot create
 * a second object; a failure that cannot have reached the server (refused, unknown host) for
 * every method. Waits follow Retry-After where the server sends one, within reason, else an
 * exponential backoff with jitter.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Base of the exponential backoff between retries, in ms. */
  backoffMs: number;
  /** The longest wait a Retry-After may ask for before the client gives up instead. */
  maxRetryAfterMs: number;
  /** 0 ≤ x < 1, for the jitter; Math.random unless a test fixes it. */
  random?: () => number;
}

export const DEFAULT_BACKOFF_MS = 500;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** One request as the policy sees it. */
export interface RetryRun {
  method: HttpMethod;
  route?: RouteName;
  policy: RetryPolicy;
  /** Epoch ms now (dates a Retry-After given as an HTTP date). */
  now(): number;
  /** One attempt: a response whatever its status, or an AttemptFailed thrown. */
  once(): Promise<ApiResponse>;
  /** Waits before a retry; false when the retry is not to be made (deadline, client closed). */
  pause(ms: number): Promise<boolean>;
}

/**
 * Attempts until an answer is final; returns it with the index of the attempt that got it, and
 * whether an earlier attempt may have been acted on though its answer was lost (a reset, a
 * body cut off, a gateway's 502 or 504). A failure that stays is thrown as its MonError,
 * saying how many attempts it took.
 */
export async function retrying(
  run: RetryRun,
): Promise<{ response: ApiResponse; attempt: number; mayHaveActed: boolean }> {
  const safe = repeatable(run.method, run.route);
  let mayHaveActed = false;
  for (let attempt = 0; ; attempt++) {
    let outcome: ApiResponse | AttemptFailed;
    try {
      outcome = await run.once();
    } catch (caught) {
      if (!(caught instanceof AttemptFailed)) throw caught;
      outcome = caught;
    }
    const wait = retryWait(outcome, attempt, run.method, safe, run.policy, run.now());
    if (wait !== undefined && (await run.pause(wait))) {
      mayHaveActed ||=
        outcome instanceof AttemptFailed
          ? outcome.repeat === 'transient'
          : outcome.status === 502 || outcome.status === 504;
      continue;
    }
    if (outcome instanceof AttemptFailed) throw withAttempts(outcome.error, attempt);
    return { response: outcome, attempt, mayHaveActed };
  }
}

/** A repeat of this request cannot create a second object. */
export function repeatable(method: HttpMethod, route?: RouteName): boolean {
  return method !== 'POST' || (route !== undefined && IDEMPOTENT_POSTS.has(route));
}

/**
 * How long to wait before another attempt after `outcome` of attempt number `attempt` (0 for
 * the first), or undefined when there is to be none. A Retry-After is followed, but never
 * below the backoff's base: `Retry-After: 0` would otherwise spend every retry in a moment.
 */
export function retryWait(
  outcome: ApiResponse | AttemptFailed,
  attempt: number,
  method: HttpMethod,
  safe: boolean,
  policy: RetryPolicy,
  now: number,
): number | undefined {
  if (attempt >= policy.retries) return undefined;
  if (outcome instanceof AttemptFailed) {
    const again = outcome.repeat === 'unsent' || (outcome.repeat === 'transient' && safe);
    return again ? backoff(attempt, policy) : undefined;
  }
  const { status, headers } = outcome;
  if (status === 429) {
    const asked = retryAfter(headers['retry-after'], now);
    const wait = asked === undefined ? backoff(attempt, policy) : Math.max(asked, policy.backoffMs);
    if (wait <= policy.maxRetryAfterMs) return wait;
    return undefined;
  }
  const transient = status === 502 || status === 503 || status === 504 || (status === 500 && method === 'GET');
  if (!transient || !safe) return undefined;
  // A 503 may say when to come back (RFC 9110, Retry-After); within reason, do as it says.
  const asked = status === 503 ? retryAfter(headers['retry-after'], now) : undefined;
  return asked !== undefined && asked <= policy.maxRetryAfterMs
    ? Math.max(asked, policy.backoffMs)
    : backoff(attempt, policy);
}

/** Exponential backoff with full jitter: half the base, plus 0..base·2^attempt (at most 8 s). */
export function backoff(attempt: number, policy: Pick<RetryPolicy, 'backoffMs' | 'random'>): number {
  const base = policy.backoffMs;
  return Math.round((policy.random ?? Math.random)() * Math.min(8_000, base * 2 ** attempt)) + base / 2;
}

/** Says how many attempts a final failure took, when there were more than one. */
export function withAttempts(error: MonError, attempt: number): MonError {
  if (attempt > 0) error.message = `${error.message} (after ${attempt + 1} attempts)`;
  return error;
}
