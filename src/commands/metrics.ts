import { UsageError } from '../errors.js';
import { verb, type ResourceSpec } from '../spec/spec.js';
import { open } from 'node:fs/promises';
import { accountName } from '../target.js';
import type { Context } from '../context.js';
import type { Exporter } from '../fleet/exporter.js';
import type { Reply, ServerRequest } from '../server/serve.js';

const DEFAULT_LISTEN = '127.0.0.1:9860';
const DEFAULT_REFRESH_SEC = 300;
const MAX_REFRESH_SEC = 86_400;
/** A bearer token file: a line, not a document. */
const MAX_TOKEN_BYTES = 4096;

/** `mon metrics serve`: a Prometheus exporter that reads on its own schedule and serves from what it read. */
export const metrics: ResourceSpec = {
  name: 'metrics',
  summary: 'Serve the figures of status to Prometheus',
  examples: ['mon --all-profiles metrics serve', 'mon -p acme metrics serve --listen 127.0.0.1:9861 --refresh 10m'],
  verbs: [
    verb({
      name: 'serve',
      jsonOutput: false,
      isDefault: true,
      untilStopped: true,
      spansAccounts: true,
      reads: true,
      summary: 'A Prometheus exporter: /metrics, /probe?profile=NAME',
      description:
        "Reads each account (-p, --profiles, --all-profiles; the default profile otherwise) every --refresh, staggered, through the collection `mon status` uses, and answers scrapes from the last figures: a scrape never calls the API. /metrics has every account, /probe?profile=NAME one (Prometheus's multi-target pattern), /-/healthy answers 200 while it runs, /-/ready 200 once every account was read once. The Prometheus text format, or OpenMetrics when the scraper's Accept asks for it; the families of `mon help fleet`. A read that fails keeps the last figures and sets mon_up 0; mon_last_success_timestamp_seconds says how old they are (started while an account is down: when its last recorded read began). A read that succeeds records the account's day in mon's history as `mon status` does (mon history; MON_HISTORY=0 records none). A read of N requests waits N / 40 minutes at least before the next, so refreshes take at most a tenth of the account's 400 requests a minute. SIGHUP reads the profiles again (--profiles, --all-profiles); SIGTERM or Ctrl-C ends it once the scrapes in flight are answered. Loopback unless --listen says otherwise; another address needs --auth-token-file (the scraper sends it as a bearer token: authorization credentials_file) or --basic-auth-file (user:password; basic_auth) and --tls-cert/--tls-key or --insecure. No key, token or account URL is in a metric or a log line.",
      options: [
        {
          flags: '--listen <address>',
          description: 'address and port to serve on (host:port, [v6]:port, :port for 127.0.0.1)',
          defaultText: DEFAULT_LISTEN,
        },
        {
          flags: '--refresh <duration>',
          description: 'how often each account is read (1m to 24h)',
          rule: { type: 'duration' },
          defaultText: '5m',
        },
        {
          flags: '--auth-token-file <file>',
          description: 'a file holding the bearer token every request must present',
        },
        {
          flags: '--basic-auth-file <file>',
          description: 'a file holding user:password, for HTTP basic auth instead of a token',
        },
        { flags: '--tls-cert <file>', description: 'serve HTTPS with this certificate (PEM), with --tls-key' },
        { flags: '--tls-key <file>', description: 'the private key of --tls-cert (PEM)' },
        {
          flags: '--insecure',
          description: 'plain HTTP on an address other than loopback (still with --auth-token-file)',
        },
      ],
      examples: [
        'mon --all-profiles metrics serve',
        'mon --profiles acme,globex metrics serve --refresh 10m',
        'mon --all-profiles metrics serve --listen 0.0.0.0:9860 --auth-token-file /etc/mon/token --tls-cert /etc/mon/cert.pem --tls-key /etc/mon/key.pem',
      ],
      async run({ opts }, ctx) {
        // The server (node:http), the exporter and the history's recorder (both read the client's
        // module, undici, through fleet/): loaded by this command alone.
        const [
          { parseListen, checkExposure, readTls, listen, serveUntil, sameSecret },
          { Exporter, readAccount, MIN_REFRESH_SEC },
          { historyRecorder, lastRecordedRead },
        ] = await Promise.all([
          import('../server/index.js'),
          import('../fleet/exporter.js'),
          import('../history/record.js'),
        ]);
        const address = parseListen(opts.listen ?? DEFAULT_LISTEN);
        const refreshSec = checkedRefresh(opts.refresh ?? DEFAULT_REFRESH_SEC, MIN_REFRESH_SEC);
        const { token, basic } = await readCredentials(opts);
        checkExposure({
          address,
          credential: token !== undefined || basic !== undefined,
          credentialOptions: '--auth-token-file or --basic-auth-file',
          tls: opts.tlsCert !== undefined || opts.tlsKey !== undefined,
          insecure: opts.insecure === true,
        });
        const tls = await readTls(opts.tlsCert, opts.tlsKey);
        // The fan-out is read only across accounts (test/perf/startup.test.ts, #17).
        const { accountNames } = await import('../fleet/accounts.js');
        const spans = ctx.globals.accounts !== undefined;
        // Each account by its profile; one account by its name as `status -o openmetrics` labels it.
        const names = spans ? await accountNames(ctx) : [await accountName(ctx)];
        if (
          ctx.dryRun.changesNothing(
            `read ${names.join(', ')} every ${refreshSec} s and serve their metrics on ${address.host}:${address.port}`,
          )
        )
          return;

        const log = (line: string) => ctx.notice(`metrics serve: ${line}`);
        const exporter = new Exporter({
          refreshMs: refreshSec * 1000,
          now: ctx.now,
          log,
          // Each read of an account records its day, as `status` does (the last read of the day wins).
          read: (name) => readAccount(ctx, spans ? name : undefined, historyRecorder),
          // Started while an account is down: its figures' age is that of its last recorded read.
          lastRecorded: async (name) => {
            const { ctx: accountCtx, close } = ctx.forAccount(spans ? name : undefined);
            try {
              return await lastRecordedRead(accountCtx, {});
            } finally {
              await close();
            }
          },
        });
        const server = await listen({
          address,
          tls,
          methods: ['GET', 'HEAD'],
          maxBodyBytes: 0,
          log: (line) => ctx.debug(line),
          announce: { stderr: ctx.io.stderr, shownPath: '/metrics' },
          handle: metricsRoutes(exporter, { token, basic }, sameSecret),
        });
        exporter.setAccounts(names);
        // SIGHUP: the profiles again (a profile added to --all-profiles, one removed).
        const unhook = ctx.onHangup(() => {
          if (spans) void readAccountsAgain(ctx, exporter, log, accountNames);
        });
        try {
          await serveUntil(server, { signal: ctx.signal, summary: () => 'metrics serve stopped' });
        } finally {
          unhook();
          await exporter.stop();
        }
      },
    }),
  ],
};

