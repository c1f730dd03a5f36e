import { setTimeout as sleep } from 'node:timers/promises';
import {
  AuthError,
  UsageError,
  InterruptedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  RejectedError,
  ServerError,
  type MonError,
} from '../errors.js';
import { parseBaseUrl } from './base-url.js';
import { encodeForm, flattenParams, withExpand, type Params } from './encode.js';
import { collectEvery } from './heap.js';
import { fillPath, IDEMPOTENT_POSTS, routeOf, type HttpMethod, type RouteName } from './endpoints.js';
import { EnvHttpProxyAgent, type Dispatcher } from './transport.js';
import { redact, REDACTED } from './redact.js';
import { ApiErrorBody } from './schemas/common.js';
import { checkResponse } from './schemas/index.js';

/**
 * Waits for permission to send one request, so the client stays under the API's rate limit.
 * May return a function to call once the request has been answered (the budget then counts it
 * from that moment, as the server may have).
 */
export interface RateBudget {
  take(signal: AbortSignal): Promise<void | (() => Promise<void>)>;
}

export interface ClientConfig {
  baseUrl: string;
  /** Where the base URL came from, for messages ("profile acme", "--base-url"). */
  baseUrlSource: string;
  apiKey: string;
  timeoutMs: number;
  /** Retries after the first attempt, for 429 and for transient failures of safe requests. */
  retries: number;
  /** expand[] keys sent with every request (cli-contract.md, --expand). */
  expand: readonly string[];
  signal: AbortSignal;
  userAgent: string;
  env: Record<string, string | undefined>;
  budget?: RateBudget;
  /** One line per request for --verbose; lines never contain the key. */
  log?: (line: string) => void;
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
}

export interface RequestInput {
  path?: Record<string, string>;
  query?: Params;
  body?: Params;
}

/** A request ready to go, without the key: what --dry-run shows and what send() sends. */
export interface PreparedRequest {
  method: HttpMethod;
  url: URL;
  /** Form fields (POST, PUT, DELETE). The query lives in url. */
  form: [string, string][];
  route?: RouteName;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  data: unknown;
}

export interface Paging {
  page?: number;
  perPage?: number;
  offset?: number;
  all?: boolean;
  limit?: number;
}

/** One page of a list: its items and what the pagination headers said. */
export interface Page {
  items: Record<string, unknown>[];
  total?: number;
  headers: Record<string, string>;
}

/** per_page limit of api-v2.5, Limits. */
export const MAX_PER_PAGE = 100;
/** How many pages a long list handles between full collections (see heap.ts): flat memory. */
const PAGES_PER_COLLECTION = 3;
/** How many pages `--all` fetches at once; the rate budget still bounds the pace. */
const PAGE_CONCURRENCY = 4;

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Default of MON_DEADLINE: far beyond any `--all` at 400 requests a minute, short of forever. */
export const DEFAULT_DEADLINE_MS = 3_600_000;

/** MON_DEADLINE=<seconds> (0 < s <= 86400); unset: {@link DEFAULT_DEADLINE_MS}. */
export function deadlineFromEnv(env: Record<string, string | undefined>): number {
  const text = env.MON_DEADLINE?.trim();
  if (!text) return DEFAULT_DEADLINE_MS;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value <= 0 || value > 86_400) {
    throw new UsageError(`MON_DEADLINE: must be a number of seconds above 0 and at most 86400 (got '${text}')`);
  }
  return Math.round(value * 1000);
}

/**
 * How an attempt that failed may be repeated: `unsent` when nothing can have reached the
 * server (refused connection, unknown host), so even a creating POST may go again; `transient`
 * when the server may have acted (reset, cut body), so only requests that are safe to repeat
 * go again; `final` when another attempt cannot help (TLS, timeout, deadline).
 */
type Repeat = 'unsent' | 'transient' | 'final';

class AttemptFailed extends Error {
  constructor(
    readonly error: MonError,
    readonly repeat: Repeat,
  ) {
    super(error.message);
  }
}

/**
 * The thin client: base URL + /v2.5 routes, api_key placement, form bodies, expand, timeouts,
 * retries, rate budget and redaction. The only module that speaks HTTP.
 */
