/**
 * The sandbox: the whole v2.5 API served on loopback from seeded demo data. It is the
 * embedded default of `mon` and the server the project's tests talk to over real HTTP.
 *
 * It deliberately shares no code with src/api/: a wrong path or parameter in the client must
 * fail against this server instead of being mirrored by it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP } from 'node:net';
import {
  ApiError,
  invalidParameter,
  many,
  one,
  parseJsonParams,
  parseMultipartParams,
  parseParams,
  readBody,
  sendJson,
  type Params,
} from './http.js';
import { LiveFleet, STEP_SECONDS, type Transition } from './live.js';
import { OTHER_ACCOUNT, PRIMARY_ACCOUNT, type AccountId, type ComputerRec, type PluginStatus } from './model.js';
import { parseExpand, type RenderCtx } from './render.js';
import { RateLimiter } from './rate-limit.js';
import { Router, type Reply, type RequestContext, type SandboxSettings } from './router.js';
import { catalogRoutes } from './routes/catalog.js';
import { computerRoutes } from './routes/computers.js';
import { expirationRoutes } from './routes/expirations.js';
import { groupRoutes } from './routes/groups.js';
import { noteRoutes } from './routes/notes.js';
import { pluginResultRoutes } from './routes/plugin-results.js';
import { userRoutes } from './routes/users.js';
import { withStateLock } from './state-file.js';
import { Store } from './store.js';
import {
  connectionTestEvent,
  DEFAULT_RETRY,
  testEvent,
  transitionEvent,
  WebhookSender,
  type Delivery,
  type RetryPolicy,
} from './webhooks.js';

/** Key of the primary demo subscriber. */
export const SANDBOX_API_KEY = 'sbx_live_demo_4f6c2a9e1b7d';
/** Key of a second subscriber: its items are 403 for SANDBOX_API_KEY and the other way round. */
export const SANDBOX_OTHER_API_KEY = 'sbx_live_other_8d3e5b0c7a21';

const KEYS: ReadonlyMap<string, AccountId> = new Map([
  [SANDBOX_API_KEY, PRIMARY_ACCOUNT],
  [SANDBOX_OTHER_API_KEY, OTHER_ACCOUNT],
]);

/** The largest legal value is a 16 MiB note body; leave room for form encoding. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface SandboxOptions {
  /** default '127.0.0.1'; anything that is not loopback is refused */
  host?: string;
  /** default 0 (ephemeral) */
  port?: number;
  /**
   * Load the state from this JSON file when it exists (else seed and save it); save after
   * every mutation with an atomic write. A corrupt file throws an Error naming the file and
   * `mon sandbox reset`. An explicit `seed` or `computers` that differs from the saved state
   * re-seeds (reported through onNotice).
   */
  stateFile?: string;
  /** PRNG seed, default 1 */
  seed?: number;
  /**
   * The primary subscriber's key, default SANDBOX_API_KEY: sandboxes given keys of their own
   * stand for separate accounts (`--profiles` is tested and benchmarked that way).
   */
  apiKey?: string;
  /** how many computers to seed for the primary subscriber, default 40 */
  computers?: number;
  /** default 400 requests per 60 000 ms, per key (api-v2.5, Limits) */
  rateLimit?: { requests: number; windowMs: number };
  /** default true; false: ticket mutes get 422 on ticket_number */
  ticketIntegration?: boolean;
  /** clock in ms, default Date.now: missing, installers, mute expiry, seeding around today */
  now?: () => number;
  /** record every request in RunningSandbox.requests; default true (turn off for long runs) */
  recordRequests?: boolean;
  /** fold the state file's journal into a new snapshot past this many bytes (default 2 MiB; tests set it low) */
  compactJournalBytes?: number;
  /** receives notices such as a re-seed of the state file */
  onNotice?: (message: string) => void;
  /**
   * The living fleet (live.ts): simulated time passes `speed` times as fast as `now`, from
   * `now()` at the start; every answer is computed against the simulated clock. Kept in memory:
   * a state file is not read or written.
   */
  live?: { speed: number };
  /** serve HTTPS with this certificate and key (PEM; tls.ts makes them); default plain HTTP */
  tls?: { cert: string; key: string };
  /** addresses the sandbox POSTs each plugin result's change of state to (webhooks.ts) */
  webhooks?: readonly string[];
  /** retries of webhook deliveries; tests shorten them */
  webhookRetry?: Partial<RetryPolicy>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  form: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
}

