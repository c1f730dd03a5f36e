/**
 * Typed errors. Each carries the exit code of the contract's table (docs/design/cli-contract.md, "Exit
 * codes") and an optional hint that tells the user what to do next. `main()` is the only place
 * that turns them into an exit code and a line on stderr.
 */

/** The exit codes, by what they mean: the classes below take theirs from here. */
export const EXIT = {
  ok: 0,
  /** A bug, a --jq filter that failed, a damaged state; and a confirmation answered no. */
  internal: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  rateLimited: 6,
  server: 7,
  network: 8,
  accountsFailed: 9,
  interrupted: 130,
  terminated: 143,
} as const;

/** `status --check` exits as a Nagios plugin does: the state's index is the exit code. */
export const NAGIOS_STATES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'] as const;

/**
 * What each exit code means and whether a later run may succeed: the one table that
 * `mon help exit-codes`, docs/help/exit-codes.md and the man page print (src/spec/topics.ts).
 */
export const EXIT_CODES: readonly { code: string; meaning: string; retry: string }[] = [
  { code: `${EXIT.ok}`, meaning: 'success', retry: '-' },
  {
    code: `${EXIT.internal}`,
    meaning:
      'a bug in mon (run with --verbose and report it); a confirmation answered no on a terminal (nothing was done); a --jq filter that failed on the data or ran out of memory (256 MB); or a saved --changes state that is damaged, or that another run holds past the wait (the message names the file)',
    retry: 'no: for a state, do what the message says; for a confirmation, answer y or add --yes',
  },
  {
    code: `${EXIT.usage}`,
    meaning:
      'usage: a bad flag or value (nothing was sent), no profile, a delete, a bulk mute or a mute that ends one sooner without --yes, a damaged config file or a config folder that is not yours alone (the message names it)',
    retry: 'no: fix the command',
  },
  {
    code: `${EXIT.auth}`,
    meaning: '401 or 403: the key or subdomain is wrong, or the key has no permission',
    retry: 'no',
  },
  { code: `${EXIT.notFound}`, meaning: '404: no such item (the message names what was looked for)', retry: 'no' },
  {
    code: `${EXIT.rejected}`,
    meaning: '400, 422 or another 4xx: the server rejected the request (the message names the attribute)',
    retry: 'no',
  },
  {
    code: `${EXIT.rateLimited}`,
    meaning: '429 after every retry: the message says when to try again',
    retry: 'yes, after the time it names',
  },
  {
    code: `${EXIT.server}`,
    meaning:
      "5xx after the retries, a redirect, or a body that is not the API's JSON (an HTML page from a proxy, a truncated answer, no body to a read or a write, an answer over MON_MAX_RESPONSE); or a partial read: a list whose pages contradict the totals the server sent (an empty or short page before the promised end, a page served twice); --changes keeps its old state",
    retry: 'yes',
  },
  {
    code: `${EXIT.network}`,
    meaning:
      'network or TLS failure, --timeout or MON_DEADLINE passed (also while reading --from, --body-file or --api-key-stdin, or running a --jq filter)',
    retry: 'yes (not for TLS)',
  },
  {
    code: `${EXIT.accountsFailed}`,
    meaning:
      "with --profiles, --all-profiles or MON_PROFILES: some accounts failed (a line each on stderr, naming the profile) and the others' data was printed whole; when every account fails with the same code, that code instead",
    retry: "as the accounts' lines say",
  },
  {
    code: `${EXIT.interrupted} / ${EXIT.terminated}`,
    meaning:
      'interrupted by Ctrl-C / SIGTERM, also while reading input or running a --jq filter (the message says what was done first)',
    retry: '-',
  },
];
export abstract class MonError extends Error {
  abstract readonly exitCode: number;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flag, invalid value caught before sending, no profile, delete refused: exit 2. */
export class UsageError extends MonError {
  readonly exitCode = EXIT.usage;
}

/**
 * A question on a terminal answered no: nothing was done, and the command line was right, so it
 * is not a usage error. Exit 1, as apt-get exits after "Abort.".
 */
export class DeclinedError extends MonError {
  readonly exitCode = EXIT.internal;
}

/** 401 or 403: exit 3. */
export class AuthError extends MonError {
  readonly exitCode = EXIT.auth;
}

/** 404: exit 4. */
export class NotFoundError extends MonError {
  readonly exitCode = EXIT.notFound;
}

/** 400 or 422, the server rejected the request: exit 5. */
export class RejectedError extends MonError {
  readonly exitCode = EXIT.rejected;
}

/** 429 still returned after the retries: exit 6. */
export class RateLimitError extends MonError {
  readonly exitCode = EXIT.rateLimited;
}

/**
 * 5xx after the retries, a body that is not the JSON the API promises, or a partial read (a
 * list whose pages contradict the totals the server sent, src/api/paginate.ts): exit 7.
 */
export class ServerError extends MonError {
  readonly exitCode = EXIT.server;
}

/** Network, TLS or timeout failure: exit 8. */
export class NetworkError extends MonError {
  readonly exitCode = EXIT.network;
}

/**
 * MON_DEADLINE passed (exit 8, as a network failure). What held the command then is said in
 * brackets by main() and bin/mon from what they see at that moment (src/api/deadline.ts,
 * HELD_BY), never from which of them noticed first.
 */
export class DeadlineError extends NetworkError {
  constructor(
    readonly deadlineMs: number,
    hint?: string,
  ) {
    super(`the command did not finish within its deadline of ${deadlineMs / 1000} s`, hint);
  }
}

/**
 * With --profiles or --all-profiles: some accounts failed (each said why on its own line) and
 * the others' data was printed whole: exit 9.
 */
export class AccountsFailedError extends MonError {
  readonly exitCode = EXIT.accountsFailed;
}

/**
 * The --jq filter failed on the data (`.[] | .a.b` over a string): exit 1, with jq's message,
 * after the data was read. Its syntax is checked before any request (a UsageError, exit 2).
 */
export class FilterError extends MonError {
  readonly exitCode = EXIT.internal;
}

/**
 * A file mon keeps for itself cannot be used as it is: a saved --changes state that is damaged,
 * or held by another run past the wait. Exit 1: nothing the user typed was wrong, and the file
 * is left as it is for them to look at (the hint says how to start again).
 */
export class StateFileError extends MonError {
  readonly exitCode = EXIT.internal;
}

/** Ctrl-C (130) or SIGTERM (143); `message` says what was done first, when the command knows it. */
export class InterruptedError extends MonError {
  constructor(
    readonly signal: 'SIGINT' | 'SIGTERM' = 'SIGINT',
    message?: string,
  ) {
    super(message ?? (signal === 'SIGTERM' ? 'terminated' : 'interrupted'));
  }
  get exitCode(): number {
    return this.signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
  }

  /** The interrupt an aborted signal stands for: bin/mon aborts with the signal's name as reason. */
  static of(signal: AbortSignal | undefined, message?: string): InterruptedError {
    return new InterruptedError(signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT', message);
  }
}

/**
 * Some of many writes failed (`plugin mute --group …`): the others were done and printed. The
 * exit code is that of the failures' own errors (docs/design/cli-contract.md, Exit codes): see
 * {@link mostCommonExitCode}.
 */
export class PartialFailureError extends MonError {
  constructor(
    message: string,
    hint: string | undefined,
    readonly exitCode: number,
  ) {
    super(message, hint);
  }
}

/**
 * The exit code of several failures of one command (the writes of a bulk mute): the code most of
 * them share, and of those equally common the one met first (README, Exit codes).
 */
export function mostCommonExitCode(codes: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  let chosen: number = EXIT.internal;
  let most = 0;
  for (const [code, n] of counts) {
    if (n > most) [chosen, most] = [code, n];
  }
  return chosen;
}