export class ApiClient {
  private readonly base: URL;
  private readonly dispatcher: Dispatcher;
  /** Epoch ms by which every request of this command has ended. */
  private readonly deadline: number;
  /** Set by close(): pages fetched ahead that nobody will read stop retrying. */
  private closed = false;

  constructor(private readonly config: ClientConfig) {
    this.base = parseBaseUrl(config.baseUrl, config.baseUrlSource);
    this.deadline = Date.now() + (config.deadlineMs ?? DEFAULT_DEADLINE_MS);
    const { env } = config;
    this.dispatcher = new EnvHttpProxyAgent({
      httpProxy: env.HTTP_PROXY ?? env.http_proxy,
      httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
      noProxy: env.NO_PROXY ?? env.no_proxy,
      connect: { timeout: config.timeoutMs },
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
    });
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
    const url = new URL(prepared.url);
    const form = [...prepared.form];
    if (prepared.method === 'GET') url.searchParams.append('api_key', REDACTED);
    else form.push(['api_key', REDACTED]);
    return { method: prepared.method, url: redact(url.toString()).replace(/%5B/g, '[').replace(/%5D/g, ']'), form };
  }

  async call(route: RouteName, input: RequestInput = {}): Promise<ApiResponse> {
    return this.send(this.prepare(route, input));
  }

