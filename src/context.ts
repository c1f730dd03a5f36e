import type { Command } from 'commander';
import type { ListRenderer, OutputFormat, RawOptions, RenderOptions, Sink } from './output/types.js';
import type { ApiClient } from './api/client.js';
import type { ProfileReader } from './config/profiles.js';
import type { ProfileStore } from './config/store.js';
import type { WaitNotice } from './output/progress.js';
import type { DryRun } from './dry-run.js';

/** Streams a command may use. Tests hand in buffers; bin/mon hands in the process's own. */
export interface Io {
  stdout: Sink & { isTTY?: boolean };
  stderr: Sink & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Options of the root command, resolved against the environment (flag > env > default). */
export interface GlobalOptions {
  profile?: string;
  /** `--profiles`, `--all-profiles` or MON_PROFILES: the accounts a read spans (src/fleet/accounts.ts). */
  accounts?: AccountList;
  /** `--parallel N`: how many of those accounts are read at once (1..16, default 4). */
  parallel: number;
  baseUrl?: string;
  sandbox: boolean;
  output: OutputFormat;
  /** `--jq EXPR`: the jq filter that JSON output goes through (src/output/jq.ts). */
  jq?: string;
  fields?: string[];
  header: boolean;
  expand: string[];
  timeoutMs: number;
  retries: number;
  dryRun: boolean;
  yes: boolean;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  /** `--output-file PATH`: stdout goes to PATH, replaced once the answer is whole (src/output/output-file.ts). */
  outputFile?: string;
}

/** The accounts of `--profiles a,b` (in that order) or of `--all-profiles` (as `profile list` shows them). */
export type AccountList = { all: true; source: string } | { all: false; names: string[]; source: string };

/**
 * Where a command's answer goes (Context.output). For one account: the renderers of the user's
 * format (src/output/render.ts). For one account of many: the fan-out's (src/fleet/accounts.ts),
 * which adds the `profile` key or column and keeps later accounts until their turn; neither the
 * renderers nor the verbs need to know which.
 */
export interface Output {
  /** The renderer of a list. */
  list(opts: RenderOptions): Promise<ListRenderer>;
  /** One object (get, create, update; a figure): across accounts, one item of the one list. */
  object(obj: Record<string, unknown>, opts: RenderOptions): Promise<void>;
  /** --count: the number alone on `opts.out`; across accounts, one row per account (PROFILE and COUNT) in the format asked for. */
  count(total: number, opts: RenderOptions): Promise<void>;
  /** A decoded answer as received (`mon api`): JSON, or a line per item; across accounts each item gains its profile. */
  raw(data: unknown, opts: RawOptions): Promise<void>;
  /**
   * An answer the verb draws whole itself (`status`: a report with bars, a Nagios line, metrics):
   * shown now by `view.alone`, whose exit code it returns; across accounts, held, and once every
   * account has finished shown with the others' by `view.together` (undefined now).
   */
  answer<T>(value: T, view: AnswerView<T>): Promise<number | void>;
  /** Keys every item gains on the way out (across accounts, `profile`): --fields may name them. */
  readonly addedKeys: readonly string[];
  /** Whether a progress line on stderr may accompany it (not for one account of many: several would overwrite each other). */
  readonly progress: boolean;
  /**
   * Whether the command may write on stdout beside what it hands over here (a response's head,
   * an HTML page): not for one account of many, whose stdout every account's answer shares.
   */
  readonly ownStdout: boolean;
}

/** How a verb draws an answer it hands to Output.answer: alone, or with the other accounts'. */
export interface AnswerView<T> {
  /** The answer alone, on the context that made it; returns the exit code it carries. */
  alone(value: T): Promise<number | void>;
  /**
   * Every account's, once all have finished, on the command's own context `ctx` (each account's
   * value as handed over, or its error); returns the command's exit code, or undefined to let
   * the failed accounts decide it.
   */
  together(outcomes: readonly AccountOutcome<T>[], ctx: Context): Promise<number | void>;
}

/** How one account's run ended, for a verb that shows the accounts together (AnswerView.together). */
export interface AccountOutcome<T = unknown> {
  profile: string;
  /** What the run handed to Output.answer. */
  held?: T;
  /** Why the run failed (its line is already on stderr). */
  error?: unknown;
}

/**
 * The account a command works on, as mon keeps local state for it (--changes): a saved
 * profile, the in-process sandbox, or a base URL given with MON_API_KEY and no profile.
 */
export interface Account {
  /** Safe as a file name, and never a key: the profile's name, `@sandbox`, or `@<host>` of the base URL. */
  key: string;
  /** As people name it: the profile's name, `--sandbox`, or the base URL. */
  label: string;
}

/**
 * The account a command works on and where its requests go, decided once per run
 * (Context.target): the account names its local state (--changes, the completion cache, a
 * report's title); the endpoint is the in-process sandbox, started by the client, or a base
 * URL and key, each with where it came from.
 */
export interface Target {
  account: Account;
  endpoint: 'sandbox' | { baseUrl: string; baseUrlSource: string; apiKey: string };
}

/** The run's life around a command: what a signal lets finish, what runs at the end, SIGHUP. */
export interface RunLife {
  /**
   * For writes that must be let finish after Ctrl-C or SIGTERM (a bulk mute's PUTs in flight):
   * until `release`, the first signal aborts `signal` only, and bin/mon waits instead of ending
   * the process after its short grace; `inFlight` is aborted by a second signal. Sent with
   * `inFlight`, a request is bounded by it, its --timeout and MON_DEADLINE.
   */
  letFinish(): { inFlight: AbortSignal; release(): void };
  /** Work to finish before main() returns (closing an in-process sandbox, sockets). */
  onExit(cleanup: () => Promise<void> | void): void;
  /** Runs `listener` on each SIGHUP (a server re-reading its configuration) until the function returned is called. */
  onHangup(listener: () => void): () => void;
}

/** How the command's answer reaches its reader, beyond the output itself. */
export interface Delivery {
  /**
   * Resolves once what the command printed has reached its reader: --jq's filter run to its end,
   * stdout flushed; rejects with why not (the filter's error, a full disk). What a command saves
   * after printing (the state of --changes) waits for it, so that a run whose output was lost
   * saves nothing.
   */
  delivered(): Promise<void>;
  /**
   * A notice about the output as a whole ("showing 50 of 312"), printed once the output is
   * complete (after --jq's) and only when the command succeeds; silent with --quiet.
   */
  footnote(message: string): void;
  /** Prints the footnotes; the pipeline calls it once the command's output has ended. */
  printFootnotes(): void;
  /**
   * Says that what the command printed is its whole answer even though it then fails
   * (`status -o openmetrics`: an account that failed is in it as mon_up 0), so --output-file
   * installs it whatever the exit code.
   */
  answerWhole(): void;
}

/** Everything a handler may reach: no handler touches process.*, console.* or conf directly. */
export interface Context {
  io: Io;
  env: Record<string, string | undefined>;
  now: () => number;
  /** Aborted on Ctrl-C or SIGTERM; every request listens to it. */
  signal: AbortSignal;
  /** Let finish, clean up at the end, SIGHUP. */
  life: RunLife;
  globals: GlobalOptions;
  /** --dry-run, decided once: what is sent or changed asks it first (src/dry-run.ts). */
  dryRun: DryRun;
  /** Where the answer goes: rendered in the user's format, or across accounts merged with the others'. */
  output: Output;
  /** Its delivery, footnotes and wholeness. */
  delivery: Delivery;
  /** The command line as given, without `mon` (what `mon changes list` shows). */
  argv: readonly string[];
  configDir: string;
  /** The command tree this command line was parsed with (the completion scripts are read from it). */
  program: Command;
  /** Says the rate budget's long waits (on progress lines, or a line of its own); set with the client. */
  rateWait?: WaitNotice;
  /** Which account and where requests go, decided on first use (src/target.ts). */
  target(): Promise<Target>;
  /** The API client for the chosen profile (or the in-process sandbox), made on first use. */
  client(): Promise<ApiClient>;
  /** The saved profiles as a command that only reads them needs them, read on first use. */
  profiles(): Promise<ProfileReader>;
  /** The saved profiles for a command that changes them (conf), loaded on first use. */
  profileStore(): Promise<ProfileStore>;
  /** A message for people on stderr; silent with --quiet. */
  notice(message: string): void;
  /** A line on stderr with --verbose only. */
  debug(message: string): void;
  /**
   * A context of its own for the account `profile` (or, undefined, this command line's own
   * account), as fresh as a new command's: its client, its deadline, its cleanups, which
   * `close()` runs. A long-running command (`metrics serve`) takes one per read.
   */
  forAccount(profile: string | undefined): { ctx: Context; close(): Promise<void> };
}