export interface RunningSandbox {
  /** e.g. 'http://127.0.0.1:43121': no trailing slash and no /v2.5 */
  url: string;
  /** the primary subscriber's key */
  apiKey: string;
  /** a second subscriber's key */
  otherApiKey: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** the living fleet, when started with `live` */
  live: LiveFleet | undefined;
  /**
   * Moves the living fleet's clock forward by `seconds` of simulated time and simulates them
   * (what `POST /_sandbox/tick` does); the transitions made, in order. Webhooks are sent for each.
   */
  tick(seconds: number): Transition[];
  /** resolves when every webhook delivery queued so far is delivered or given up */
  webhooksSettled(): Promise<void>;
  /** stops listening, closes idle and keep-alive sockets, resolves when done */
  close(): Promise<void>;
}

/** Paths of the sandbox's own control routes (not the API's): `mon sandbox trigger` sends here. */
export const CONTROL_PREFIX = '/_sandbox/';

const FORCED: Readonly<Record<string, PluginStatus>> = { alert: 'Alert', warning: 'Warning', ok: 'OK' };

/** A transition as the control routes answer it. */
function describe(t: Transition): Record<string, unknown> {
  return {
    plugin_result_uid: t.result.uid,
    client_id: t.computer.client_id,
    name: t.result.name,
    previous: t.previous,
    status: t.status,
    at: t.atSec,
    cause: t.cause,
  };
}

/** Loopback only: the sandbox is plain HTTP with well-known keys. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

/** What a 404 for an unknown route adds: the prefix only when the path lacks it, else where the routes are listed. */
function notFoundHint(pathname: string): string {
  if (pathname === '/v2.5' || pathname.startsWith('/v2.5/'))
    return '; the v2.5 API has no such path (its paths are listed in api-v2.5.md)';
  return '; paths begin with /v2.5';
}

export function buildRouter(): Router {
  const router = new Router();
  groupRoutes(router);
  computerRoutes(router);
  expirationRoutes(router);
  catalogRoutes(router);
  noteRoutes(router);
  pluginResultRoutes(router);
  userRoutes(router);
  return router;
}

/**
 * Parameters of a request body: form-encoded (api-v2.5 conventions 7) or JSON with the same
 * keys nested as objects, as the service accepts; any other type is 400.
 */
async function bodyParams(req: IncomingMessage, raw: Buffer): Promise<Params> {
  if (raw.length === 0) return {};
  const contentType = req.headers['content-type'] ?? '';
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return parseParams(raw.toString('utf8'));
  if (type === 'application/json') return parseJsonParams(raw.toString('utf8'));
  if (type === 'multipart/form-data') return parseMultipartParams(raw, contentType);
  throw new ApiError(
    400,
    ':bad_request',
    `request bodies must be application/x-www-form-urlencoded, multipart/form-data or application/json, not ${type || 'untyped'} (api-v2.5 conventions 7)`,
  );
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new Error(`The sandbox only listens on loopback (127.0.0.1, ::1, localhost), not on ${host}`);
  }
  return new Sandbox(options).listen(host);
}

/** One sandbox: its data, its fleet, its keys and limits, the requests it received. */
class Sandbox {
  private readonly realNow: () => number;
  private readonly now: () => number;
  private readonly sender: WebhookSender;
  private readonly deliveries = new Set<Promise<Delivery[]>>();
  /** Forced transitions (`trigger`) use the fleet's rules in a still sandbox too; only a live one moves by itself. */
  private readonly fleet: LiveFleet;
  readonly live: LiveFleet | undefined;
  private store: Store;
  private readonly settings: SandboxSettings;
  private readonly limiter: RateLimiter;
  private readonly router = buildRouter();
  readonly primaryKey: string;
  private readonly keys: ReadonlyMap<string, AccountId>;
  readonly requests: RecordedRequest[] = [];
  private readonly record: boolean;

