import {
  AuthError,
  InterruptedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  RejectedError,
  ServerError,
  type MonError,
} from '../errors.js';
import type { Clock } from '../clock.js';
import { deadlineError } from '../time/deadline.js';
import { failedAtProxy, type Proxy } from './proxy.js';
import { encodeForm } from './encode.js';
import type { HttpMethod, RouteName } from './endpoints.js';
import { shortened } from '../text/escape.js';
import { redact, REDACTED } from './redact.js';
import { DEFAULT_MAX_RESPONSE_BYTES, readCapped, TooLarge, Unreadable } from './response-cap.js';
import { ApiErrorBody } from './schemas/common.js';
import { checkResponse } from './schemas/index.js';
import type { Dispatcher } from './undici.js';

/** The most of one text a server sent (an error's title and details, a redirect's target) that a message shows. */
const SERVER_TEXT_MAX = 300;

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

/**
 * How an attempt that failed may be repeated: `unsent` when nothing can have reached the
 * server (refused connection, unknown host), so even a creating POST may go again; `transient`
 * when the server may have acted (reset, cut body), so only requests that are safe to repeat
 * go again; `final` when another attempt cannot help (TLS, timeout, deadline).
 */
export type Repeat = 'unsent' | 'transient' | 'final';

/** An attempt that failed, with whether another may help. */
export class AttemptFailed extends Error {
  constructor(
    readonly error: MonError,
    readonly repeat: Repeat,
  ) {
    super(error.message);
  }
}

