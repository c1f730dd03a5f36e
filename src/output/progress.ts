import type { Sink } from './types.js';

/** How long work runs before progress is shown: quick answers stay quiet. */
const DELAY_MS = 1_000;

export interface Progress {
  /** The current state, e.g. "reading computers 300/10000"; shown once the delay has passed. */
  update(text: string): void;
  /** Clears the line, if anything was shown. */
  done(): void;
}

/**
 * One line of progress on stderr, rewritten in place: on a terminal only (never in a pipe or a
 * log), not with --quiet, and only once the work has taken more than a second.
 */
export function createProgress(stderr: Sink & { isTTY?: boolean }, now: () => number, quiet: boolean): Progress {
  const started = now();
  const enabled = stderr.isTTY === true && !quiet;
  let shown = false;
  return {
    update(text) {
      if (!enabled || now() - started < DELAY_MS) return;
      stderr.write(`\r${text}\x1b[K`);
      shown = true;
    },
    done() {
      if (shown) stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