  constructor(private readonly options: SandboxOptions) {
    const realNow = options.now ?? Date.now;
    this.realNow = realNow;
    this.sender = new WebhookSender(
      options.webhooks ?? [],
      { ...DEFAULT_RETRY, ...options.webhookRetry },
      options.onNotice ?? ((): void => undefined),
    );
    // Every change of a plugin result's state, simulated or forced, is one event to each address.
    const onTransition = (t: Transition): void => {
      if (this.sender.urls.length > 0) void this.deliver(transitionEvent(this.renderCtx(), t));
    };
    this.fleet = new LiveFleet({
      seed: options.seed ?? 1,
      speed: options.live?.speed ?? 0,
      startMs: realNow(),
      realNow,
      onTransition,
    });
    this.live = options.live !== undefined ? this.fleet : undefined;
    this.now = this.live ? this.live.now : realNow;
    const stateFile = this.live ? undefined : options.stateFile;
    this.store = Store.open({
      now: this.now,
      ...(stateFile !== undefined && { stateFile }),
      ...(options.seed !== undefined && { seed: options.seed }),
      ...(options.computers !== undefined && { computers: options.computers }),
      ...(options.onNotice !== undefined && { onNotice: options.onNotice }),
      ...(options.compactJournalBytes !== undefined && { compactJournalBytes: options.compactJournalBytes }),
    });
    this.settings = { ticketIntegration: options.ticketIntegration ?? true };
    this.limiter = new RateLimiter(options.rateLimit?.requests ?? 400, options.rateLimit?.windowMs ?? 60_000, realNow);
    this.primaryKey = options.apiKey ?? SANDBOX_API_KEY;
    this.keys =
      options.apiKey === undefined
        ? KEYS
        : new Map([
            [this.primaryKey, PRIMARY_ACCOUNT],
            [SANDBOX_OTHER_API_KEY, OTHER_ACCOUNT],
          ]);
    this.record = options.recordRequests ?? true;
  }

  /** Sends one event to every webhook address; settled when each delivery is done or given up. */
  deliver(event: Record<string, unknown>): Promise<Delivery[]> {
    const sent = this.sender.send(event);
    this.deliveries.add(sent);
    void sent.finally(() => this.deliveries.delete(sent));
    return sent;
  }

  private renderCtx(): RenderCtx {
    const nowMs = this.now();
    return { store: this.store, nowMs, nowSec: Math.floor(nowMs / 1000) };
  }

