import { UsageError } from './errors.js';
import { configDir, PROFILE_NAME, sandboxCaCert, sandboxStateError, sandboxStateFile } from './config/paths.js';
import { forgetTrustedFolders } from './config/trust.js';
import type { Command } from 'commander';
import { longRunsCut, quoted, terminalSafe } from './text/escape.js';
import { keyFlaw, MIN_SECRET, redact } from './api/redact.js';
import type { ApiClient } from './api/client.js';
import type { HeldBy } from './time/deadline.js';
import type { Clock } from './clock.js';
import type { ProfileReader } from './config/profiles.js';
import type { ProfileStore } from './config/store.js';
import type { JqEngine } from './output/jq-engine.js';
import type { Account, AccountList, AccountRunOutput, Context, GlobalOptions, Io, Output, Target } from './context.js';
import { OUTPUT_FORMATS, type OutputFormat } from './output/types.js';
import { parseChoice } from './validate/choice.js';
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
   * bin/mon's side of Context.letFinish: `forced` is aborted by a second signal while `hold()`
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
  /** Context.delivered when stdout is --jq's filter (main.ts): the filter's end, then stdout's flush. */
  delivered?: () => Promise<void>;
  /** Context.answerWhole: main.ts hears that --output-file may install the answer whatever the exit code. */
  answerWhole?: () => void;
  /** bin/mon's SIGHUP: `listener` runs on each one until the function returned is called. */
  onHangup?: (listener: () => void) => () => void;
}

/** Secrets seen during this run, so that even an unexpected error cannot print them. */
export const knownSecrets = new Set<string>();

/**
 * What a run learns and keeps for itself starts empty: the secrets it has seen and the folders
 * it has found trustworthy (config/trust.ts). A process runs main() once; tests run it many times.
 */
export function beginRun(): void {
  knownSecrets.clear();
  forgetTrustedFolders();
}

/**
 * No line on stderr may carry a key, nor any piece of one of 8 characters or more (redact.ts),
 * whatever raised it: every error line, notice and --verbose line goes through here.
 */
export function scrub(text: string, deps: Pick<MainDeps, 'env'>): string {
  const secrets = [...knownSecrets, deps.env.MON_API_KEY].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET);
  return secrets.reduce((out, secret) => redact(out, secret), redact(text));
}

/** The root options as commander parsed them. */
interface RawGlobals {
  profile?: string;
  profiles?: string;
  allProfiles?: boolean;
  parallel?: string;
  baseUrl?: string;
  sandbox?: boolean;
  output?: OutputFormat;
  json?: boolean;
  jq?: string;
  fields?: string;
  header?: boolean;
  expand?: string[];
  timeout?: string;
  retries?: string;
  dryRun?: boolean;
  yes?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
  outputFile?: string;
}

/** Flag > environment > default, for every global option (docs/design/cli-contract.md, Global options). */
export function resolveGlobals(raw: RawGlobals, env: Record<string, string | undefined>): GlobalOptions {
  const fields = raw.fields
    ?.split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (raw.fields !== undefined && fields?.length === 0) throw new UsageError('--fields: give at least one key, e.g. --fields uid,name');
  // An empty key would be sent as `expand[]=`, which asks for nothing the API knows.
  if (raw.expand?.some((key) => key.trim() === '')) throw new UsageError("--expand: give a key to expand (got '')", 'e.g. --expand group or --expand plugin_results');
  if (raw.output !== undefined) raw = { ...raw, output: parseChoice('-o/--output', raw.output, OUTPUT_FORMATS, 'e.g. -o json, or -o csv for a spreadsheet') };
  // Empty, it would quietly stand for no URL at all, and MON_BASE_URL or the profile's be used.
  if (raw.baseUrl !== undefined && raw.baseUrl.trim() === '') throw new UsageError("--base-url: give a URL (got '')", 'e.g. --base-url https://acme.monitoring.example.com');
  const accounts = accountList(raw, env);
  return {
    // A list of accounts names each profile itself: MON_PROFILE does not apply.
    profile: accounts ? undefined : (raw.profile ?? (env.MON_PROFILE || undefined)),
    accounts,
    parallel: parallel(raw.parallel, accounts),
    baseUrl: raw.baseUrl ?? (env.MON_BASE_URL || undefined),
    sandbox: raw.sandbox === true,
    output: outputFormat(raw),
    jq: raw.jq,
    fields,
    header: raw.header !== false,
    expand: raw.expand ?? [],
    timeoutMs: seconds(raw.timeout !== undefined ? ['--timeout', raw.timeout] : env.MON_TIMEOUT ? ['MON_TIMEOUT', env.MON_TIMEOUT] : undefined) ?? 30_000,
    retries: count(raw.retries !== undefined ? ['--retries', raw.retries] : env.MON_RETRIES ? ['MON_RETRIES', env.MON_RETRIES] : undefined) ?? 5,
    dryRun: raw.dryRun === true,
    yes: raw.yes === true,
    quiet: raw.quiet === true,
    verbose: raw.verbose === true,
    color: raw.color !== false,
    outputFile: raw.outputFile,
  };
}