/** What one attempt needs to know; none of it changes between attempts. */
export interface AttemptSettings {
  dispatcher: Dispatcher;
  apiKey: string;
  userAgent: string;
  /** host[:port] of the base URL, for messages. */
  host: string;
  /** Where the base URL came from ("profile acme", "--base-url"), for messages. */
  baseUrlSource: string;
  /** The proxy the environment names for the base URL's scheme, and where the base URL points, for messages. */
  proxy?: { proxy: Proxy; target: { hostname: string; port: number } };
  timeoutMs: number;
  /** The most one response may be (MON_MAX_RESPONSE): reading stops there. Default 32 MiB. */
  maxResponseBytes?: number;
  /** The whole command's deadline (MON_DEADLINE), for its message. */
  deadlineMs: number;
  signal: AbortSignal;
  clock: Clock;
  /** One line per request for --verbose; lines never contain the key. */
  log?: (line: string) => void;
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * The request as --dry-run and --verbose print it: method, URL and form fields, with the key
 * redacted wherever it is, even where the user typed it (a path, a field), as --verbose says it.
 */
export function describe(
  prepared: PreparedRequest,
  apiKey?: string,
): { method: string; url: string; form: [string, string][] } {
  const url = new URL(prepared.url);
  const form = prepared.form.map(([name, value]): [string, string] => [redact(name, apiKey), redact(value, apiKey)]);
  if (prepared.method === 'GET') url.searchParams.append('api_key', REDACTED);
  else form.push(['api_key', REDACTED]);
  return {
    method: prepared.method,
    url: redact(url.toString(), apiKey).replace(/%5B/g, '[').replace(/%5D/g, ']'),
    form,
  };
}

/**
 * One attempt, after the rate budget said yes: sends with the key, reads the whole body within
 * the timeout (connect, headers and body alike) or within `leftMs`, what is left of the
 * command's deadline. Failures come out as AttemptFailed (or InterruptedError on Ctrl-C);
 * nothing it throws carries the key. The body is returned as text: see settle().
 */
export async function attempt(
  settings: AttemptSettings,
  prepared: PreparedRequest,
  leftMs: number,
): Promise<ApiResponse> {
  const { signal, timeoutMs, apiKey, clock, log } = settings;
  if (signal.aborted) throw interrupted(signal);
  if (leftMs <= 0) throw new AttemptFailed(deadlineError(settings.deadlineMs), 'final');
  const url = new URL(prepared.url);
  const headers: Record<string, string> = { 'user-agent': settings.userAgent, accept: 'application/json' };
  let body: string | undefined;
  if (prepared.method === 'GET') {
    url.searchParams.append('api_key', apiKey);
  } else {
    body = encodeForm([...prepared.form, ['api_key', apiKey]]);
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const byDeadline = leftMs < timeoutMs;
  const timeout = AbortSignal.timeout(Math.min(timeoutMs, leftMs));
  const started = clock.now();
  // As --dry-run shows it: the key's place marked [REDACTED], so a reader sees it was sent.
  const shownUrl = describe(prepared, apiKey).url;
  let status: number | undefined;
  let received = 0;
  try {
    const response = await settings.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: prepared.method,
      headers,
      body,
      signal: AbortSignal.any([signal, timeout]),
    });
    status = response.statusCode;
    const text = await readCapped(
      response.body,
      settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      response.headers,
      (bytes) => (received += bytes),
    );
    log?.(`${prepared.method} ${shownUrl} ${status} (${clock.now() - started} ms)`);
    return { status, headers: flatHeaders(response.headers), data: text };
  } catch (error) {
    if (error instanceof TooLarge) {
      log?.(
        `${prepared.method} ${shownUrl} ${status}, ${error.message}: reading stopped (${clock.now() - started} ms)`,
      );
      // Not retried: the next answer would be as large, and each costs the download again.
      throw new AttemptFailed(
        new ServerError(
          `${prepared.method} ${prepared.url.pathname}: ${error.message}, the most one response may be; reading stopped`,
          'raise MON_MAX_RESPONSE (bytes, or with K, M or G) if the account really needs more',
        ),
        'final',
      );
    }
    if (error instanceof Unreadable) {
      log?.(`${prepared.method} ${shownUrl} ${status}, ${error.message} (${clock.now() - started} ms)`);
      throw new AttemptFailed(
        new ServerError(
          `${prepared.method} ${prepared.url.pathname}: the server answered ${status} with ${error.message}`,
          'the service, or a proxy between, changed the answer',
        ),
        'final',
      );
    }
    log?.(
      `${prepared.method} ${shownUrl} ${status === undefined ? 'failed' : `${status}, body cut off`} (${clock.now() - started} ms)`,
    );
    if (signal.aborted) throw interrupted(signal);
    // undici's SOCKS5 handshake keeps its own 5 s past the request's timeout: a proxy that went
    // quiet is named as the proxy, not as the API's host that never answered.
    if (timeout.aborted && !isSocksFailure(error)) {
      throw new AttemptFailed(
        byDeadline ? deadlineError(settings.deadlineMs) : timeoutError(settings, status !== undefined),
        'final',
      );
    }
    if (status !== undefined) {
      // The server answered, then the body broke off: not the JSON the API promises (exit 7).
      throw new AttemptFailed(
        new ServerError(
          `${prepared.method} ${prepared.url.pathname}: the server answered ${status}, then the body broke off after ${received} bytes (truncated response)`,
          'the service or a proxy failed mid-answer; try again later',
        ),
        'transient',
      );
    }
    throw networkError(settings, error);
  }
}

/**
 * Turns a final response into data or a typed error. `data` arrives as text; `now` dates a
 * Retry-After given as an HTTP date.
 */