  /** One request, recorded, answered in JSON: the API's answer, or its error. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const query = parseParams(url.search);
    const entry: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      form: {},
      headers: { ...req.headers },
      status: 0,
    };
    if (this.record) this.requests.push(entry);
    const live = this.live;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      entry.status = status;
      // A living fleet's clock is the server's clock: its Date header says the simulated time.
      sendJson(res, status, body, live ? { ...headers, date: new Date(live.now()).toUTCString() } : headers);
    };
    try {
      const form = await bodyParams(req, await readBody(req, MAX_BODY_BYTES));
      entry.form = form;
      const reply = await this.answer(req, url, query, form);
      send(reply.status ?? 200, reply.body ?? null, reply.headers);
    } catch (err) {
      if (err instanceof ApiError) {
        send(err.status, err.toBody(), err.headers);
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      send(500, [
        {
          status_code: 500,
          code: ':internal_server_error',
          title: 'Internal Server Error',
          details: `sandbox failure: ${message}`,
        },
      ]);
    }
  }

  /** The reply to a request whose body was read: rate limit, control routes, routing, the key, then the route's handler. */
  private async answer(req: IncomingMessage, url: URL, query: Params, form: Params): Promise<Reply> {
    const apiKey = one(form, 'api_key') ?? one(query, 'api_key');
    // all requests count against the limit, whatever their outcome (api-v2.5, Limits)
    const retryAfter = this.limiter.hit(apiKey ?? '');
    if (retryAfter !== undefined) {
      throw new ApiError(
        429,
        ':too_many_requests',
        `rate limit of ${this.limiter.limit} requests per ${this.limiter.windowMs / 1000} s exceeded`,
        undefined,
        {
          'retry-after': String(retryAfter),
        },
      );
    }
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    if (this.live) this.live.catchUp(this.store);
    if (pathname.startsWith(CONTROL_PREFIX)) {
      if (apiKey === undefined || this.keys.get(apiKey) !== PRIMARY_ACCOUNT)
        throw new ApiError(401, ':unauthorized', "the sandbox's control routes take the primary api_key");
      return { body: await this.control(method, pathname.slice(CONTROL_PREFIX.length), { ...query, ...form }) };
    }
    const match = this.router.match(method, pathname);
    if (match.kind === 'none') {
      throw new ApiError(
        404,
        ':not_found',
        `no route for ${req.method ?? 'GET'} ${url.pathname}${notFoundHint(pathname)}`,
      );
    }
    if (match.kind === 'method') {
      throw new ApiError(
        405,
        ':method_not_allowed',
        `${req.method ?? ''} is not allowed on ${url.pathname}; allowed: ${match.allowed.join(', ')}`,
        undefined,
        {
          allow: match.allowed.join(', '),
        },
      );
    }
    if (apiKey === undefined || apiKey === '') throw new ApiError(401, ':unauthorized', 'api_key is missing');
    const account = this.keys.get(apiKey);
    if (account === undefined) throw new ApiError(401, ':unauthorized', 'api_key is not valid');
    const run = (): Reply => {
      const nowMs = this.now();
      const ctx: RequestContext = {
        method,
        account,
        params: { ...query, ...form },
        path: match.path,
        expand: parseExpand([...many(query, 'expand', 'expand[]'), ...many(form, 'expand', 'expand[]')]),
        settings: this.settings,
        store: this.store,
        nowMs,
        nowSec: Math.floor(nowMs / 1000),
      };
      return match.handler(ctx);
    };
    // Another sandbox on the same state file may have written since (README, Two sandboxes
    // on one state): reads see its changes; a write runs under the file's lock on fresh data.
    const stateFile = this.options.stateFile;
    if (method !== 'GET' && stateFile !== undefined) {
      return withStateLock(stateFile, () => {
        this.store = this.store.refresh(this.realNow());
        return run();
      });
    }
    this.store = this.store.refresh(this.realNow());
    return run();
  }

  tick(seconds: number): Transition[] {
    if (!this.live)
      throw new ApiError(
        409,
        ':conflict',
        'this sandbox is not live: start it with `mon sandbox serve --live` to move its clock',
      );
    this.live.step(seconds * 1000);
    return this.live.catchUp(this.store);
  }

