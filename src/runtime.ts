import { configDir, sandboxCaCert } from './config/paths.js';
import { ensureConfigDir, forgetTrustedFolders } from './config/trust.js';
import { readProfiles, type ProfileReader } from './config/profiles.js';
import { RATE_LIMIT, sharedBudget } from './api/budget.js';
import { flushed } from './output/drain.js';
import { createWaitNotice, lineOptions } from './output/progress.js';
import { printRaw } from './output/raw.js';
import { startInProcessSandbox } from './sandbox-start.js';
import type { Command } from 'commander';
import { longRunsCut, terminalSafe } from './text/escape.js';
import { knownSecrets, scrub } from './api/secrets.js';
import type { ApiClient } from './api/client.js';
import type { HeldBy } from './time/deadline.js';
import type { Clock } from './clock.js';
import type { ProfileStore } from './config/store.js';
import type { JqEngine } from './output/jq-engine.js';
import type { Context, GlobalOptions, Io, Output, Target } from './context.js';
import { DryRun } from './dry-run.js';
import { COMMAND_LINE, targetOf, type TargetChoice } from './target.js';
import { VERSION } from './version.js';

/** What bin/mon (or a test) hands to main(). */
export interface MainDeps {
  io: Io;
  env: Record<string, string | undefined>;
  now?: () => number;
  /** Time for the client's deadline, its waits between retries and the rate budget; the system's unless a test moves it. */
  clock?: Clock;
  /** Aborted by SIGINT/SIGTERM in bin/mon; its reason names the signal. */
  signal?: AbortSignal;
  /**
   * bin/mon's side of Context.life.letFinish: `forced` is aborted by a second signal while `hold()`
   * is in force, and the process is not ended after the first signal's grace until released.
   */
  interrupts?: { forced: AbortSignal; hold(): () => void };
  /** Settles before the first request may be sent (--jq: the filter compiled); a rejection is the command's failure. */
  beforeSending?: Promise<void>;
  /** The --jq engine bin/mon started as the process began, for the filter its command line gave. */
  jqEngine?: JqEngine;
  /**
   * Called once a command of many requests has run the code of its work once (its client starts
   * its fifth request, src/api/client.ts): bin/mon writes its code cache then
   * (bin/load-bundle.cjs), not after a long run's hot loops.
   */
  warmedUp?: () => void;
  /**
   * bin/mon's last word on MON_DEADLINE: past `deadlineMs` and a grace, the process ends with 8,
   * `line` on stderr, whatever still holds it (a reader that stopped reading, so stdout never
   * drains and no wait of mon's own can end). The command's own deadline errors come first.
   * bin/mon asks `line` for the words when the time comes, saying what it sees holding the
   * process then (output not taken, a question on the terminal), so the words depend on that
   * state, not on which timer ran first. `source` says whether MON_DEADLINE was set or is the default.
   */
  endAtDeadline?: (deadlineMs: number, line: (heldBy?: HeldBy) => string, source: 'set' | 'default') => void;
  /** Context.delivery.delivered when stdout is --jq's filter (src/pipeline.ts): the filter's end, then stdout's flush. */
  delivered?: () => Promise<void>;
  /** Context.delivery.answerWhole: the verb pipeline (src/pipeline.ts) hears that --output-file may install the answer whatever the exit code. */
  answerWhole?: () => void;
  /** bin/mon's SIGHUP: `listener` runs on each one until the function returned is called. */
  onHangup?: (listener: () => void) => () => void;
}

/**
 * What a run learns and keeps for itself starts empty: the secrets it has seen and the folders
 * it has found trustworthy (config/trust.ts). A process runs main() once; tests run it many times.
 */
export function beginRun(): void {
  knownSecrets.clear();
  forgetTrustedFolders();
}

/** One account of a read that spans many: where its output and its footnotes go. */
export interface AccountRun {
  /** The profile this run reads. */
  profile: string;
  output: Output;
  /** The whole command's footnotes (printed once every account has finished). */
  footnote(message: string): void;
  /** When the command started (epoch ms): MON_DEADLINE counts from then for every account. */
  startedAt: number;
}

/** What one context is made of besides main()'s deps. */
export interface ContextParts {
  globals: GlobalOptions;
  /** Work to finish when the command ends (Context.life.onExit adds to it). */
  cleanups: (() => Promise<void> | void)[];
  program: Command;
  argv?: readonly string[];
  /** Whose account: the command line's unless given (src/target.ts, TargetChoice). */
  choice?: TargetChoice;
  /** Set for one account of many: its notices and footnotes then name the profile. */
  account?: AccountRun;
}

