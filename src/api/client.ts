import { openConnection } from './connection.js';
import type { Dispatcher } from './undici.js';
import { NetworkError, type MonError } from '../errors.js';
import {
  attempt,
  AttemptFailed,
  describe,
  interrupted,
  type ApiResponse,
  type AttemptSettings,
  type PreparedRequest,
} from './attempt.js';
import { settle } from './settle.js';
import { isLoopbackUrl, parseBaseUrl } from './base-url.js';
import { deadlineError, DEFAULT_DEADLINE_MS } from '../time/deadline.js';
import { systemClock, type Clock } from '../clock.js';
import { flattenParams, withExpand, type Params } from './encode.js';
import { fillPath, routeOf, STABLE_ORDERS, type HttpMethod, type RouteName } from './endpoints.js';
import { onceMoreIfMoved, paginate, type Page, type Paging } from './paginate.js';
import { SortedRead } from './sorted-read.js';
import { DEFAULT_BACKOFF_MS, DEFAULT_MAX_RETRY_AFTER_MS, retrying, withAttempts, type RetryPolicy } from './retry.js';

export type { ApiResponse, PreparedRequest } from './attempt.js';
export type { Page, Paging } from './paginate.js';
export { MAX_PER_PAGE, readWhole } from './paginate.js';
export { maxResponseFromEnv } from './response-cap.js';
export { deadlineFromEnv, DEFAULT_DEADLINE_MS } from '../time/deadline.js';

/**
 * Waits for permission to send one request, so the client stays under the API's rate limit.
 * May return a function to call once the request has been answered (the budget then counts it
 * from that moment, as the server may have).
 */
export interface RateBudget {
  take(signal: AbortSignal): Promise<void | (() => Promise<void>)>;
  /** How many requests it lets through per window, when it has a fixed limit. */
  readonly limit?: { requests: number; windowMs: number };
}

export interface ClientConfig {
  baseUrl: string;
  /** Where the base URL came from, for messages ("profile acme", "--base-url"). */
  baseUrlSource: string;
  apiKey: string;
  timeoutMs: number;
  /** Retries after the first attempt, for 429 and for transient failures of safe requests. */
  retries: number;
  /** expand[] keys sent with every request (docs/design/cli-contract.md, --expand). */
  expand: readonly string[];
  signal: AbortSignal;
  userAgent: string;
  env: Record<string, string | undefined>;
  budget?: RateBudget;
  /** One line per request for --verbose; lines never contain the key. */
  log?: (line: string) => void;
  /**
   * A CA certificate (PEM) trusted besides the usual ones, and only when the base URL is
   * https:// on a loopback host: the sandbox's local CA (`mon sandbox serve --tls`), so mon
   * reaches it with nothing set, while the CA can never vouch for any other host.
   */
  loopbackCa?: string;
  /** Base of the exponential backoff between retries, in ms. */
  backoffMs?: number;
  /** The longest wait a Retry-After may ask for before the client gives up instead. */
  maxRetryAfterMs?: number;
  /**
   * The whole command's deadline, from the client's creation (MON_DEADLINE): budget waits,
   * attempts and pauses between retries all end by then, and a retry that cannot finish in time
   * is not started.
   */
  deadlineMs?: number;
  /**
   * When the deadline's time began, epoch ms (default: the client's creation). Across accounts
   * (src/fleet/accounts.ts), the command's start: an account that waited for its turn gets no
   * deadline of its own.
   */
  startedAt?: number;
  /** Time for deadlines and the waits between retries; the system's unless a test moves it. */
  clock?: Clock;
  /** The most one response may be (MON_MAX_RESPONSE, response-cap.ts). */
  maxResponseBytes?: number;
  /** Called as the request after the first WARM_AFTER starts (MainDeps.warmedUp). */
  warmedUp?: () => void;
}

/**
 * Requests after which a command has run the code of its work once: as the next one starts, a
 * list has printed its first page (pages are fetched four ahead, paginate.ts), and a bulk mute
 * has had its first answers, before any loop has run hot (MainDeps.warmedUp).
 */
const WARM_AFTER = 4;

/** How one request is sent. */
export interface SendOptions {
  /**
   * What aborts the request once it is on its way, instead of the client's signal: a write that
   * must be let finish after Ctrl-C (a bulk mute's PUTs). The client's signal still keeps it from
   * starting, and from being tried again.
   */
  inFlight?: AbortSignal;
}

export interface RequestInput {
  path?: Record<string, string>;
  query?: Params;
  body?: Params;
}

/**
 * The thin client: base URL + /v2.5 routes, api_key placement, form bodies and expand, with the
 * rate budget and the command's deadline around each request. One attempt is attempt.ts's,
 * whether to try again retry.ts's, the walk over pages paginate.ts's, the connection pool
 * connection.ts's.
 */
export class ApiClient {
  private readonly base: URL;
  private readonly dispatcher: Dispatcher;
  private readonly clock: Clock;
  private readonly deadlineMs: number;
  /** Epoch ms by which every request of this command has ended. */
  private readonly deadline: number;
  private readonly policy: RetryPolicy;
  /** The proxy the environment names for the base URL's scheme (NO_PROXY may still bypass it), for messages. */
  private readonly proxy: AttemptSettings['proxy'];
  /** Set by close(): pages fetched ahead that nobody will read stop retrying. */
  private closed = false;
  /** Requests started, counted up to WARM_AFTER + 1 (warmedUp). */
  private started = 0;

