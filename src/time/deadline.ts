import { quoted } from '../text/escape.js';
import { NetworkError, UsageError } from '../errors.js';

/** Default of MON_DEADLINE: far beyond any `--all` at 400 requests a minute, short of forever. */
export const DEFAULT_DEADLINE_MS = 3_600_000;

/** MON_DEADLINE=<seconds> (0 < s <= 86400); unset: {@link DEFAULT_DEADLINE_MS}. */
export function deadlineFromEnv(env: Record<string, string | undefined>): number {
  const text = env.MON_DEADLINE?.trim();
  if (!text) return DEFAULT_DEADLINE_MS;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value <= 0 || value > 86_400) {
    throw new UsageError(`MON_DEADLINE: must be a number of seconds above 0 and at most 86400 (got ${quoted(text)})`);
  }
  return Math.round(value * 1000);
}

/** The command ran out of its MON_DEADLINE. */
export function deadlineError(deadlineMs: number): NetworkError {
  return new NetworkError(`the command did not finish within its deadline of ${deadlineMs / 1000} s`, 'raise MON_DEADLINE (seconds) if it needs longer');
}
