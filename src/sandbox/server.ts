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
import { answerControl, CONTROL_PREFIX, type Controlled } from './control.js';
import { ApiError, many, one, parseBodyParams, parseParams, readBody, sendJson, type Params } from './http.js';
import { LiveFleet, STEP_SECONDS, type Transition } from './live.js';
import { OTHER_ACCOUNT, PRIMARY_ACCOUNT, type AccountId } from './model.js';
import type { RecordedRequest, RunningSandbox, SandboxOptions } from './options.js';
import { parseExpand, type RenderCtx } from './render.js';
import { RateLimiter } from './rate-limit.js';
import { type Match, Router, type Reply, type RequestContext, type SandboxSettings } from './router.js';
import { catalogRoutes } from './routes/catalog.js';
import { computerRoutes } from './routes/computers.js';
import { expirationRoutes } from './routes/expirations.js';
import { groupRoutes } from './routes/groups.js';
import { noteRoutes } from './routes/notes.js';
import { pluginResultRoutes } from './routes/plugin-results.js';
import { userRoutes } from './routes/users.js';
import { withStateLock } from './state-file.js';
import { Store } from './store.js';
import { DEFAULT_RETRY, type Delivery, transitionEvent, WebhookSender } from './webhooks.js';

export { CONTROL_PREFIX } from './control.js';
export type { RecordedRequest, RunningSandbox, SandboxOptions } from './options.js';

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
      const form = await parseBodyParams(req, await readBody(req, MAX_BODY_BYTES));
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
    this.countAgainstLimit(apiKey);
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    if (this.live) this.live.catchUp(this.store);
    if (pathname.startsWith(CONTROL_PREFIX)) {
      if (apiKey === undefined || this.keys.get(apiKey) !== PRIMARY_ACCOUNT)
        throw new ApiError(401, ':unauthorized', "the sandbox's control routes take the primary api_key");
      const route = pathname.slice(CONTROL_PREFIX.length);
      return { body: await answerControl(this.controlled, method, route, { ...query, ...form }) };
    }
    const match = this.route(req, url, method, pathname);
    const account = this.accountOf(apiKey);
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
    return this.onFreshState(method, run);
  }

  /** All requests count against the limit, whatever their outcome (api-v2.5, Limits): past it, 429. */
  private countAgainstLimit(apiKey: string | undefined): void {
    const retryAfter = this.limiter.hit(apiKey ?? '');
    if (retryAfter === undefined) return;
    throw new ApiError(
      429,
      ':too_many_requests',
      `rate limit of ${this.limiter.limit} requests per ${this.limiter.windowMs / 1000} s exceeded`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }

  /** The route of the method and path: 404 for no path, 405 for a path without that method. */
  private route(req: IncomingMessage, url: URL, method: string, pathname: string): Extract<Match, { kind: 'found' }> {
    const match = this.router.match(method, pathname);
    if (match.kind === 'none')
      throw new ApiError(
        404,
        ':not_found',
        `no route for ${req.method ?? 'GET'} ${url.pathname}${notFoundHint(pathname)}`,
      );
    if (match.kind === 'method')
      throw new ApiError(
        405,
        ':method_not_allowed',
        `${req.method ?? ''} is not allowed on ${url.pathname}; allowed: ${match.allowed.join(', ')}`,
        undefined,
        { allow: match.allowed.join(', ') },
      );
    return match;
  }

  /** The account of the api_key: 401 when it is missing or not one of the sandbox's keys. */
  private accountOf(apiKey: string | undefined): AccountId {
    if (apiKey === undefined || apiKey === '') throw new ApiError(401, ':unauthorized', 'api_key is missing');
    const account = this.keys.get(apiKey);
    if (account === undefined) throw new ApiError(401, ':unauthorized', 'api_key is not valid');
    return account;
  }

  /**
   * Runs a handler on the state as it is now. Another sandbox on the same state file may have
   * written since (README, Two sandboxes on one state): reads see its changes; a write runs
   * under the file's lock on fresh data.
   */
  private async onFreshState(method: string, run: () => Reply): Promise<Reply> {
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

  /** What the control routes (control.ts) act on. */
  private get controlled(): Controlled {
    return {
      store: () => this.store,
      now: () => this.now(),
      fleet: this.fleet,
      tick: (seconds) => this.tick(seconds),
      deliver: (event) => this.deliver(event),
      probe: (event) => this.sender.probe(event),
    };
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