  constructor(private readonly config: ClientConfig) {
    this.base = parseBaseUrl(config.baseUrl, config.baseUrlSource);
    this.clock = config.clock ?? systemClock;
    this.deadlineMs = config.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.deadline = (config.startedAt ?? this.clock.now()) + this.deadlineMs;
    this.policy = {
      retries: config.retries,
      backoffMs: config.backoffMs ?? DEFAULT_BACKOFF_MS,
      maxRetryAfterMs: config.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    };
    const connection = openConnection(this.base, config);
    this.dispatcher = connection.dispatcher;
    this.proxy = connection.proxy;
  }

  /** The rate budget's limit (MON_RATE_LIMIT, else the API's 400 a minute), for estimates of time left. */
  get rateLimit(): { requests: number; windowMs: number } | undefined {
    return this.config.budget?.limit;
  }

  /** Whether requests stay on this machine: a loopback base URL (the sandbox). */
  get loopback(): boolean {
    return isLoopbackUrl(this.base);
  }

  /** The base URL requests go to (never carries the key). */
  get baseUrl(): string {
    return this.base.href.replace(/\/$/, '');
  }

  /** Builds the request for a named route. */
  prepare(route: RouteName, input: RequestInput = {}): PreparedRequest {
    const { method, template } = routeOf(route);
    return { ...this.prepareRaw(method, fillPath(template, input.path ?? {}), input), route };
  }

  /** Builds a request for any path (the `api` command). Paths without /v2.5 get it. */
  prepareRaw(method: HttpMethod, path: string, input: RequestInput = {}): PreparedRequest {
    const relative = path.replace(/^\/+/, '');
    const versioned = relative.startsWith('v2.5/') || relative === 'v2.5' ? relative : `v2.5/${relative}`;
    const url = new URL(`${this.base.href.replace(/\/$/, '')}/${versioned}`);
    const sendsBody = method !== 'GET';
    // A command's own expand[] keys (plugin list sends plugin_results) and the global --expand
    // keys go together; spreading one over the other would drop the command's.
    const keys = withExpand((sendsBody ? input.body : input.query)?.expand, this.config.expand);
    const expand = keys.length > 0 ? { expand: keys } : {};
    for (const [key, value] of flattenParams({ ...input.query, ...(sendsBody ? {} : expand) })) {
      url.searchParams.append(key, value);
    }
    const form = sendsBody ? flattenParams({ ...input.body, ...expand }) : [];
    return { method, url, form };
  }

  /** The request as --dry-run prints it: method, URL and form fields, key redacted. */
  describe(prepared: PreparedRequest): { method: string; url: string; form: [string, string][] } {
    return describe(prepared, this.config.apiKey);
  }

  async call(route: RouteName, input: RequestInput = {}): Promise<ApiResponse> {
    return this.send(this.prepare(route, input));
  }

  /** Sends with the rate budget, the retry policy (retry.ts) and timeouts of docs/design/cli-contract.md. */
  async send(prepared: PreparedRequest, options: SendOptions = {}): Promise<ApiResponse> {
    if (this.started <= WARM_AFTER && ++this.started === WARM_AFTER + 1) this.config.warmedUp?.();
    const {
      response,
      attempt: last,
      mayHaveActed,
    } = await retrying({
      method: prepared.method,
      route: prepared.route,
      policy: this.policy,
      now: () => this.clock.now(),
      once: () => this.once(prepared, options.inFlight),
      pause: (ms) => this.pause(ms),
    });
    if (prepared.method === 'DELETE' && response.status === 404 && mayHaveActed) {
      // The first attempt reached the server and its answer was lost; the item is gone because
      // that attempt deleted it. Saying "not found" would tell a script the delete failed.
      this.config.log?.(
        `DELETE ${prepared.url.pathname}: 404 on the retry: the first attempt, whose answer was lost, deleted it`,
      );
      return { status: response.status, headers: response.headers, data: undefined };
    }
    try {
      return settle(prepared, response, this.config.apiKey, this.clock.now());
    } catch (error) {
      throw response.status >= 500 || response.status === 429 ? withAttempts(error as MonError, last) : error;
    }
  }

  /**
   * The pages of a list route, in order (paginate.ts): one page, as many as --limit needs, or
   * with --all every page.
   */
  pages(route: RouteName, input: RequestInput, paging: Paging): AsyncGenerator<Page> {
    // A full read of a list whose order a change moves records in is read in an order that does
    // not (STABLE_ORDERS; paginate.ts, rule 5), then sorted as asked unless the reader sorts itself.
    const read = this.readOf(route, input, paging);
    const prepared = this.prepare(route, read.input);
    return read.sortBy === undefined || paging.anyOrder
      ? this.pagesOf(prepared, paging)
      : this.sortedPages(prepared, paging, read.sortBy);
  }

