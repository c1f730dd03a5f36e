import type { Command } from 'commander';
import type { OutputFormat, Sink } from './output/types.js';
import type { ApiClient } from './api/client.js';
import type { ProfileStore } from './config/store.js';

/** Streams a command may use. Tests hand in buffers; bin/mon hands in the process's own. */
export interface Io {
  stdout: Sink & { isTTY?: boolean };
  stderr: Sink & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Options of the root command, resolved against the environment (flag > env > default). */
export interface GlobalOptions {
  profile?: string;
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

/** Everything a handler may reach: no handler touches process.*, console.* or conf directly. */
export interface Context {
  io: Io;
  env: Record<string, string | undefined>;
  now: () => number;
  /** Aborted on Ctrl-C or SIGTERM; every request listens to it. */
  signal: AbortSignal;
  globals: GlobalOptions;
  /** The command line as given, without `mon` (what `mon changes list` shows). */
  argv: readonly string[];
  configDir: string;
  /** The command tree this command line was parsed with (the completion scripts are read from it). */
  program: Command;
  /** The API client for the chosen profile (or the in-process sandbox), made on first use. */
  client(): Promise<ApiClient>;
  /** The saved profiles, loaded on first use. */
  profiles(): Promise<ProfileStore>;
  /** A message for people on stderr; silent with --quiet. */
  notice(message: string): void;
  /**
   * A notice about the output as a whole ("showing 50 of 312"), printed once the output is
   * complete (after --jq's) and only when the command succeeds; silent with --quiet.
   */
  footnote(message: string): void;
  /** Prints the footnotes; main() calls it after the command's output has ended. */
  printFootnotes(): void;
  /** A line on stderr with --verbose only. */
  debug(message: string): void;
  /** Work to finish before main() returns (closing an in-process sandbox, sockets). */
  onExit(cleanup: () => Promise<void> | void): void;
}