/** One account's answer, in the user's format (src/output/render.ts, loaded when first used). */
const IN_USER_FORMAT: Output = {
  list: async (opts) => (await import('./output/render.js')).createListRenderer(opts),
  object: async (obj, opts) => (await import('./output/render.js')).renderObject(obj, opts),
  count: async (total, opts) => {
    opts.out.write(`${total}\n`);
  },
  raw: async (data, opts) => printRaw(data, opts),
  answer: (value, view) => view.alone(value),
  addedKeys: [],
  progress: true,
  ownStdout: true,
};

/**
 * Builds the context of one command run (or of one account's run). The account is decided by
 * `parts.choice`, never by changing the globals afterwards. Nothing heavy is loaded until a
 * handler asks.
 */
export function createContext(deps: MainDeps, parts: ContextParts): Context {
  const { io, env } = deps;
  const { globals, cleanups, program, argv = [], choice = COMMAND_LINE, account } = parts;
  // Notices, footnotes and --verbose lines of one account of many name it.
  const named = (message: string) => (account ? `${account.profile}: ${message}` : message);
  const dir = configDir(env);
  const footnotes: string[] = [];
  const profiles = savedProfiles(dir, () => ctx.notice);
  let client: Promise<ApiClient> | undefined;
  let target: Promise<Target> | undefined;
  // --dry-run's one decision, showing through this context's client and notices.
  const dryRun = new DryRun(globals, { io, client: () => ctx.client(), notice: (message) => ctx.notice(message) });

  const ctx: Context = {
    io,
    dryRun,
    env,
    now: deps.now ?? Date.now,
    signal: deps.signal ?? new AbortController().signal,
    globals,
    output: account?.output ?? IN_USER_FORMAT,
    delivery: {
      delivered: async () => {
        if (deps.delivered) return deps.delivered();
        return flushed(io.stdout);
      },
      footnote: (message) => {
        if (account) account.footnote(named(message));
        else footnotes.push(message);
      },
      printFootnotes: () => {
        for (const message of footnotes.splice(0)) ctx.notice(message);
      },
      answerWhole: () => deps.answerWhole?.(),
    },
    life: {
      letFinish: () => {
        // In a test without bin/mon nothing holds the process: the request's own bounds remain.
        if (!deps.interrupts) return { inFlight: new AbortController().signal, release: () => undefined };
        return { inFlight: deps.interrupts.forced, release: deps.interrupts.hold() };
      },
      onExit: (cleanup) => {
        cleanups.push(cleanup);
      },
      onHangup: (listener) => deps.onHangup?.(listener) ?? (() => undefined),
    },
    argv,
    configDir: dir,
    program,
    // Messages may quote a server's names or the user's input: one line each, escaped.
    notice: (message) => {
      if (!globals.quiet) io.stderr.write(`${terminalSafe(longRunsCut(scrub(named(message), deps)))}\n`);
    },
    debug: (message) => {
      if (globals.verbose) io.stderr.write(`${terminalSafe(scrub(named(message), deps))}\n`);
    },
    forAccount: (profile) => freshContext(deps, { globals, program, argv, choice }, profile),
    profiles: profiles.reader,
    profileStore: profiles.store,
    target: () => (target ??= targetOf(choice, globals, env, ctx.profiles)),
    client: () =>
      (client ??= openClient(ctx, deps, {
        cleanups,
        startedAt: account?.startedAt,
        log: verboseLog(deps, globals, named),
      })),
  };
  return ctx;
}

/**
 * Context.forAccount: a context of its own, with its own cleanups, for the saved profile
 * `profile` alone (one account of many), or for the same account as `parts` (undefined).
 */
