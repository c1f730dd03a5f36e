import { quoted } from '../text/escape.js';
import { DeadlineError, UsageError } from '../errors.js';

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
export function deadlineError(deadlineMs: number): DeadlineError {
  return new DeadlineError(deadlineMs, 'raise MON_DEADLINE (seconds) if it needs longer');
}

/** What held a command at its deadline, as its last line says it in brackets. */
export const HELD_BY = {
  /** Output was written that its reader has not taken (a pipe nobody reads). */
  stdout: 'standard output was not read',
  /** A question on the terminal (a delete's y/N) waits for its answer. */
  answer: 'no answer came to the question',
} as const;

export type HeldBy = keyof typeof HELD_BY;

/** The deadline's line on stderr, saying what held the command when it knows. */
export function deadlineLine(deadlineMs: number, heldBy?: HeldBy): string {
  const { message, hint } = deadlineError(deadlineMs);
  return `mon: ${message}${heldBy ? ` (${HELD_BY[heldBy]})` : ''} — ${hint}\n`;
}