/** The most accounts --parallel lets run at once; 4 unless asked. */
const MAX_PARALLEL = 16;
const DEFAULT_PARALLEL = 4;

/**
 * --profiles a,b / --all-profiles / MON_PROFILES (flag > environment): the accounts a read spans.
 * `-p` names one account and --base-url or --sandbox one server, so neither flag goes with a
 * list flag; each of them does beat MON_PROFILES, as every flag beats the environment.
 */
function accountList(raw: RawGlobals, env: Record<string, string | undefined>): AccountList | undefined {
  if (raw.profiles !== undefined && raw.allProfiles === true) throw new UsageError('--profiles and --all-profiles: give one of them', 'drop --profiles to read every saved profile, or --all-profiles to read those named');
  const flag = raw.allProfiles === true ? '--all-profiles' : raw.profiles !== undefined ? '--profiles' : undefined;
  if (flag && raw.profile !== undefined) throw new UsageError(`${flag}: names the accounts itself, so it does not go with -p/--profile`, `drop -p, or add its profile to the list: --profiles ${raw.profile},…`);
  const oneAccount = raw.profile !== undefined || raw.baseUrl !== undefined || raw.sandbox === true;
  const text = raw.profiles ?? (flag || oneAccount ? undefined : env.MON_PROFILES || undefined);
  if (raw.allProfiles !== true && text === undefined) return undefined;
  const label = flag ?? 'MON_PROFILES';
  if (raw.baseUrl !== undefined) throw new UsageError(`${label}: each account uses its profile's base URL, so it does not go with --base-url`, 'drop --base-url');
  if (raw.sandbox === true) throw new UsageError(`${label}: reads saved profiles, so it does not go with --sandbox`, 'drop --sandbox, or save the sandbox as a profile with `mon profile add`');
  if (raw.allProfiles === true) return { all: true, source: label };
  const names = [...new Set(text!.split(',').map((name) => name.trim()).filter(Boolean))];
  if (names.length === 0) throw new UsageError(`${label}: give at least one profile name (got ${quoted(text ?? '')})`, 'e.g. --profiles acme,northwind, or --all-profiles');
  return { all: false, names, source: label };
}

function parallel(text: string | undefined, accounts: AccountList | undefined): number {
  if (text === undefined) return DEFAULT_PARALLEL;
  if (!accounts) throw new UsageError('--parallel: how many accounts are read at once, so it needs --profiles or --all-profiles', 'add --profiles a,b or --all-profiles, or drop --parallel');
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > MAX_PARALLEL) throw new UsageError(`--parallel: must be a whole number from 1 to ${MAX_PARALLEL} (got ${quoted(text)})`, `e.g. --parallel ${DEFAULT_PARALLEL}`);
  return value;
}

/**
 * -o, or --json; with --jq and neither, json (the filter needs JSON). `raw.output` is undefined
 * when -o was not given (main() drops commander's default): --jq with -o table, csv or tsv is
 * refused, since the filter would have no JSON to read.
 */
function outputFormat(raw: RawGlobals): OutputFormat {
  const output = raw.json ? 'json' : (raw.output ?? (raw.jq !== undefined ? 'json' : 'table'));
  if (raw.jq !== undefined && output !== 'json' && output !== 'ndjson') {
    throw new UsageError(`--jq: filters JSON, so it takes -o json (the default with --jq) or -o ndjson, not -o ${output}`, 'drop -o, or use -o ndjson to filter item by item');
  }
  return output;
}

