/**
 * Typed errors. Each carries the exit code of the contract's table (cli-contract.md, "Exit
 * codes") and an optional hint that tells the user what to do next. `main()` is the only place
 * that turns them into an exit code and a line on stderr.
 */
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
  readonly exitCode = 2;
}

/** 401 or 403: exit 3. */
export class AuthError extends MonError {
  readonly exitCode = 3;
}

/** 404: exit 4. */
export class NotFoundError extends MonError {
  readonly exitCode = 4;
}

/** 400 or 422, the server rejected the request: exit 5. */
export class RejectedError extends MonError {
  readonly exitCode = 5;
}

/** 429 still returned after the retries: exit 6. */
export class RateLimitError extends MonError {
  readonly exitCode = 6;
}

/**
 * 5xx after the retries, a body that is not the JSON the API promises, or a partial read (a
 * list whose pages contradict the totals the server sent, src/api/paginate.ts): exit 7.
 */
export class ServerError extends MonError {
  readonly exitCode = 7;
}

/** Network, TLS or timeout failure: exit 8. */
export class NetworkError extends MonError {
  readonly exitCode = 8;
}

/**
 * With --profiles or --all-profiles: some accounts failed (each said why on its own line) and
 * the others' data was printed whole: exit 9.
 */
export class AccountsFailedError extends MonError {
  readonly exitCode = 9;
}

/**
 * The --jq filter failed on the data (`.[] | .a.b` over a string): exit 1, with jq's message,
 * after the data was read. Its syntax is checked before any request (a UsageError, exit 2).
 */
export class FilterError extends MonError {
  readonly exitCode = 1;
}

/**
 * A file mon keeps for itself cannot be used as it is: a saved --changes state that is damaged,
 * or held by another run past the wait. Exit 1: nothing the user typed was wrong, and the file
 * is left as it is for them to look at (the hint says how to start again).
 */
export class StateFileError extends MonError {
  readonly exitCode = 1;
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
    return this.signal === 'SIGTERM' ? 143 : 130;
  }

  /** The interrupt an aborted signal stands for: bin/mon aborts with the signal's name as reason. */
  static of(signal: AbortSignal | undefined, message?: string): InterruptedError {
    return new InterruptedError(signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT', message);
  }
}

/**
 * Some of many writes failed (`plugin mute --group …`): the others were done and printed. The
 * exit code is that of the failures' own errors (cli-contract.md, Exit codes), chosen by the
 * command (the most common one).
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
 * The command has printed its whole answer and ends with this exit code, which is not a
 * failure of the run: `status --check` exits 1 (WARNING) or 2 (CRITICAL) this way.
 */
export class ExitCode extends MonError {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/**
 * With --dry-run, a command that must look something up before it can build its request
 * (a group by name, a computer by uid) stops at the lookup: main() prints this request as
 * the one that would be sent first, and exits 0.
 */
export class DryRunStop extends Error {
  constructor(
    /** The client's PreparedRequest (not named here: errors.ts imports nothing). */
    readonly prepared: unknown,
    /** What the lookup is for: "--group 'Acme Design'". */
    readonly what: string,
  ) {
    super(`dry run: ${what} would be looked up first`);
  }
}