  /** The sandbox-only routes under /_sandbox/ (README, Control routes): tick and trigger. */
  private async control(method: string, route: string, params: Params): Promise<unknown> {
    if (method !== 'POST')
      throw new ApiError(
        405,
        ':method_not_allowed',
        `${method} is not allowed on ${CONTROL_PREFIX}${route}; allowed: POST`,
        undefined,
        { allow: 'POST' },
      );
    if (route === 'tick') {
      const raw = one(params, 'seconds') ?? '';
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 366 * 86_400)
        throw invalidParameter('seconds', 'must be an integer from 1 to 31622400 (a year)');
      const made = this.tick(Number(raw));
      return { now: Math.floor(this.now() / 1000), transitions: made.map(describe) };
    }
    if (route !== 'trigger')
      throw new ApiError(
        404,
        ':not_found',
        `no control route ${CONTROL_PREFIX}${route}; there are ${CONTROL_PREFIX}tick and ${CONTROL_PREFIX}trigger`,
      );
    return this.trigger(one(params, 'kind') ?? '', one(params, 'target') ?? '');
  }

  /** `trigger`: a test event, a connection test, a computer gone missing, or a plugin result forced to a state. */
  private async trigger(kind: string, target: string): Promise<unknown> {
    const { store } = this;
    const nowSec = Math.floor(this.now() / 1000);
    if (kind === 'test') {
      const event = testEvent(nowSec);
      return { event_id: event.event_id, deliveries: await this.deliver(event) };
    }
    if (kind === 'connection_test') return { deliveries: await this.sender.probe(connectionTestEvent(nowSec)) };
    const computer = target.startsWith('pr_')
      ? store.computers.get(store.pluginResults.get(target)?.computer ?? '')
      : target !== ''
        ? store.computerByClientId(target)
        : undefined;
    if (target !== '' && (computer === undefined || computer.account !== PRIMARY_ACCOUNT))
      throw new ApiError(404, ':not_found', `no computer or plugin result ${target} of the primary account`);
    if (kind === 'missing') return this.forceMissing(computer, nowSec);
    const status = FORCED[kind];
    if (status === undefined)
      throw invalidParameter('kind', 'must be one of test, connection_test, missing, alert, warning, ok');
    const candidates = (
      computer ? [computer] : store.computers.items.filter((x) => x.account === PRIMARY_ACCOUNT && !x.hidden)
    ).flatMap((c) => store.resultsOf(c.uid).filter((r) => r.visible));
    const result = target.startsWith('pr_')
      ? store.pluginResults.get(target)
      : (candidates.find((r) => r.status !== status && r.mute === null) ?? candidates.find((r) => r.status !== status));
    if (!result) throw new ApiError(404, ':not_found', `no visible plugin result that is not ${status} already`);
    const owner = store.computers.get(result.computer);
    if (!owner) throw new ApiError(404, ':not_found', `plugin result ${result.uid} has no computer`);
    return describe(this.fleet.force(store, owner, result, status, nowSec));
  }

  /** `trigger kind=missing`: the computer given, or the first reporting one, stops reporting. */
  private forceMissing(computer: ComputerRec | undefined, nowSec: number): unknown {
    const { store } = this;
    const c =
      computer ??
      store.computers.items.find(
        (x) =>
          x.account === PRIMARY_ACCOUNT && x.report_if_missing && !x.agent_removed && nowSec - x.last_report < 86_400,
      );
    if (!c) throw new ApiError(404, ':not_found', 'no reporting computer left to go missing');
    this.fleet.forceMissing(store, c, nowSec);
    c.report_if_missing = true;
    c.ignore_missing_until = null;
    c.last_report = Math.min(c.last_report, nowSec - c.report_missing_after * 86_400 - 3_600);
    c.last_update = c.last_report;
    store.commit({ saved: [c] });
    return { client_id: c.client_id, missing: true, last_report: c.last_report };
  }

  /** Listens on `host` (the port of the options, or any) and hands back the running sandbox. */
  async listen(host: string): Promise<RunningSandbox> {
    const { options, live } = this;
    // A live fleet moves (and sends its webhooks) between requests too: one catch-up per simulated step.
    const ticker = live
      ? setInterval(() => live.catchUp(this.store), Math.max(50, (STEP_SECONDS * 1000) / live.speed))
      : undefined;
    ticker?.unref();
    const listener = (req: IncomingMessage, res: ServerResponse): void => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    };
    const server = options.tls
      ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener)
      : createServer(listener);
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('sandbox: no TCP address');
    const shownHost =
      host === 'localhost' ? 'localhost' : isIP(address.address) === 6 ? `[${address.address}]` : address.address;
    let closing: Promise<void> | undefined;
    return {
      url: `${options.tls ? 'https' : 'http'}://${shownHost}:${address.port}`,
      apiKey: this.primaryKey,
      otherApiKey: SANDBOX_OTHER_API_KEY,
      requests: this.requests,
      live,
      tick: (seconds) => this.tick(seconds),
      webhooksSettled: async () => {
        while (this.deliveries.size > 0) await Promise.all([...this.deliveries]);
      },
      close: () => {
        if (ticker) clearInterval(ticker);
        this.sender.close();
        closing ??= new Promise<void>((resolve, reject) => {
          server.close((err) => (err ? reject(err) : resolve()));
          server.closeIdleConnections();
          // a client holding a request open must not keep the process alive
          setTimeout(() => server.closeAllConnections(), 1_000).unref();
        });
        return closing;
      },
    };
  }
}