function seconds(given: [string, string] | undefined): number | undefined {
  if (!given) return undefined;
  const [label, text] = given;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || value <= 0 || value > 3600) {
    throw new UsageError(`${label}: must be a number of seconds above 0 and at most 3600 (got ${quoted(text)})`);
  }
  return Math.round(value * 1000);
}

function count(given: [string, string] | undefined): number | undefined {
  if (!given) return undefined;
  const [label, text] = given;
  if (!/^\d+$/.test(text.trim()) || Number(text) > 10) throw new UsageError(`${label}: must be a whole number from 0 to 10 (got ${quoted(text)})`);
  return Number(text);
}

/** One account of a read that spans many: where its output and its footnotes go. */
export interface AccountRun {
  output: AccountRunOutput;
  /** The whole command's footnotes (printed once every account has finished). */
  footnote(message: string): void;
  /** When the command started (epoch ms): MON_DEADLINE counts from then for every account. */
  startedAt: number;
}

/** One account's answer, in the user's format (src/output/render.ts, loaded when first used). */
const IN_USER_FORMAT: Output = {
  list: async (opts) => (await import('./output/render.js')).createListRenderer(opts),
  object: async (obj, opts) => (await import('./output/render.js')).renderObject(obj, opts),
};

/**
 * Builds the context of one command run (or of one account's run, when `account` is given: its
 * notices and footnotes then name the profile). Nothing heavy is loaded until a handler asks.
 */
