/**
 * `mon events listen` from start to end: checks what it was given before anything binds, reads
 * back --output-file's last ids, serves until --max-events, --for, Ctrl-C or SIGTERM, and says
 * on stderr what it received.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { flushed, drained } from '../output/drain.js';
import { eventLine } from '../output/event-line.js';
import { type Forwarder, forwarder } from '../api/forward.js';
import {
  checkExposure,
  type ListenAddress,
  listen,
  parseListen,
  readTls,
  serveUntil,
  type TlsFiles,
} from '../server/index.js';
import { ExecRunner } from './exec.js';
import { listOf, type EventFilter } from './filter.js';
import { Journal } from './journal.js';
import { Listener, type ListenerCounts, type ListenerOptions } from './listener.js';
import { RecentIds } from './seen.js';

export interface ListenOptions {
  listen: string;
  path: string;
  secret?: string;
  /** Where the secret came from, for the messages (the variable's name, never its value). */
  secretSource: string;
  tlsCert?: string;
  tlsKey?: string;
  insecure: boolean;
  filter: EventFilter;
  forwardTo?: string;
  exec?: string;
  execParallel: number;
  execTimeoutMs: number;
  outputFile?: string;
  maxEvents?: number;
  forMs?: number;
  /** A line for people (a terminal); JSON lines otherwise. */
  human?: { color: boolean };
}

