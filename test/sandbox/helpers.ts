/**
 * Raw HTTP against the sandbox (global fetch, no mon code in between), so these tests check the
 * wire: status codes, headers and JSON bodies.
 */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

/** 2025-06-01 12:00:00 UTC: the fixed "today" of the conformance tests. */
export const NOW = Date.parse('2025-06-01T12:00:00Z');
export const NOW_SEC = NOW / 1000;
export const DAY = 86_400;

export type Value = string | number | boolean | readonly (string | number)[];
export type Fields = Record<string, Value | null | undefined>;

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A clock the test moves by hand. */
export class Clock {
  ms: number;
  constructor(ms = NOW) {
    this.ms = ms;
  }
  now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export function encode(fields: Fields): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) p.append(k, String(item));
    else p.append(k, String(v));
  }
  return p;
}

export class Api {
  constructor(
    readonly sandbox: RunningSandbox,
    /** null: send no api_key at all */
    readonly key: string | null = sandbox.apiKey,
  ) {}

  as(key: string | null): Api {
    return new Api(this.sandbox, key);
  }

  /** GET with the key in the query string. */
  get(path: string, query: Fields = {}): Promise<Res> {
    return this.raw('GET', path, { query: { ...query, api_key: this.key } });
  }

  /** POST/PUT/DELETE with the key and the fields in a form body, as the reference describes. */
  send(method: 'POST' | 'PUT' | 'DELETE' | 'PATCH', path: string, form: Fields = {}, query: Fields = {}): Promise<Res> {
    return this.raw(method, path, { query, form: { ...form, api_key: this.key } });
  }

  async raw(
    method: string,
    path: string,
    opts: { query?: Fields; form?: Fields; body?: string; headers?: Record<string, string> } = {},
  ): Promise<Res> {
    const qs = encode(opts.query ?? {}).toString();
    const url = `${this.sandbox.url}${path}${qs ? `?${qs}` : ''}`;
    // A connection each: one kept alive between two requests of a test would be closed by the
    // server after its keep-alive timeout (5 s), which a loaded machine can pass while a test builds
    // its next request (16 MB of form), and the next request would then be reset mid-send.
    const init: RequestInit = { method, headers: { connection: 'close', ...opts.headers } };
    if (opts.form) {
      init.body = encode(opts.form).toString();
      (init.headers as Record<string, string>)['content-type'] = 'application/x-www-form-urlencoded';
    } else if (opts.body !== undefined) {
      init.body = opts.body;
    }
    const res = await fetch(url, init);
    const text = await res.text();
    let body: unknown;
    if (text !== '') body = JSON.parse(text);
    return { status: res.status, headers: res.headers, text, body };
  }
}

/** Starts a sandbox on an ephemeral port with the fixed clock unless told otherwise. */
export async function start(
  options: SandboxOptions = {},
): Promise<{ sandbox: RunningSandbox; api: Api; clock: Clock }> {
  const clock = new Clock();
  const sandbox = await startSandbox({ port: 0, now: clock.now, ...options });
  return { sandbox, api: new Api(sandbox), clock };
}

/** The single error entry of an error response, checked for the reference's shape. */
export function errorOf(res: Res): any {
  if (!Array.isArray(res.body) || res.body.length < 1) throw new Error(`not an error array: ${res.text}`);
  const entry = res.body[0];
  if (entry.status_code !== res.status) throw new Error(`status_code ${entry.status_code} != HTTP ${res.status}`);
  for (const key of ['code', 'title', 'details']) {
    if (typeof entry[key] !== 'string') throw new Error(`error entry without ${key}: ${res.text}`);
  }
  return entry;
}

/** Every page of a list, following x-next-page. */
export async function allPages(api: Api, path: string, query: Fields = {}): Promise<unknown[]> {
  const out: unknown[] = [];
  let page = '1';
  for (let guard = 0; page !== '' && guard < 1000; guard++) {
    const res = await api.get(path, { ...query, page, per_page: 100 });
    if (res.status !== 200) throw new Error(`${path} page ${page}: ${res.status} ${res.text}`);
    out.push(...(res.body as unknown[]));
    page = res.headers.get('x-next-page') ?? '';
  }
  return out;
}
