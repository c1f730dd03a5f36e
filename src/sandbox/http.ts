/**
 * HTTP plumbing of the sandbox: parameters and bodies parsed, the JSON error shape, value
 * readers and pagination. Nothing here knows about resources.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Query string or form body, keys kept as sent ('group[name]', 'platform[]'); repeats become arrays. */
export type Params = Record<string, string | string[]>;

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** One entry of the error array (api-v2.5, Errors). `attribute` only on 422. */
export interface ErrorEntry {
  status_code: number;
  code: string;
  title: string;
  details: string;
  attribute?: string;
}

/** Thrown by handlers; the server turns it into the reference's JSON error array. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly attribute: string | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, details: string, attribute?: string, headers: Record<string, string> = {}) {
    super(details);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.attribute = attribute;
    this.headers = headers;
  }

  toBody(): ErrorEntry[] {
    const entry: ErrorEntry = {
      status_code: this.status,
      code: this.code,
      title: TITLES[this.status] ?? 'Error',
      details: this.message,
    };
    if (this.attribute !== undefined) entry.attribute = this.attribute;
    return [entry];
  }
}

export const missingParameter = (name: string): ApiError =>
  new ApiError(400, ':missing_parameter', `param is missing or the value is empty: ${name}`);
export const unpermittedParameter = (name: string): ApiError =>
  new ApiError(400, ':unpermitted_parameter', `found unpermitted parameter: ${name}`);
export const invalidParameter = (name: string, why: string): ApiError =>
  new ApiError(400, ':invalid_parameter', `${name} ${why}`);
export const unprocessable = (attribute: string, why: string): ApiError =>
  new ApiError(422, ':unprocessable_entity', `${attribute} ${why}`, attribute);
export const notFound = (details: string): ApiError => new ApiError(404, ':not_found', details);
export const forbidden = (details: string): ApiError => new ApiError(403, ':forbidden', details);
/** The service answers an over-long value with a 500 (api-v2.5, Limits); so does the sandbox. */
export const overLimit = (name: string, limit: number): ApiError =>
  new ApiError(500, ':internal_server_error', `${name} is longer than ${limit} characters`);

/** Adds one value under its key: a repeated key becomes an array, in order. */
function addParam(out: Params, key: string, value: string): void {
  const prev = out[key];
  if (prev === undefined) out[key] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else out[key] = [prev, value];
}

/** Parses a query string or a form body; repeated keys become arrays, in order. */
export function parseParams(text: string): Params {
  const out: Params = {};
  for (const [key, value] of new URLSearchParams(text)) addParam(out, key, value);
  return out;
}

/**
 * A JSON body as the service accepts it, flattened to the keys a form body would carry:
 * `{"computer": {"asset_id": "A-1"}}` -> `computer[asset_id]=A-1`, an array -> `key[]` repeated,
 * true/false/numbers as their text, null as an empty value (which clears an optional field or
 * counts as blank). The body must be a JSON object; deeper nesting keeps its brackets
 * (`a[b][c]`), which no endpoint permits.
 */
