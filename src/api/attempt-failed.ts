/** How an attempt ends when it has no answer to give: whether to try again, or Ctrl-C. */
import { InterruptedError, type MonError } from '../errors.js';

/**
 * How an attempt that failed may be repeated: `unsent` when nothing can have reached the
 * server (refused connection, unknown host), so even a creating POST may go again; `transient`
 * when the server may have acted (reset, cut body), so only requests that are safe to repeat
 * go again; `final` when another attempt cannot help (TLS, timeout, deadline).
 */
export type Repeat = 'unsent' | 'transient' | 'final';

/** An attempt that failed, with whether another may help. */
export class AttemptFailed extends Error {
  constructor(
    readonly error: MonError,
    readonly repeat: Repeat,
  ) {
    super(error.message);
  }
}

/** Ctrl-C or SIGTERM, as the signal's reason says. */
export function interrupted(signal: AbortSignal): InterruptedError {
  return InterruptedError.of(signal);
}
