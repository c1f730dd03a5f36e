import { ServerError, type InterruptedError } from '../errors.js';
import type { Clock } from '../clock.js';
import { deadlineError } from '../time/deadline.js';
import { AttemptFailed, interrupted } from './attempt-failed.js';
import { encodeForm } from './encode.js';
import type { HttpMethod, RouteName } from './endpoints.js';
import { isSocksFailure, networkError, timeoutError, type Destination } from './network-error.js';
import { redact, REDACTED } from './redact.js';
import { DEFAULT_MAX_RESPONSE_BYTES, readCapped, TooLarge, Unreadable } from './response-cap.js';
import type { Dispatcher } from './undici.js';

export { AttemptFailed, interrupted, type Repeat } from './attempt-failed.js';

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

/** What one attempt needs to know; none of it changes between attempts. */
export interface AttemptSettings extends Destination {
  dispatcher: Dispatcher;
  userAgent: string;
  /** The most one response may be (MON_MAX_RESPONSE): reading stops there. Default 32 MiB. */
  maxResponseBytes?: number;
  /** The whole command's deadline (MON_DEADLINE), for its message. */
  deadlineMs: number;
  signal: AbortSignal;
  clock: Clock;
  /** One line per request for --verbose; lines never contain the key. */
  log?: (line: string) => void;
}

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
 * nothing it throws carries the key. The body is returned as text: see settle() (settle.ts).
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
    throw failure(settings, prepared, error, {
      shownUrl,
      started,
      status,
      received,
      timedOut: timeout.aborted,
      byDeadline,
    });
  }
}

/** How far an attempt got before it failed. */
interface Progress {
  /** The URL as --verbose shows it. */
  shownUrl: string;
  /** When it started (the clock's ms). */
  started: number;
  /** The status, once the server answered. */
  status: number | undefined;
  /** Bytes of the body read. */
  received: number;
  /** The attempt's own timer ran out: the timeout, or what was left of the deadline (byDeadline). */
  timedOut: boolean;
  byDeadline: boolean;
}

/**
 * What a failed attempt throws, logged for --verbose: an AttemptFailed that says whether another
 * attempt may help, or InterruptedError on Ctrl-C.
 */
function failure(
  settings: AttemptSettings,
  prepared: PreparedRequest,
  error: unknown,
  { shownUrl, started, status, received, timedOut, byDeadline }: Progress,
): AttemptFailed | InterruptedError {
  const { signal, clock, log } = settings;
  if (error instanceof TooLarge) {
    log?.(`${prepared.method} ${shownUrl} ${status}, ${error.message}: reading stopped (${clock.now() - started} ms)`);
    // Not retried: the next answer would be as large, and each costs the download again.
    return new AttemptFailed(
      new ServerError(
        `${prepared.method} ${prepared.url.pathname}: ${error.message}, the most one response may be; reading stopped`,
        'raise MON_MAX_RESPONSE (bytes, or with K, M or G) if the account really needs more',
      ),
      'final',
    );
  }
  if (error instanceof Unreadable) {
    log?.(`${prepared.method} ${shownUrl} ${status}, ${error.message} (${clock.now() - started} ms)`);
    return new AttemptFailed(
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
  if (signal.aborted) return interrupted(signal);
  // undici's SOCKS5 handshake keeps its own 5 s past the request's timeout: a proxy that went
  // quiet is named as the proxy, not as the API's host that never answered.
  if (timedOut && !isSocksFailure(error)) {
    return new AttemptFailed(
      byDeadline ? deadlineError(settings.deadlineMs) : timeoutError(settings, status !== undefined),
      'final',
    );
  }
  if (status !== undefined) {
    // The server answered, then the body broke off: not the JSON the API promises (exit 7).
    return new AttemptFailed(
      new ServerError(
        `${prepared.method} ${prepared.url.pathname}: the server answered ${status}, then the body broke off after ${received} bytes (truncated response)`,
        'the service or a proxy failed mid-answer; try again later',
      ),
      'transient',
    );
  }
  return networkError(settings, error);
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