  /**
   * What a read of `route` sends (what --dry-run shows): a full read of a list whose order a
   * change moves records in asks for the order that does not (STABLE_ORDERS; paginate.ts, rule
   * 5), and `sortBy` is then the field the order asked for sorts on.
   */
  readOf(route: RouteName, input: RequestInput, paging: Paging): { input: RequestInput; sortBy?: string } {
    const stable = STABLE_ORDERS[route];
    const full =
      paging.all === true && paging.limit === undefined && (paging.page ?? 1) === 1 && paging.offset === undefined;
    if (!stable || !full) return { input };
    const asked = input.query?.[stable.param];
    const sortBy = stable.sortBy[typeof asked === 'string' ? asked : stable.default];
    if (sortBy === undefined) return { input };
    return { input: { ...input, query: { ...input.query, [stable.param]: stable.stable } }, sortBy };
  }

  /**
   * Every page of a full read, then its records sorted newest first by `field` (ties by uid),
   * handed out again in pages of the sizes read (sorted-read.ts holds them, mostly on disk).
   */
  private async *sortedPages(prepared: PreparedRequest, paging: Paging, field: string): AsyncGenerator<Page> {
    const read = await onceMoreIfMoved(async () => {
      const held = new SortedRead(field, this.config.log);
      try {
        for await (const page of this.pagesOf(prepared, paging)) held.add(page);
        return held;
      } catch (error) {
        held.discard();
        throw error;
      }
    });
    try {
      yield* read.pages();
    } finally {
      read.discard();
    }
  }

  /**
   * The pages of any prepared GET (`mon api --paginate`): page, per_page and offset are set on
   * its URL, the rest of its query kept.
   */
  async *pagesOf(prepared: PreparedRequest, paging: Paging): AsyncGenerator<Page> {
    for await (const page of paginate(
      async (query) => {
        const url = new URL(prepared.url);
        for (const [key, value] of Object.entries(query)) {
          if (value !== undefined) url.searchParams.set(key, String(value));
        }
        const { data, headers } = await this.send({ ...prepared, url });
        return { data, headers };
      },
      paging,
      `GET ${prepared.url.pathname}`,
    )) {
      paging.onPage?.(page);
      yield page;
    }
  }

  /**
   * Ends every connection at once: by now the command has what it needs, and a page fetched
   * ahead (or a server that hangs) must not hold the exit up.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.dispatcher.destroy(poolClosed());
  }

  /** One attempt within the budget and the deadline. */
  private async once(prepared: PreparedRequest, inFlight?: AbortSignal): Promise<ApiResponse> {
    const { signal } = this.config;
    if (signal.aborted) throw interrupted(signal);
    if (this.closed) throw new AttemptFailed(poolClosed(), 'final');
    const answered = await this.takeBudget();
    try {
      // Nothing starts after Ctrl-C, also when the budget's answer came at the same moment.
      if (signal.aborted) throw interrupted(signal);
      return await attempt(
        {
          dispatcher: this.dispatcher,
          apiKey: this.config.apiKey,
          userAgent: this.config.userAgent,
          host: this.base.host,
          baseUrlSource: this.config.baseUrlSource,
          proxy: this.proxy,
          timeoutMs: this.config.timeoutMs,
          maxResponseBytes: this.config.maxResponseBytes,
          deadlineMs: this.deadlineMs,
          signal: inFlight ?? signal,
          clock: this.clock,
          log: this.config.log,
        },
        prepared,
        this.deadline - this.clock.now(),
      );
    } finally {
      await answered?.();
    }
  }

  /** Waits for the rate budget; Ctrl-C and the deadline end the wait. */
  private async takeBudget(): Promise<void | (() => Promise<void>)> {
    const { budget, signal } = this.config;
    if (!budget) return;
    const left = this.deadline - this.clock.now();
    if (left <= 0) throw new AttemptFailed(deadlineError(this.deadlineMs), 'final');
    const deadline = AbortSignal.timeout(left);
    try {
      return await budget.take(AbortSignal.any([signal, deadline]));
    } catch (error) {
      if (signal.aborted) throw interrupted(signal);
      if (deadline.aborted) throw new AttemptFailed(deadlineError(this.deadlineMs), 'final');
      throw error;
    }
  }

  /**
   * Waits before a retry. False, at once, when the retry could not end before the deadline
   * (the caller then reports the failure it has).
   */
  private async pause(ms: number): Promise<boolean> {
    if (this.closed) return false;
    if (this.clock.now() + ms + Math.min(this.config.timeoutMs, 1_000) > this.deadline) return false;
    try {
      await this.clock.sleep(ms, this.config.signal);
    } catch {
      throw interrupted(this.config.signal);
    }
    return true;
  }
}

/**
 * What a request still in flight fails with once the pool is closed, made without a stack trace:
 * Node's streams read the stack of the error a socket is destroyed with, and formatting one with
 * frames finds the line ends of the whole bundle (about 6 M instructions at the end of every run)
 * for an error nobody sees.
 */
function poolClosed(): NetworkError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new NetworkError('the connection pool is closed');
  } finally {
    Error.stackTraceLimit = limit;
  }
}