export function createContext(
  deps: MainDeps,
  globals: GlobalOptions,
  cleanups: (() => Promise<void> | void)[],
  program: Command,
  argv: readonly string[] = [],
  account?: AccountRun,
): Context {
  const { io, env } = deps;
  // Notices, footnotes and --verbose lines of one account of many name it.
  const named = (message: string) => (account ? `${account.output.account.profile}: ${message}` : message);
  const dir = configDir(env);
  const signal = deps.signal ?? new AbortController().signal;
  let store: Promise<ProfileStore> | undefined;
  let reader: Promise<ProfileReader> | undefined;
  const footnotes: string[] = [];
  let client: Promise<ApiClient> | undefined;
  let target: Promise<Target> | undefined;

  const ctx: Context = {
    io,
    env,
    now: deps.now ?? Date.now,
    signal,
    globals,
    output: account?.output ?? IN_USER_FORMAT,
    argv,
    configDir: dir,
    program,
    // Messages may quote a server's names or the user's input: one line each, escaped.
    notice: (message) => {
      if (!globals.quiet) io.stderr.write(`${terminalSafe(longRunsCut(scrub(named(message), deps)))}\n`);
    },
    footnote: (message) => {
      if (account) account.footnote(named(message));
      else footnotes.push(message);
    },
    delivered: async () => {
      if (deps.delivered) return deps.delivered();
      const { flushed } = await import('./output/drain.js');
      return flushed(io.stdout);
    },
    printFootnotes: () => {
      for (const message of footnotes.splice(0)) ctx.notice(message);
    },
    debug: (message) => {
      if (globals.verbose) io.stderr.write(`${terminalSafe(scrub(named(message), deps))}\n`);
    },
    onExit: (cleanup) => {
      cleanups.push(cleanup);
    },
    answerWhole: () => deps.answerWhole?.(),
    onHangup: (listener) => deps.onHangup?.(listener) ?? (() => undefined),
    forAccount: (profile) => {
      const own: (() => Promise<void> | void)[] = [];
      const accountGlobals = profile === undefined ? globals : { ...globals, profile, baseUrl: undefined, accounts: undefined };
      return {
        ctx: createContext(deps, accountGlobals, own, program, argv),
        close: async () => {
          for (const cleanup of own.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
        },
      };
    },
    letFinish: () => {
      // In a test without bin/mon nothing holds the process: the request's own bounds remain.
      if (!deps.interrupts) return { inFlight: new AbortController().signal, release: () => undefined };
      return { inFlight: deps.interrupts.forced, release: deps.interrupts.hold() };
    },
    profiles: () => {
      // Once conf is loaded (a command that writes), it answers; else the file is read directly.
      // Every saved key, not only the one in use: a message must not show another account's either.
      reader ??= (store ?? import('./config/profiles.js').then(({ readProfiles }) => readProfiles(dir, ctx.notice))).then((profiles) => {
        for (const profile of Object.values(profiles.list())) if (typeof profile.apiKey === 'string') knownSecrets.add(profile.apiKey);
        return profiles;
      });
      return reader;
    },
    profileStore: () => {
      store ??= import('./config/store.js').then(({ ProfileStore }) => new ProfileStore(dir, ctx.notice));
      return store;
    },
    // One account of many is its saved profile alone: MON_API_KEY names the single account's key.
    target: () => (target ??= chooseTarget(globals, account ? {} : env, ctx.profiles)),
    client: () => {
      client ??= (async () => {
        const { endpoint } = await ctx.target();
        const reached = endpoint === 'sandbox' ? await startInProcessSandbox(ctx) : endpoint;
        knownSecrets.add(reached.apiKey);
        const [{ ApiClient, deadlineFromEnv, maxResponseFromEnv }, { RATE_LIMIT, sharedBudget }, { ensureConfigDir }, { createWaitNotice }] = await Promise.all([
          import('./api/client.js'),
          import('./api/budget.js'),
          import('./config/trust.js'),
          import('./output/progress.js'),
          deps.beforeSending,
        ]);
        // The rate ledger is written there: a folder others control is refused (trust.ts).
        ensureConfigDir(dir, { optional: true });
        const log = globals.verbose ? (line: string) => io.stderr.write(`${terminalSafe(scrub(named(line), deps))}\n`) : undefined;
        // The budget's clock: its waits are dated by it (a test's moves only when it sleeps).
        const clock = deps.clock;
        ctx.rateWait = createWaitNotice(io.stderr, clock ? () => clock.now() : Date.now, globals.quiet, log);
        // The sandbox's local CA, trusted for a loopback https:// base only (client.ts): `--tls` needs nothing set.
        const loopbackCa = reached.baseUrl.startsWith('https://') ? sandboxCaCert(dir) : undefined;
        const made = new ApiClient({
          ...reached,
          ...(loopbackCa !== undefined && { loopbackCa }),
          timeoutMs: globals.timeoutMs,
          retries: globals.retries,
          deadlineMs: deadlineFromEnv(env),
          startedAt: account?.startedAt,
          maxResponseBytes: maxResponseFromEnv(env),
          expand: globals.expand,
          signal,
          env,
          userAgent: `mon/${VERSION}`,
          budget: sharedBudget(dir, reached.apiKey, env, deps.clock, log, (hold) => ctx.rateWait?.hold(hold)),
          clock: deps.clock,
          log,
          warmedUp: deps.warmedUp,
        });
        cleanups.push(() => made.close());
        // bin/mon keeps Node from acting on it (and from its warning); the client verifies anyway.
        if (env.NODE_TLS_REJECT_UNAUTHORIZED === '0') {
          ctx.notice('mon: warning: NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: mon always verifies certificates — to trust a private CA, point NODE_EXTRA_CA_CERTS at its certificate file');
        }
        // Node's own debug lines for its HTTP client print each request's URL, key and all, and
        // are written by Node before mon could clean them (the switch is read as Node starts).
        // A budget raised past the API's own (benchmarks, a sandbox) sent to the service itself.
        const limit = made.rateLimit;
        if (limit && limit.requests / limit.windowMs > RATE_LIMIT.requests / RATE_LIMIT.windowMs && !made.loopback) {
          ctx.notice(`mon: warning: MON_RATE_LIMIT=${env.MON_RATE_LIMIT} lets mon send more than the API's ${RATE_LIMIT.requests} requests a minute: expect 429 answers (exit 6)`);
        }
        if (/undici|fetch|\*/i.test(env.NODE_DEBUG ?? '')) {
          ctx.notice(`mon: warning: NODE_DEBUG=${env.NODE_DEBUG} makes Node print every request's URL on stderr with the API key in it — unset it, or use --verbose, which redacts the key`);
        }
        return made;
      })();
      return client;
    },
  };
  return ctx;
}

/**
 * The account as a report or a metric names it: the profile's name (across accounts too), or
 * the base URL's host (`sandbox` for --sandbox).
 */
export async function accountName(ctx: Context): Promise<string> {
  return (await ctx.target()).account.key.replace(/^@/, '');
}

const NO_ACCOUNT_HINT = 'run `mon profile add <name> --subdomain <subdomain> --domain <service-domain>`, or try `mon --sandbox …`';

/**
 * The one choice of account and endpoint: --sandbox, else a base URL (flag or MON_BASE_URL) with
 * MON_API_KEY and no profile, else the profile in effect (--profile, MON_PROFILE, the default),
 * whose base URL and key the flag and the environment may override. The saved profiles are read
 * only when the environment does not already say everything (cron jobs often set both).
 */
export async function chooseTarget(globals: GlobalOptions, env: Record<string, string | undefined>, profiles: () => Promise<ProfileReader>): Promise<Target> {
  if (globals.sandbox) return { account: { key: '@sandbox', label: '--sandbox' }, endpoint: 'sandbox' };
  const envKey = env.MON_API_KEY || undefined;
  const flaw = envKey === undefined ? undefined : keyFlaw(envKey);
  if (flaw) throw new UsageError(`MON_API_KEY ${flaw}`, 'set it to the key alone, e.g. MON_API_KEY="$(cat key-file)"');
  const urlSource = env.MON_BASE_URL && globals.baseUrl === env.MON_BASE_URL ? 'MON_BASE_URL' : '--base-url';
  if (globals.baseUrl && envKey && !globals.profile) {
    return { account: accountOfUrl(globals.baseUrl), endpoint: { baseUrl: globals.baseUrl, baseUrlSource: urlSource, apiKey: envKey } };
  }
  const store = await profiles();
  const name = globals.profile ?? store.defaultName;
  const profile = name === undefined ? undefined : store.get(name);
  if (name !== undefined && !profile && globals.profile !== undefined) {
    const known = Object.keys(store.list());
    throw new UsageError(
      `no profile named ${quoted(name)}${known.length ? ` (saved: ${known.join(', ')})` : ''}`,
      `add it with \`mon profile add ${name} --subdomain <subdomain> --domain <service-domain>\``,
    );
  }
  // A default that names a profile no longer saved (config.json edited by hand) is said as such.
  if (name !== undefined && !profile && !globals.baseUrl && !envKey) {
    const known = Object.keys(store.list());
    throw new UsageError(`the default profile ${quoted(name)} is not saved${known.length ? ` (saved: ${known.join(', ')})` : ''}`, known.length ? 'choose one with `mon profile use <name>`' : NO_ACCOUNT_HINT);
  }
  const baseUrl = globals.baseUrl ?? profile?.baseUrl;
  const apiKey = envKey ?? profile?.apiKey;
  const saved = Object.keys(store.list());
  if (!baseUrl && !apiKey && saved.length > 0) {
    throw new UsageError(`no default profile, and none given (saved: ${saved.join(', ')})`, 'give one with -p <name>, or make one the default with `mon profile use <name>`');
  }
  if (!baseUrl || !apiKey) {
    throw new UsageError(!baseUrl && !apiKey ? 'no profile: nothing says which account to use' : !apiKey ? 'no API key: set MON_API_KEY or save a profile' : 'no base URL: set MON_BASE_URL or save a profile', NO_ACCOUNT_HINT);
  }
  // Saved profiles are named by PROFILE_NAME, which no account of a base URL starts like ('@').
  // A profile with --base-url pointing elsewhere is another account: its own Tab names, states.
  const account = profile && PROFILE_NAME.test(name!) && baseUrl === profile.baseUrl ? { key: name!, label: name! } : accountOfUrl(baseUrl);
  return { account, endpoint: { baseUrl, baseUrlSource: globals.baseUrl ? urlSource : `profile ${name}`, apiKey } };
}

/** A base URL given without a profile, as an account: `@<host>`, safe as a file name. */
function accountOfUrl(baseUrl: string): Account {
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    // refused as a base URL before anything is sent; the text itself still names the account
  }
  return { key: `@${host.replace(/[^\w.-]/g, '_')}`, label: baseUrl };
}

/** --sandbox: the sandbox in this process, on its own state file, closed when the command ends. */
async function startInProcessSandbox(ctx: Context): Promise<{ baseUrl: string; baseUrlSource: string; apiKey: string }> {
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({ stateFile: sandboxStateFile(ctx.configDir) }).catch((error: Error) => {
    // A corrupt state file: the sandbox's message names it and the way out.
    throw sandboxStateError(error, ctx.configDir) ?? new UsageError(error.message.split('\n')[0] ?? 'the sandbox could not start');
  });
  ctx.onExit(() => sandbox.close());
  return { baseUrl: sandbox.url, baseUrlSource: 'sandbox', apiKey: sandbox.apiKey };
}