function freshContext(
  deps: MainDeps,
  parts: Omit<ContextParts, 'cleanups' | 'account'>,
  profile: string | undefined,
): { ctx: Context; close(): Promise<void> } {
  const own: (() => Promise<void> | void)[] = [];
  const accountParts: ContextParts =
    profile === undefined
      ? { ...parts, cleanups: own }
      : {
          ...parts,
          globals: { ...parts.globals, accounts: undefined },
          cleanups: own,
          choice: { savedProfile: profile },
        };
  return {
    ctx: createContext(deps, accountParts),
    close: async () => {
      for (const cleanup of own.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    },
  };
}

/**
 * The saved profiles, loaded on first use: conf for a command that changes them, else the file
 * read directly (conf answers once loaded). Every saved key is remembered as a secret, not only
 * the one in use: a message must not show another account's either.
 */
function savedProfiles(
  dir: string,
  notice: () => (message: string) => void,
): { reader(): Promise<ProfileReader>; store(): Promise<ProfileStore> } {
  let store: Promise<ProfileStore> | undefined;
  let reader: Promise<ProfileReader> | undefined;
  return {
    reader: () => {
      reader ??= (store ?? Promise.resolve().then(() => readProfiles(dir, notice()))).then((profiles) => {
        for (const profile of Object.values(profiles.list()))
          if (typeof profile.apiKey === 'string') knownSecrets.add(profile.apiKey);
        return profiles;
      });
      return reader;
    },
    store: () => {
      store ??= import('./config/store.js').then(({ ProfileStore }) => new ProfileStore(dir, notice()));
      return store;
    },
  };
}

/** --verbose: a function that writes one scrubbed line on stderr; without it, none. */
function verboseLog(
  deps: MainDeps,
  globals: GlobalOptions,
  named: (line: string) => string,
): ((line: string) => void) | undefined {
  return globals.verbose
    ? (line: string) => deps.io.stderr.write(`${terminalSafe(scrub(named(line), deps))}\n`)
    : undefined;
}

/**
 * The API client of a context's target: the endpoint it names (or the in-process sandbox,
 * started now), its budget and its deadline, closed with the command; the warnings about
 * settings that would weaken it said once it exists.
 */
async function openClient(
  ctx: Context,
  deps: MainDeps,
  run: { cleanups: (() => Promise<void> | void)[]; startedAt?: number; log?: (line: string) => void },
): Promise<ApiClient> {
  const { env } = deps;
  const { globals, configDir: dir } = ctx;
  const { endpoint } = await ctx.target();
  const reached = endpoint === 'sandbox' ? await startInProcessSandbox(ctx) : endpoint;
  knownSecrets.add(reached.apiKey);
  // The client's module holds undici: loaded with the first request, never at start-up.
  const [{ ApiClient, deadlineFromEnv, maxResponseFromEnv }] = await Promise.all([
    import('./api/client.js'),
    deps.beforeSending,
  ]);
  // The rate ledger is written there: a folder others control is refused (trust.ts).
  ensureConfigDir(dir, { optional: true });
  const { log } = run;
  // The budget's clock: its waits are dated by it (a test's moves only when it sleeps).
  const clock = deps.clock;
  ctx.rateWait = createWaitNotice(deps.io.stderr, clock ? () => clock.now() : Date.now, lineOptions(ctx), log);
  // The sandbox's local CA, trusted for a loopback https:// base only (client.ts): `--tls` needs nothing set.
  const loopbackCa = reached.baseUrl.startsWith('https://') ? sandboxCaCert(dir) : undefined;
  const made = new ApiClient({
    ...reached,
    ...(loopbackCa !== undefined && { loopbackCa }),
    timeoutMs: globals.timeoutMs,
    retries: globals.retries,
    deadlineMs: deadlineFromEnv(env),
    startedAt: run.startedAt,
    maxResponseBytes: maxResponseFromEnv(env),
    expand: globals.expand,
    signal: ctx.signal,
    env,
    userAgent: `mon/${VERSION}`,
    budget: sharedBudget(dir, reached.apiKey, env, deps.clock, log, (hold) => ctx.rateWait?.hold(hold)),
    clock: deps.clock,
    log,
    warmedUp: deps.warmedUp,
  });
  run.cleanups.push(() => made.close());
  await warnOfWeakSettings(ctx, made);
  return made;
}

/** Settings in the environment that would weaken or flood the client, each said once it exists. */
async function warnOfWeakSettings(ctx: Context, made: ApiClient): Promise<void> {
  const { env } = ctx;
  // bin/mon keeps Node from acting on it (and from its warning); the client verifies anyway.
  if (env.NODE_TLS_REJECT_UNAUTHORIZED === '0') {
    ctx.notice(
      'mon: warning: NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: mon always verifies certificates — to trust a private CA, point NODE_EXTRA_CA_CERTS at its certificate file',
    );
  }
  // A budget raised past the API's own (benchmarks, a sandbox) sent to the service itself.
  const limit = made.rateLimit;
  if (limit && limit.requests / limit.windowMs > RATE_LIMIT.requests / RATE_LIMIT.windowMs && !made.loopback) {
    ctx.notice(
      `mon: warning: MON_RATE_LIMIT=${env.MON_RATE_LIMIT} lets mon send more than the API's ${RATE_LIMIT.requests} requests a minute: expect 429 answers (exit 6)`,
    );
  }
  // Node's own debug lines for its HTTP client print each request's URL, key and all, and
  // are written by Node before mon could clean them (the switch is read as Node starts).
  if (/undici|fetch|\*/i.test(env.NODE_DEBUG ?? '')) {
    ctx.notice(
      `mon: warning: NODE_DEBUG=${env.NODE_DEBUG} makes Node print every request's URL on stderr with the API key in it — unset it, or use --verbose, which redacts the key`,
    );
  }
}
