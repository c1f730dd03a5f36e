import { UsageError } from '../errors.js';
import { quoted } from '../text/escape.js';

/** `--changes NAME [--reset]` as checked. */
export interface ChangesRequest {
  name: string;
  reset: boolean;
}

/** What NAME may be: letters, digits, '.', '_' and '-', as profile names (it names a file). */
const CHANGES_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

/**
 * `--changes NAME` and `--reset` as given: undefined without --changes. Checked before anything
 * is sent (exit 2). Light on purpose: every list calls it before loading anything.
 */
export function changesWanted(opts: { changes?: string; reset?: boolean }): ChangesRequest | undefined {
  if (opts.changes === undefined) {
    if (opts.reset)
      throw new UsageError(
        '--reset: forgets the saved state of --changes NAME, so it needs --changes',
        'add --changes NAME',
      );
    return undefined;
  }
  if (!CHANGES_NAME.test(opts.changes)) {
    throw new UsageError(
      `--changes: ${quoted(opts.changes)} is not a NAME of letters, digits, '.', '_' and '-' (starting with a letter or digit, at most 64)`,
      'e.g. --changes missing',
    );
  }
  return { name: opts.changes, reset: opts.reset === true };
}