  /**
   * Sends with the rate budget, retries and timeouts of cli-contract.md: 429 is retried for
   * every method (the server did not act on it); network failures and 502/503/504 (and 500 on
   * reads) only where a repeat cannot create a second object.
   */
  async send(prepared: PreparedRequest): Promise<ApiResponse> {
    const { retries } = this.config;
    const repeatable = prepared.method !== 'POST' || (prepared.route !== undefined && IDEMPOTENT_POSTS.has(prepared.route));
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let response: ApiResponse;
      try {
        response = await this.once(prepared);
      } catch (caught) {
        if (!(caught instanceof AttemptFailed)) throw caught;
        const { error, repeat } = caught;
        const again = repeat === 'unsent' || (repeat === 'transient' && repeatable);
        if (again && !last && (await this.pause(this.backoff(attempt)))) continue;
        throw attempts(error, attempt);
      }
      const { status } = response;
      if (status === 429 && !last) {
        const wait = this.retryAfter(response.headers['retry-after']) ?? this.backoff(attempt);
        if (wait <= (this.config.maxRetryAfterMs ?? 60_000) && (await this.pause(wait))) continue;
      }
      const transient = status === 502 || status === 503 || status === 504 || (status === 500 && prepared.method === 'GET');
      if (transient && repeatable && !last) {
        // A 503 may say when to come back (RFC 9110, Retry-After); within reason, do as it says.
        const asked = status === 503 ? this.retryAfter(response.headers['retry-after']) : undefined;
        const wait = asked !== undefined && asked <= (this.config.maxRetryAfterMs ?? 60_000) ? asked : this.backoff(attempt);
        if (await this.pause(wait)) continue;
      }
      try {
        return this.settle(prepared, response);
      } catch (error) {
        throw status >= 500 || status === 429 ? attempts(error as MonError, attempt) : error;
      }
    }
  }

  /**
   * Yields the pages of a list in order. Without --all one page (or, with --limit, as many as
   * the limit needs); with --all every page up to x-total-pages, a few at a time.
   */
  async *pages(route: RouteName, input: RequestInput, paging: Paging): AsyncGenerator<Page> {
    const perPage = paging.perPage ?? (paging.all ? MAX_PER_PAGE : undefined);
    const pageQuery = (n: number): Params => ({
      ...input.query,
      page: paging.offset === undefined ? n : undefined,
      per_page: perPage,
      offset: paging.offset === undefined ? undefined : paging.offset + (n - firstPage) * (perPage ?? 50),
    });
    const firstPage = paging.page ?? 1;
    let remaining = paging.limit ?? Number.POSITIVE_INFINITY;
    const first = await this.fetchPage(route, input, pageQuery(firstPage));
    remaining -= first.items.length;
    yield { ...first, items: first.items.slice(0, first.items.length + Math.min(0, remaining)) };
    const follow = paging.all === true || paging.limit !== undefined;
    if (!follow || remaining <= 0) return;

    const lastPage = lastPageOf(first, firstPage, perPage ?? 50, paging.offset);
    const handled = lastPage - firstPage >= PAGES_PER_COLLECTION ? collectEvery(PAGES_PER_COLLECTION) : undefined;
    const inFlight: Promise<Page>[] = [];
    let next = firstPage + 1;
    const refill = () => {
      while (inFlight.length < PAGE_CONCURRENCY && next <= lastPage) {
        const page = this.fetchPage(route, input, pageQuery(next++));
        page.catch(() => undefined); // awaited in order below; this keeps an early failure from going unhandled
        inFlight.push(page);
      }
    };
    refill();
    while (inFlight.length > 0 && remaining > 0) {
      const page = await inFlight.shift()!;
      refill();
      remaining -= page.items.length;
      yield { ...page, items: page.items.slice(0, page.items.length + Math.min(0, remaining)) };
      handled?.();
      if (page.items.length === 0) break;
    }
  }

  /**
   * Ends every connection at once: by now the command has what it needs, and a page fetched
   * ahead (or a server that hangs) must not hold the exit up.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.dispatcher.destroy();
  }

  private async fetchPage(route: RouteName, input: RequestInput, query: Params): Promise<Page> {
    const response = await this.send(this.prepare(route, { ...input, query }));
    const items = Array.isArray(response.data) ? (response.data as Record<string, unknown>[]) : [];
    const total = numberHeader(response.headers['x-total']);
    return { items, headers: response.headers, ...(total === undefined ? {} : { total }) };
  }

  /**
   * One attempt: waits for the budget, sends, reads the whole body within the timeout (connect,
   * headers and body alike). Failures come out as AttemptFailed; nothing it throws carries the key.
   */
  private async once(prepared: PreparedRequest): Promise<ApiResponse> {
    const { signal } = this.config;
    if (signal.aborted) throw interrupted(signal);
    if (this.closed) throw new AttemptFailed(new NetworkError('the connection pool is closed'), 'final');
    const answered = await this.takeBudget();
    try {
      return await this.attempt(prepared);
    } finally {
      await answered?.();
    }
  }

  /** The request itself, after the budget said yes. */
  private async attempt(prepared: PreparedRequest): Promise<ApiResponse> {
    const { signal, timeoutMs, apiKey } = this.config;
    const url = new URL(prepared.url);
    const headers: Record<string, string> = { 'user-agent': this.config.userAgent, accept: 'application/json' };
    let body: string | undefined;
    if (prepared.method === 'GET') {
      url.searchParams.append('api_key', apiKey);
    } else {
      body = encodeForm([...prepared.form, ['api_key', apiKey]]);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const left = this.deadline - Date.now();
    if (left <= 0) throw new AttemptFailed(this.deadlineError(), 'final');
    const byDeadline = left < timeoutMs;
    const timeout = AbortSignal.timeout(Math.min(timeoutMs, left));
    const started = Date.now();
    // As --dry-run shows it: the key's place marked [REDACTED], so a reader sees it was sent.
    const shownUrl = redact(this.describe(prepared).url, apiKey);
    let status: number | undefined;
    let received = 0;
    try {
      const response = await this.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: prepared.method,
        headers,
        body,
        signal: AbortSignal.any([signal, timeout]),
      });
      status = response.statusCode;
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) {
        chunks.push(chunk as Buffer);
        received += (chunk as Buffer).length;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      this.config.log?.(`${prepared.method} ${shownUrl} ${status} (${Date.now() - started} ms)`);
      return { status, headers: flatHeaders(response.headers), data: text };
    } catch (error) {
      this.config.log?.(`${prepared.method} ${shownUrl} ${status === undefined ? 'failed' : `${status}, body cut off`} (${Date.now() - started} ms)`);
      if (signal.aborted) throw interrupted(signal);
      if (timeout.aborted) {
        throw new AttemptFailed(byDeadline ? this.deadlineError() : this.timeoutError(status !== undefined), 'final');
      }
      if (status !== undefined) {
        // The server answered, then the body broke off: not the JSON the API promises (exit 7).
        const where = `${prepared.method} ${prepared.url.pathname}`;
        return this.cutBody(where, status, received);
      }
      throw this.networkError(error);
    }
  }

  private cutBody(where: string, status: number, received: number): never {
    throw new AttemptFailed(
      new ServerError(`${where}: the server answered ${status}, then the body broke off after ${received} bytes (truncated response)`, 'the service or a proxy failed mid-answer; try again later'),
      'transient',
    );
  }

  /** Waits for the rate budget; Ctrl-C and the deadline end the wait. */
  private async takeBudget(): Promise<void | (() => Promise<void>)> {
    const { budget, signal } = this.config;
    if (!budget) return;
    const left = this.deadline - Date.now();
    if (left <= 0) throw new AttemptFailed(this.deadlineError(), 'final');
    const deadline = AbortSignal.timeout(left);
    try {
      return await budget.take(AbortSignal.any([signal, deadline]));
    } catch (error) {
      if (signal.aborted) throw interrupted(signal);
      if (deadline.aborted) throw new AttemptFailed(this.deadlineError(), 'final');
      throw error;
    }
  }

  /** Turns a final response into data or a typed error. `data` arrives as text. */
  private settle(prepared: PreparedRequest, response: ApiResponse): ApiResponse {
    const { status, headers } = response;
    const text = typeof response.data === 'string' ? response.data : '';
    const where = `${prepared.method} ${prepared.url.pathname}`;
    if (status >= 300 && status < 400) {
      throw new ServerError(
        `${where}: the server answered ${status} with a redirect${headers.location ? ` to ${this.clean(headers.location)}` : ''}; redirects are not followed so the key never travels to another host`,
        'check the base URL of the profile (mon profile show)',
      );
    }
    if (status === 204 || (status < 300 && text.trim() === '' && prepared.method === 'DELETE')) {
      return { status, headers, data: undefined };
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      if (status < 300 || status >= 500) {
        const kind = headers['content-type']?.split(';')[0] ?? 'no content type';
        const gist = printable(text).slice(0, 60);
        const html = /html/i.test(kind) || /^\s*</.test(text);
        const truncated = !html && /^\s*[[{]/.test(text);
        throw new ServerError(
          `${where}: the server answered ${status} with ${truncated ? 'JSON that breaks off (truncated response)' : `a body that is not JSON (${kind}${gist ? `: ${this.clean(gist)}` : ''})`}`,
          html ? 'an HTML page usually comes from a proxy, a captive portal or a wrong base URL: check it with `mon profile show`' : 'the service or a proxy failed mid-answer; try again later',
        );
      }
      data = undefined;
    }
    if (status >= 200 && status < 300) {
      const mismatch = prepared.route ? checkResponse(prepared.route, data) : undefined;
      if (mismatch) throw new ServerError(`${where}: the response does not have the documented shape (${this.clean(mismatch)})`);
      return { status, headers, data };
    }
    throw this.statusError(where, status, data, headers);
  }

  private statusError(where: string, status: number, data: unknown, headers: Record<string, string>): MonError {
    const parsed = ApiErrorBody.safeParse(data);
    const entries = parsed.success ? parsed.data : [];
    const said = entries
      .map((entry) => {
        const text = [entry.title, entry.details].filter(Boolean).join(': ') || entry.code || '';
        return entry.attribute ? `${entry.attribute}: ${text}` : text;
      })
      .filter(Boolean)
      .join('; ');
    const message = this.clean(`${where}: ${status}${said ? ` ${said}` : ''}`);
    if (status === 401) return new AuthError(message, 'the API key or subdomain is not valid: check them with `mon profile test`');
    if (status === 403) return new AuthError(message, 'the key is valid but has no permission for this item');
    if (status === 404) return new NotFoundError(message);
    if (status === 400 || status === 422) return new RejectedError(message);
    if (status === 429) {
      const after = this.retryAfter(headers['retry-after']);
      const when = after === undefined ? 'in a minute' : `in ${Math.ceil(after / 1000)} s`;
      return new RateLimitError(`${message} (rate limit: 400 requests per minute)`, `try again ${when}`);
    }
    if (status >= 500) return new ServerError(message, 'the service failed; try again later');
    // Other 4xx (405 for a wrong method through `mon api`, 409, 413…): the server refused the
    // request as sent, which is what exit 5 tells a script.
    if (status >= 400) return new RejectedError(message);
    return new ServerError(`${message} (unexpected status)`);
  }

  private timeoutError(answered: boolean): NetworkError {
    const host = this.base.host;
    const seconds = this.config.timeoutMs / 1000;
    return new NetworkError(
      answered ? `${host} started to answer but did not finish within ${seconds} s` : `no answer from ${host} within ${seconds} s`,
      'raise --timeout (or MON_TIMEOUT) if the service is slow',
    );
  }

  private deadlineError(): NetworkError {
    const seconds = Math.round((this.config.deadlineMs ?? DEFAULT_DEADLINE_MS) / 1000);
    return new NetworkError(`the command did not finish within its deadline of ${seconds} s`, 'raise MON_DEADLINE (seconds) if it needs longer');
  }

  /** undici's errors (which can carry the URL, and so the key) become one clean line. */
  private networkError(error: unknown): AttemptFailed {
    const host = this.base.host;
    const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code ?? '';
    const message = String((error as Error | undefined)?.message ?? '');
    if (/TIMEOUT/.test(code)) return new AttemptFailed(this.timeoutError(code === 'UND_ERR_BODY_TIMEOUT'), 'final');
    if (TLS_CODES.has(code) || /certificate/i.test(message)) {
      return new AttemptFailed(
        new NetworkError(
          `TLS: the certificate of ${host} is not trusted (${code || 'verification failed'})`,
          'if a proxy or private CA signs it, point NODE_EXTRA_CA_CERTS at its certificate file',
        ),
        'final',
      );
    }
    // A name the resolver says does not exist will not exist a second later (cli-contract.md:
    // not retried); EAI_AGAIN is the resolver failing for now, and is.
    if (code === 'ENOTFOUND') {
      return new AttemptFailed(new NetworkError(`cannot reach ${host}: host not found`, `check the host name of the base URL (from ${this.config.baseUrlSource})`), 'final');
    }
    const unsent = code === 'ECONNREFUSED' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH';
    const reason =
      code === 'ECONNREFUSED' ? 'connection refused'
      : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' ? 'connection reset'
      : code || message || 'network error';
    return new AttemptFailed(new NetworkError(`cannot reach ${host}: ${this.clean(reason)}`), unsent ? 'unsent' : 'transient');
  }

  private clean(text: string): string {
    return redact(text, this.config.apiKey);
  }

  /** Exponential backoff with full jitter: 0..base·2^attempt, at most 8 s. */
  private backoff(attempt: number): number {
    const base = this.config.backoffMs ?? 500;
    return Math.round(Math.random() * Math.min(8_000, base * 2 ** attempt)) + base / 2;
  }

  /** Retry-After in seconds or as an HTTP date (RFC 9110), in ms from now. */
  private retryAfter(value: string | undefined): number | undefined {
    if (!value) return undefined;
    if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
  }

  /**
   * Waits before a retry. False, at once, when the retry could not end before the deadline
   * (the caller then reports the failure it has).
   */
  private async pause(ms: number): Promise<boolean> {
    if (this.closed) return false;
    if (Date.now() + ms + Math.min(this.config.timeoutMs, 1_000) > this.deadline) return false;
    try {
      await sleep(ms, undefined, { signal: this.config.signal });
    } catch {
      throw interrupted(this.config.signal);
    }
    return true;
  }
}

/** Says how many attempts a final failure took, when there were more than one. */
function attempts(error: MonError, attempt: number): MonError {
  if (attempt > 0) error.message = `${error.message} (after ${attempt + 1} attempts)`;
  return error;
}

/** Text of a body safe to quote on one line: no control characters, white space squeezed. */
function printable(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function interrupted(signal: AbortSignal): InterruptedError {
  return new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function numberHeader(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The last page to fetch: x-total-pages when sent, else from x-total, else only the first. */
function lastPageOf(first: Page, firstPage: number, perPage: number, offset?: number): number {
  // With --offset the pages are counted from the offset, not from record 1.
  if (offset !== undefined && first.total !== undefined) return firstPage - 1 + Math.ceil((first.total - offset) / perPage);
  const totalPages = numberHeader(first.headers['x-total-pages']);
  if (totalPages !== undefined) return totalPages;
  if (first.total !== undefined) return Math.ceil(first.total / perPage);
  // No headers at all: a full page may have more behind it; follow x-next-page or stop.
  const next = numberHeader(first.headers['x-next-page']);
  return next ?? (first.items.length >= perPage ? firstPage + 1 : firstPage);
}