/** --refresh between 1m and 24h. */
function checkedRefresh(refreshSec: number, minSec: number): number {
  if (refreshSec < minSec || refreshSec > MAX_REFRESH_SEC) {
    throw new UsageError(
      `--refresh: must be from 1m to 24h (got ${refreshSec} s)`,
      'each account is read once a refresh: 5m, the default, suits most',
    );
  }
  return refreshSec;
}

/** The scraper's credential: --auth-token-file's token or --basic-auth-file's user:password, at most one. */
async function readCredentials(opts: { authTokenFile?: string; basicAuthFile?: string }): Promise<Credentials> {
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
  return { token, basic };
}

/** What a scraper must send, if anything. */
interface Credentials {
  token?: string;
  basic?: string;
}

/** The exporter's paths: /metrics, /probe?profile=NAME, /-/healthy and /-/ready, behind the credential if one is set. */
function metricsRoutes(
  exporter: Exporter,
  { token, basic }: Credentials,
  sameSecret: (given: string | undefined, expected: string) => boolean,
): (request: ServerRequest) => Reply {
  return (request) => {
    if (token !== undefined && !sameSecret(credential(request.headers.authorization, 'Bearer'), token)) {
      return {
        status: 401,
        headers: { 'www-authenticate': 'Bearer realm="mon"', 'content-type': 'text/plain; charset=utf-8' },
        body: 'a bearer token is needed\n',
      };
    }
    if (basic !== undefined && !sameSecret(decoded(credential(request.headers.authorization, 'Basic')), basic)) {
      return {
        status: 401,
        headers: {
          'www-authenticate': 'Basic realm="mon", charset="UTF-8"',
          'content-type': 'text/plain; charset=utf-8',
        },
        body: 'a user and password are needed\n',
      };
    }
    const url = new URL(request.path, 'http://exporter');
    const plain = { 'content-type': 'text/plain; charset=utf-8' };
    switch (url.pathname) {
      case '/metrics':
        return exposition(request.headers.accept, exporter, undefined);
      case '/probe': {
        const profile = url.searchParams.get('profile');
        if (!profile) return { status: 400, headers: plain, body: 'give ?profile=NAME\n' };
        if (!exporter.has(profile))
          return {
            status: 404,
            headers: plain,
            body: `no account of that name is served; served: ${exporter.names().join(', ')}\n`,
          };
        return exposition(request.headers.accept, exporter, profile);
      }
      case '/-/healthy':
        return { status: 200, headers: plain, body: 'OK\n' };
      case '/-/ready':
        return exporter.ready()
          ? { status: 200, headers: plain, body: 'ready\n' }
          : { status: 503, headers: plain, body: 'not every account was read yet\n' };
      default:
        return {
          status: 404,
          headers: plain,
          body: 'not found: /metrics, /probe?profile=NAME, /-/healthy, /-/ready\n',
        };
    }
  };
}

/** SIGHUP across accounts: the saved profiles read again, and the exporter serves those. */
async function readAccountsAgain(
  ctx: Context,
  exporter: Exporter,
  log: (line: string) => void,
  accountNames: (ctx: Context) => Promise<string[]>,
): Promise<void> {
  const fresh = ctx.forAccount(undefined);
  try {
    const again = await accountNames(fresh.ctx);
    exporter.setAccounts(again);
    log(`profiles read again: ${again.join(', ')}`);
  } catch {
    log('profiles read again: they could not be read; serving the accounts as before');
  } finally {
    void fresh.close();
  }
}

/** The credential of `authorization: <scheme> <credential>`. */
function credential(header: string | undefined, scheme: 'Bearer' | 'Basic'): string | undefined {
  const match = new RegExp(`^${scheme}\\s+(\\S+)\\s*$`, 'i').exec(header ?? '');
  return match?.[1];
}

/** user:password of a basic credential. */
function decoded(base64: string | undefined): string | undefined {
  return base64 === undefined ? undefined : Buffer.from(base64, 'base64').toString('utf8');
}

/** The exposition the scraper asked for: OpenMetrics when its Accept names it, else the Prometheus text format. */
function exposition(accept: string | undefined, exporter: Exporter, only: string | undefined) {
  const openMetrics = /application\/openmetrics-text/i.test(accept ?? '');
  return {
    status: 200,
    headers: {
      'content-type': openMetrics
        ? 'application/openmetrics-text; version=1.0.0; charset=utf-8'
        : 'text/plain; version=0.0.4; charset=utf-8',
    },
    body: exporter.exposition(openMetrics ? 'openmetrics' : 'text', only),
  };
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
