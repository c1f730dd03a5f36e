/**
 * A whole answer turned into data or a typed error (errors.ts): redirects, empty bodies, bodies
 * that are not JSON, the documented shape of a success, and the API's error entries.
 */
import { AuthError, NotFoundError, RateLimitError, RejectedError, ServerError, type MonError } from '../errors.js';
import { shortened } from '../text/escape.js';
import type { ApiResponse, PreparedRequest } from './attempt.js';
import { redact } from './redact.js';
import { ApiErrorBody } from './schemas/common.js';
import { checkResponse } from './schemas/index.js';

/** The most of one text a server sent (an error's title and details, a redirect's target) that a message shows. */
const SERVER_TEXT_MAX = 300;

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

/** Retry-After in seconds or as an HTTP date (RFC 9110), in ms from `now`. */
export function retryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Text of a body safe to quote on one line: no control characters, white space squeezed. */
function printable(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