export function settle(prepared: PreparedRequest, response: ApiResponse, apiKey: string, now: number): ApiResponse {
  const { status, headers } = response;
  const clean = (text: string) => redact(text, apiKey);
  const text = typeof response.data === 'string' ? response.data : '';
  const where = `${prepared.method} ${prepared.url.pathname}`;
  if (status >= 300 && status < 400) {
    throw new ServerError(
      `${where}: the server answered ${status} with a redirect${headers.location ? ` to ${shortened(headers.location, SERVER_TEXT_MAX, clean)}` : ''}; redirects are not followed so the key never travels to another host`,
      'check the base URL of the profile (mon profile show)',
    );
  }
  // No body is an answer only to a DELETE (and to `mon api`, which knows no promise): a read or
  // write answered 204 has not given what the API promises (exit 7), whatever it looks like.
  if (
    status >= 200 &&
    status < 300 &&
    text.trim() === '' &&
    (prepared.method === 'DELETE' || (status === 204 && prepared.route === undefined))
  ) {
    return { status, headers, data: undefined };
  }
  if (status === 204) {
    throw new ServerError(
      `${where}: the server answered 204 with no body where the API sends JSON`,
      'the service or a proxy answered wrongly; try again later',
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    if (status < 300 || status >= 500) {
      const kind = headers['content-type']?.split(';')[0] ?? 'no content type';
      const gist = clean(printable(text.slice(0, 1000))).slice(0, 60);
      const html = /html/i.test(kind) || /^\s*</.test(text);
      const truncated = !html && /^\s*[[{]/.test(text);
      throw new ServerError(
        `${where}: the server answered ${status} with ${truncated ? 'JSON that breaks off (truncated response)' : `a body that is not JSON (${kind}${gist ? `: ${gist}` : ''})`}`,
        html
          ? 'an HTML page usually comes from a proxy, a captive portal or a wrong base URL: check it with `mon profile show`'
          : 'the service or a proxy failed mid-answer; try again later',
      );
    }
    data = undefined;
  }
  if (status >= 200 && status < 300) {
    const mismatch = prepared.route ? checkResponse(prepared.route, data) : undefined;
    if (mismatch)
      throw new ServerError(
        `${where}: the response does not have the documented shape (${shortened(mismatch, SERVER_TEXT_MAX, clean)})`,
      );
    return { status, headers, data };
  }
  throw statusError(where, status, data, headers, clean, now);
}

function statusError(
  where: string,
  status: number,
  data: unknown,
  headers: Record<string, string>,
  clean: (text: string) => string,
  now: number,
): MonError {
  const parsed = ApiErrorBody.safeParse(data);
  const entries = parsed.success ? parsed.data : [];
  const said = entries
    .map((entry) => {
      const text = shortened(
        [entry.title, entry.details].filter(Boolean).join(': ') || entry.code || '',
        SERVER_TEXT_MAX,
        clean,
      );
      return entry.attribute ? `${entry.attribute}: ${text}` : text;
    })
    .filter(Boolean)
    .join('; ');
  const message = clean(`${where}: ${status}${said ? ` ${said}` : ''}`);
  if (status === 401)
    return new AuthError(message, 'the API key or subdomain is not valid: check them with `mon profile test`');
  if (status === 403) return new AuthError(message, 'the key is valid but has no permission for this item');
  if (status === 404) return new NotFoundError(message);
  if (status === 400 || status === 422) return new RejectedError(message);
  if (status === 429) {
    const after = retryAfter(headers['retry-after'], now);
    const when = after === undefined ? 'in a minute' : `in ${Math.ceil(after / 1000)} s`;
    return new RateLimitError(`${message} (rate limit: 400 requests per minute)`, `try again ${when}`);
  }
  if (status >= 500) return new ServerError(message, 'the service failed; try again later');
  // Other 4xx (405 for a wrong method through `mon api`, 409, 413…): the server refused the
  // request as sent, which is what exit 5 tells a script.
  if (status >= 400) return new RejectedError(message);
  return new ServerError(`${message} (unexpected status)`);
}

function timeoutError(settings: Pick<AttemptSettings, 'host' | 'timeoutMs'>, answered: boolean): NetworkError {
  const { host } = settings;
  const seconds = settings.timeoutMs / 1000;
  return new NetworkError(
    answered
      ? `${host} started to answer but did not finish within ${seconds} s`
      : `no answer from ${host} within ${seconds} s`,
    'raise --timeout (or MON_TIMEOUT) if the service is slow',
  );
}

/** undici's errors (which can carry the URL, and so the key) become one clean line. */
function networkError(settings: AttemptSettings, error: unknown): AttemptFailed {
  const { host } = settings;
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code ??
    '';
  const message = String((error as Error | undefined)?.message ?? '');
  if (/TIMEOUT/.test(code)) return new AttemptFailed(timeoutError(settings, code === 'UND_ERR_BODY_TIMEOUT'), 'final');
  if (TLS_CODES.has(code) || /certificate/i.test(message)) {
    return new AttemptFailed(
      new NetworkError(
        `TLS: the certificate of ${host} is not trusted (${code || 'verification failed'})`,
        'if a proxy or private CA signs it, point NODE_EXTRA_CA_CERTS at its certificate file',
      ),
      'final',
    );
  }
  // Any other TLS failure (a plain-http port behind an https URL, no common protocol or
  // cipher) is not transient: another attempt meets the same server.
  if (/^ERR_(SSL|TLS)_/.test(code) || (code === 'EPROTO' && /SSL|TLS/i.test(message))) {
    return new AttemptFailed(
      new NetworkError(
        `TLS: the connection to ${host} failed (${code})`,
        `check that the base URL (from ${settings.baseUrlSource}) names an https port, and that a proxy between does not intercept it`,
      ),
      'final',
    );
  }
  // An answer that is not HTTP/1.1 (a port that speaks another protocol, a proxy that mangles the
  // answer), or headers past Node's limit: another attempt meets the same answer.
  if (code.startsWith('HPE_') || (error as Error | undefined)?.name === 'HTTPParserError') {
    return new AttemptFailed(
      new NetworkError(
        `${host} did not answer in HTTP/1.1 (${redact(message, settings.apiKey)})`,
        `check the scheme and port of the base URL (from ${settings.baseUrlSource})`,
      ),
      'final',
    );
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new AttemptFailed(
      new NetworkError(
        `${host} answered with headers larger than Node takes (16 KB, or --max-http-header-size)`,
        'a proxy between may add them',
      ),
      'final',
    );
  }
  // A proxy (src/api/proxy.ts) is named by the variable it came from, never with its password.
  const proxy = settings.proxy?.proxy;
  const theProxy = proxy ? `the proxy ${proxy.where} (from ${proxy.source})` : 'the proxy';
  const target = settings.proxy?.target.hostname ?? host;
  const direct = `add ${target} to NO_PROXY to connect directly`;
  // The proxy answered the CONNECT that opens the tunnel with another status than 200 (undici's
  // message, test/api/undici-layout.test.ts): asking again meets the same answer.
  const refused = /^Proxy response \((\d+)\)/.exec(message)?.[1];
  if (refused !== undefined) {
    const hint =
      refused === '407'
        ? `the proxy asks for a user and password: give them in ${proxy?.source ?? 'HTTPS_PROXY'} as http://user:password@host:port`
        : `ask the proxy's administrator to let ${target} through, or ${direct}`;
    return new AttemptFailed(
      new NetworkError(`cannot reach ${host}: ${theProxy} refused the tunnel to it (${refused})`, hint),
      'final',
    );
  }
  const socks = socksFailure(code, message);
  if (socks !== undefined) {
    const variable = proxy?.source ?? 'the proxy variable';
    const hint =
      socks.kind === 'auth'
        ? `give a user and password in ${variable} as socks5://user:password@host:port`
        : socks.kind === 'protocol'
          ? `check that ${variable} names a SOCKS5 proxy and its port`
          : `check the proxy, or ${direct}`;
    return new AttemptFailed(
      new NetworkError(`cannot reach ${host}: ${theProxy} ${socks.said}`, hint),
      socks.kind === 'unreached' ? 'unsent' : 'final',
    );
  }
  if (code === 'UND_ERR_PRX_CONN') {
    return new AttemptFailed(
      new NetworkError(
        `cannot reach ${host}: ${theProxy} closed the connection instead of opening a tunnel to it (CONNECT)`,
        `check that the proxy tunnels HTTPS, or ${direct}`,
      ),
      'unsent',
    );
  }
  // The proxy, not the API's host, when the name or address that failed is the proxy's.
  const atProxy =
    settings.proxy !== undefined &&
    failedAtProxy(
      settings.proxy.proxy,
      settings.proxy.target,
      error as { hostname?: string; address?: string; port?: number },
    );
  const unreachable = atProxy ? theProxy : host;
  // A name the resolver says does not exist will not exist a second later (docs/design/cli-contract.md:
  // not retried); EAI_AGAIN is the resolver failing for now, and is.
  if (code === 'ENOTFOUND') {
    return new AttemptFailed(
      new NetworkError(
        `cannot reach ${unreachable}: host not found`,
        atProxy
          ? `check the host name in ${proxy?.source}`
          : `check the host name of the base URL (from ${settings.baseUrlSource})`,
      ),
      'final',
    );
  }
  const unsent = code === 'ECONNREFUSED' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH';
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE'
        ? 'connection reset'
        : code || message || 'network error';
  return new AttemptFailed(
    new NetworkError(
      `cannot reach ${unreachable}: ${redact(reason, settings.apiKey)}`,
      atProxy ? `check ${proxy?.source}, or ${direct}` : undefined,
    ),
    unsent ? 'unsent' : 'transient',
  );
}

/**
 * What a SOCKS5 proxy's failure means, from undici's code (UND_ERR_SOCKS5_*; a proxy that asks
 * for a password mon was not given is UND_ERR_INVALID_ARG): `auth`, `protocol`, `refused` (the
 * proxy will never connect there: not allowed, no such command) and `silent` (the handshake ran
 * out of time) are final; `unreached` (the proxy could not connect onwards: nothing reached the
 * API) is tried again.
 */
function socksFailure(
  code: string,
  message: string,
): { kind: 'auth' | 'protocol' | 'refused' | 'unreached' | 'silent'; said: string } | undefined {
  if (code === 'UND_ERR_INVALID_ARG' && /^Username and password required/.test(message))
    return { kind: 'auth', said: 'asks for a user and password' };
  // undici's own limit on the handshake, an Error without a code: final, as a timeout is.
  if (code === '' && /^SOCKS5 (authentication|connection) timeout$/.test(message))
    return { kind: 'silent', said: 'did not finish the SOCKS5 handshake within 5 s' };
  if (!code.startsWith('UND_ERR_SOCKS5')) return undefined;
  if (code.startsWith('UND_ERR_SOCKS5_AUTH')) return { kind: 'auth', said: 'refused the authentication' };
  const reply = /^UND_ERR_SOCKS5_REPLY_(\d+)$/.exec(code)?.[1];
  // undici's text for the proxy's reply code (RFC 1928): "SOCKS5 connection failed: Connection refused".
  const why = message.replace(/^SOCKS5 connection failed: /, '').toLowerCase();
  if (reply === '2' || reply === '7' || reply === '8')
    return { kind: 'refused', said: `refused the connection to it (${why})` };
  if (reply !== undefined) return { kind: 'unreached', said: `could not connect to it (${why})` };
  return { kind: 'protocol', said: 'did not answer as a SOCKS5 proxy' };
}

function isSocksFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return socksFailure(typeof code === 'string' ? code : '', typeof message === 'string' ? message : '') !== undefined;
}

/** Retry-After in seconds or as an HTTP date (RFC 9110), in ms from `now`. */
export function retryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Ctrl-C or SIGTERM, as the signal's reason says. */
export function interrupted(signal: AbortSignal): InterruptedError {
  return InterruptedError.of(signal);
}

/** Text of a body safe to quote on one line: no control characters, white space squeezed. */
function printable(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