export function parseJsonParams(text: string): Params {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, ':bad_request', `the request body is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, ':bad_request', 'a JSON request body must be an object, e.g. {"note": {"body": "…"}}');
  }
  const out: Params = {};
  const put = (key: string, value: string): void => addParam(out, key, value);
  const scalar = (key: string, value: unknown): string => {
    if (value === null) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new ApiError(400, ':bad_request', `${key}: an array may hold only strings, numbers and booleans`);
  };
  const walk = (key: string, value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) put(`${key}[]`, scalar(key, item));
    } else if (typeof value === 'object' && value !== null) {
      for (const [sub, inner] of Object.entries(value)) walk(`${key}[${sub}]`, inner);
    } else {
      put(key, scalar(key, value));
    }
  };
  for (const [key, value] of Object.entries(parsed)) walk(key, value);
  return out;
}

/**
 * A multipart/form-data body (`curl -F 'computer[asset_id]=X'`), read as a web framework reads
 * it: each part is a parameter under its name, as a form-encoded body would carry it; a file
 * part counts as its text. Parsed by Node's own fetch `Response.formData()`; a body that is not
 * valid multipart (no boundary, truncated) is 400 `:bad_request`.
 */
export async function parseMultipartParams(raw: Buffer, contentType: string): Promise<Params> {
  let data: FormData;
  try {
    data = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch (err) {
    throw new ApiError(
      400,
      ':bad_request',
      `the multipart/form-data body could not be read: ${(err as Error).message}`,
    );
  }
  const out: Params = {};
  for (const [key, entry] of data) {
    addParam(out, key, typeof entry === 'string' ? entry : await entry.text());
  }
  return out;
}

/**
 * Parameters of a request body: form-encoded (api-v2.5 conventions 7) or JSON with the same
 * keys nested as objects, as the service accepts; any other type is 400.
 */
export async function parseBodyParams(req: IncomingMessage, raw: Buffer): Promise<Params> {
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

/** Reads the whole body; over `maxBytes` is a 413 (the largest legal value, a note body, is 16 MiB). */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      throw new ApiError(413, ':payload_too_large', `request body is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A scalar parameter; when a scalar is repeated the last value wins (as Rails does). */
export function one(params: Params, key: string): string | undefined {
  const v = params[key];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** Every value of the given keys ('platform' and 'platform[]' both count). */
export function many(params: Params, ...keys: string[]): string[] {
  const out: string[] = [];
  for (const key of keys) {
    const v = params[key];
    if (v === undefined) continue;
    if (Array.isArray(v)) out.push(...v);
    else out.push(v);
  }
  return out;
}

/** Length in characters (code points), as the reference's limits count them. */
export function charLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Parses booleans the way form posts send them: true/false, 1/0, yes/no (any case). */
export function parseBoolean(value: string): boolean | undefined {
  switch (value.trim().toLowerCase()) {
    case 'true':
    case '1':
    case 'yes':
      return true;
    case 'false':
    case '0':
    case 'no':
      return false;
    default:
      return undefined;
  }
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD to epoch seconds at 00:00 UTC; undefined when not a real calendar date (any year, 0050 too). */
export function parseDate(value: string): number | undefined {
  const m = DATE_RE.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return undefined;
  return at.getTime() / 1000;
}

/** Epoch seconds given as digits, or a YYYY-MM-DD date (the samples send both). */
export function parseEpochOrDate(value: string): number | undefined {
  const v = value.trim();
  if (/^-?\d+$/.test(v)) return Number(v);
  return parseDate(v);
}

export const INT32_MAX = 2_147_483_647;

// ---------------------------------------------------------------------------------------------
// Pagination (api-v2.5, Limits): page default 1, per_page default 50 and at most 100,
// offset 5 starts at record 6, and the x- headers on every list.

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  perPage: number;
  /** index of the first record returned */
  start: number;
  page: number;
  offsetGiven: boolean;
}

function positiveInt(params: Params, name: string, min: number): number | undefined {
  const raw = one(params, name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) throw invalidParameter(name, `must be an integer >= ${min}`);
  const n = Number(raw.trim());
  if (n < min || !Number.isSafeInteger(n)) throw invalidParameter(name, `must be an integer >= ${min}`);
  return n;
}

/**
 * per_page above 100 is clamped to 100; offset, when given, wins over page and the reported
 * x-page is the page that holds the first returned record (see src/sandbox/README.md).
 */
export function parsePagination(params: Params): PageRequest {
  const perPage = Math.min(positiveInt(params, 'per_page', 1) ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const offset = positiveInt(params, 'offset', 0);
  if (offset !== undefined) {
    return { perPage, start: offset, page: Math.floor(offset / perPage) + 1, offsetGiven: true };
  }
  const page = positiveInt(params, 'page', 1) ?? 1;
  return { perPage, start: (page - 1) * perPage, page, offsetGiven: false };
}

export interface PageResult<T> {
  items: T[];
  headers: Record<string, string>;
}

/** Slices one page and computes the lower-case x- headers; empty string when there is no next/prev page. */
export function paginate<T>(all: readonly T[], req: PageRequest): PageResult<T> {
  const total = all.length;
  const totalPages = Math.ceil(total / req.perPage);
  const items = all.slice(req.start, req.start + req.perPage);
  const hasNext = req.start + req.perPage < total;
  const hasPrev = req.start > 0;
  return {
    items,
    headers: {
      'x-page': String(req.page),
      'x-per-page': String(req.perPage),
      'x-offset': String(req.start),
      'x-next-page': hasNext ? String(req.page + 1) : '',
      'x-prev-page': hasPrev && req.page > 1 ? String(req.page - 1) : '',
      'x-total': String(total),
      'x-total-pages': String(totalPages),
    },
  };
}

/** Writes a JSON body (every response of the API is JSON, api-v2.5 conventions 2); 204 has none. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