/** `/events/s3cret?x` → `/events/…`: the path as logged when a secret is set. */
function hideSecret(path: string, base: string): string {
  const prefix = base === '/' ? '/' : `${base.replace(/\/+$/, '')}/`;
  const bare = path.split('?')[0]!;
  return bare === base || bare === prefix.slice(0, -1) ? bare : path.startsWith(prefix) ? `${prefix}…` : '…';
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The closing line: what was received and what became of it. */
export function summary(counts: ListenerCounts): string {
  const parts = [`${plural(counts.handled, 'event')} handled`];
  if (counts.duplicates > 0) parts.push(`${plural(counts.duplicates, 'duplicate')} answered`);
  if (counts.filtered > 0) parts.push(`${counts.filtered} filtered out`);
  if (counts.tests > 0)
    parts.push(counts.tests === 1 ? '1 test delivery answered' : `${counts.tests} test deliveries answered`);
  if (counts.failed > 0) parts.push(`${counts.failed} answered 503`);
  if (counts.refused > 0) parts.push(`${counts.refused} refused (path or secret)`);
  if (counts.execFailures > 0) parts.push(`--exec failed ${plural(counts.execFailures, 'time')}`);
  if (counts.forwardFailures > 0) parts.push(`--forward-to refused ${plural(counts.forwardFailures, 'time')}`);
  return parts.join(', ');
}

/** The filter as given, its lists split at commas. */
function filterOf(given: EventFilter): EventFilter {
  return {
    severity: listOf(given.severity),
    group: listOf(given.group),
    computer: listOf(given.computer),
    plugin: listOf(given.plugin),
    includeTests: given.includeTests,
  };
}

/** --output-file: its journal, opened for appending (its last ids read into `ids`); undefined without it. */
async function openJournal(ctx: Context, options: ListenOptions, ids: RecentIds): Promise<Journal | undefined> {
  if (options.outputFile === undefined) return undefined;
  return Journal.open(options.outputFile, ids, (message) => ctx.notice(message)).catch(
    (error: NodeJS.ErrnoException) => {
      throw new UsageError(`--output-file ${options.outputFile}: cannot append to it (${error.code ?? error.message})`);
    },
  );
}

/** --exec: the runner of the command, which never sees the secret; undefined without it. */
function execRunner(ctx: Context, options: ListenOptions): ExecRunner | undefined {
  if (options.exec === undefined) return undefined;
  return new ExecRunner({
    command: options.exec,
    parallel: options.execParallel,
    timeoutMs: options.execTimeoutMs,
    env: { ...ctx.env, MON_EVENTS_SECRET: undefined },
    output: (chunk) => ctx.io.stderr.write(chunk),
  });
}

/** How each event is printed: a line for people or JSON, acknowledged once stdout (or --jq) took it. */
function printer(ctx: Context, options: ListenOptions): ListenerOptions['print'] {
  const stdout = ctx.io.stdout;
  return async (delivery, line) => {
    const { understood } = delivery;
    stdout.write(
      `${options.human ? eventLine({ ...understood, raw: delivery.raw }, Date.parse(understood.received_at), options.human.color) : line}\n`,
    );
    // Acknowledged once handed to the system (stdout) or to --jq, which holds back the writer.
    if (ctx.globals.jq === undefined) await flushed(stdout);
    else await drained(stdout, ctx.signal);
  };
}

/** The path `Listening on` shows: the secret by the name of where it came from, never its value. */
function shownPath(options: ListenOptions): string {
  const base = options.path === '/' ? '' : options.path;
  if (options.secret !== undefined) return `${base}/$${options.secretSource}`;
  return options.path === '/' ? '/' : base;
}

/** Serves the listener on the address until --max-events, --for, Ctrl-C or SIGTERM. */
async function serveListener(
  ctx: Context,
  options: ListenOptions,
  listener: Listener,
  address: ListenAddress,
  tls: TlsFiles | undefined,
): Promise<void> {
  const server = await listen({
    address,
    tls,
    handle: (request) => listener.handle(request),
    // With a secret, what follows the path is the secret (or a guess at it): never logged.
    log: (line) =>
      ctx.debug(
        options.secret === undefined
          ? line
          : line.replace(
              /^(\S+ )(\S+)/,
              (_, method: string, path: string) => `${method}${hideSecret(path, options.path)}`,
            ),
      ),
    onError: (error) => ctx.notice(`a delivery failed: ${error instanceof Error ? error.message : String(error)}`),
    letFinish: () => ctx.life.letFinish(),
    announce: { stderr: ctx.io.stderr, shownPath: shownPath(options) },
  });
  const until: Promise<unknown>[] = [listener.done];
  let timer: NodeJS.Timeout | undefined;
  if (options.forMs !== undefined)
    until.push(new Promise<void>((resolve) => (timer = setTimeout(resolve, options.forMs))));
  try {
    await serveUntil(server, {
      signal: ctx.signal,
      until: Promise.race(until),
      summary: () => `stopped: ${summary(listener.counts)}`,
      stopping: (inFlight) =>
        ctx.notice(
          `Stopping: no new deliveries; finishing ${inFlight === 1 ? 'the one' : `the ${inFlight}`} in flight (again to cut ${inFlight === 1 ? 'it' : 'them'} off)`,
        ),
    });
  } finally {
    clearTimeout(timer);
  }
}

export async function listenForEvents(ctx: Context, options: ListenOptions): Promise<void> {
  const address = parseListen(options.listen);
  checkExposure({
    address,
    credential: options.secret !== undefined,
    credentialOptions: `a secret in ${options.secretSource}`,
    tls: options.tlsCert !== undefined,
    insecure: options.insecure,
  });
  const tls = await readTls(options.tlsCert, options.tlsKey);
  const filter = filterOf(options.filter);
  const ids = new RecentIds();
  const journal = await openJournal(ctx, options, ids);
  const cleanups: (() => Promise<void>)[] = [];
  if (journal) cleanups.push(() => journal.close());
  try {
    let forward: Forwarder | undefined;
    if (options.forwardTo !== undefined) {
      const opened = forwarder(options.forwardTo, ctx.globals.timeoutMs);
      cleanups.push(() => opened.close());
      forward = opened;
    }
    const listener = new Listener({
      path: options.path,
      secret: options.secret,
      filter,
      account: ctx.globals.profile,
      ids,
      journal,
      forward,
      exec: execRunner(ctx, options),
      maxEvents: options.maxEvents,
      now: ctx.now,
      notice: (message) => ctx.notice(message),
      print: printer(ctx, options),
    });
    await serveListener(ctx, options, listener, address, tls);
    ctx.notice(`Stopped: ${summary(listener.counts)}.`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
