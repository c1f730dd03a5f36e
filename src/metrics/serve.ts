/**
 * `mon metrics serve` once its command line is read (commands/metrics.ts declares it and
 * decides a dry run): what it was given checked before anything binds, then each account read
 * on its schedule and the scrapes answered from the last figures until SIGTERM or Ctrl-C.
 */
import { open } from 'node:fs/promises';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { accountNames } from '../fleet/accounts.js';
import { Exporter, MIN_REFRESH_SEC, readAccount } from '../fleet/exporter.js';
import { historyRecorder, lastRecordedRead } from '../history/record.js';
import {
  checkExposure,
  type ListenAddress,
  listen,
  parseListen,
  readTls,
  serveUntil,
  type TlsFiles,
} from '../server/index.js';
import { accountName } from '../target.js';
import { type Credentials, scrapeHandler } from './scrape.js';

const DEFAULT_REFRESH_SEC = 300;
const MAX_REFRESH_SEC = 86_400;
/** A bearer token file: a line, not a document. */
const MAX_TOKEN_BYTES = 4096;

/** The options of `metrics serve` as parsed. */
export interface MetricsOptions {
  /** the command's default applied */
  listen: string;
  refresh?: number;
  authTokenFile?: string;
  basicAuthFile?: string;
  tlsCert?: string;
  tlsKey?: string;
  insecure?: boolean;
}

/** What `metrics serve` will do, checked: where, how often, for which accounts, with which credential. */
export interface MetricsPlan {
  address: ListenAddress;
  refreshSec: number;
  credentials: Credentials;
  tls: TlsFiles | undefined;
  /** Whether it reads several accounts (-p NAME,... --profiles, --all-profiles). */
  spans: boolean;
  names: string[];
}

/** --auth-token-file, --basic-auth-file: one line, the secret; never quoted back. */
async function readToken(option: string, path: string): Promise<string> {
  let text: string;
  try {
    const file = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(MAX_TOKEN_BYTES + 1);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_TOKEN_BYTES)
        throw new UsageError(
          `${option}: ${path} is longer than 4 KiB, the most it may be`,
          'put the secret alone in the file',
        );
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${option}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'give a file that holds the secret alone',
    );
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token))
    throw new UsageError(
      `${option}: ${path} must hold one line without spaces (it is ${token === '' ? 'empty' : 'more than one word'})`,
      'e.g. openssl rand -hex 32 > token',
    );
  return token;
}

/** --auth-token-file or --basic-auth-file (not both), read and checked. */
async function readCredentials(opts: MetricsOptions): Promise<Credentials> {
  if (opts.authTokenFile !== undefined && opts.basicAuthFile !== undefined)
    throw new UsageError(
      '--auth-token-file and --basic-auth-file: give one of them',
      'Prometheus sends either a bearer token (authorization) or basic_auth',
    );
  const token = opts.authTokenFile === undefined ? undefined : await readToken('--auth-token-file', opts.authTokenFile);
  const basic = opts.basicAuthFile === undefined ? undefined : await readToken('--basic-auth-file', opts.basicAuthFile);
  if (basic !== undefined && !/^[^:]+:.+$/.test(basic))
    throw new UsageError(
      `--basic-auth-file: ${opts.basicAuthFile} must hold user:password on one line`,
      'e.g. printf "prometheus:%s" "$(openssl rand -hex 16)" > basic-auth',
    );
  return { ...(token !== undefined && { token }), ...(basic !== undefined && { basic }) };
}

/** Checks what `metrics serve` was given and reads the accounts' names: everything before a dry run stops it. */
export async function planMetrics(ctx: Context, opts: MetricsOptions): Promise<MetricsPlan> {
  const address = parseListen(opts.listen);
  const refreshSec = opts.refresh ?? DEFAULT_REFRESH_SEC;
  if (refreshSec < MIN_REFRESH_SEC || refreshSec > MAX_REFRESH_SEC) {
    throw new UsageError(
      `--refresh: must be from 1m to 24h (got ${refreshSec} s)`,
      'each account is read once a refresh: 5m, the default, suits most',
    );
  }
  const credentials = await readCredentials(opts);
  checkExposure({
    address,
    credential: credentials.token !== undefined || credentials.basic !== undefined,
    credentialOptions: '--auth-token-file or --basic-auth-file',
    tls: opts.tlsCert !== undefined || opts.tlsKey !== undefined,
    insecure: opts.insecure === true,
  });
  const tls = await readTls(opts.tlsCert, opts.tlsKey);
  const spans = ctx.globals.accounts !== undefined;
  // Each account by its profile; one account by its name as `status -o openmetrics` labels it.
  const names = spans ? await accountNames(ctx) : [await accountName(ctx)];
  return { address, refreshSec, credentials, tls, spans, names };
}

/** The exporter: each account read every refresh through `status`'s collection, its day recorded in the history. */
function exporterOf(ctx: Context, plan: MetricsPlan, log: (line: string) => void): Exporter {
  const account = (name: string): string | undefined => (plan.spans ? name : undefined);
  return new Exporter({
    refreshMs: plan.refreshSec * 1000,
    now: ctx.now,
    log,
    // Each read of an account records its day, as `status` does (the last read of the day wins).
    read: (name) => readAccount(ctx, account(name), historyRecorder),
    // Started while an account is down: its figures' age is that of its last recorded read.
    lastRecorded: async (name) => {
      const { ctx: accountCtx, close } = ctx.forAccount(account(name));
      try {
        return await lastRecordedRead(accountCtx, {});
      } finally {
        await close();
      }
    },
  });
}

/** SIGHUP: the profiles again (a profile added to --all-profiles, one removed). Returns the unhook. */
function rereadOnHangup(ctx: Context, plan: MetricsPlan, exporter: Exporter, log: (line: string) => void): () => void {
  return ctx.life.onHangup(() => {
    if (!plan.spans) return;
    const fresh = ctx.forAccount(undefined);
    accountNames(fresh.ctx)
      .then((again) => {
        exporter.setAccounts(again);
        log(`profiles read again: ${again.join(', ')}`);
      })
      .catch(() => log('profiles read again: they could not be read; serving the accounts as before'))
      .finally(() => void fresh.close());
  });
}

/** Serves the plan's accounts until SIGTERM or Ctrl-C, once the scrapes in flight are answered. */
export async function serveMetrics(ctx: Context, plan: MetricsPlan): Promise<void> {
  const log = (line: string) => ctx.notice(`metrics serve: ${line}`);
  const exporter = exporterOf(ctx, plan, log);
  const server = await listen({
    address: plan.address,
    tls: plan.tls,
    methods: ['GET', 'HEAD'],
    maxBodyBytes: 0,
    log: (line) => ctx.debug(line),
    announce: { stderr: ctx.io.stderr, shownPath: '/metrics' },
    handle: scrapeHandler(exporter, plan.credentials),
  });
  exporter.setAccounts(plan.names);
  const unhook = rereadOnHangup(ctx, plan, exporter, log);
  try {
    await serveUntil(server, { signal: ctx.signal, summary: () => 'metrics serve stopped' });
  } finally {
    unhook();
    await exporter.stop();
  }
}
