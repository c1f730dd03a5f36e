import { UsageError } from '../errors.js';
import { quoted } from '../text/escape.js';

/**
 * The most one response may be. The largest real answer is a page of 100 computers with their
 * plugin results expanded: a few MB. 32 MiB leaves a wide margin, and still stops a body without
 * end (a broken proxy, a hostile server) long before it costs the machine its memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/**
 * The most MON_MAX_RESPONSE may raise the cap to: an answer is read as text, and V8 holds no
 * string of 512 MiB or more (2^29 - 24 characters). Past that, a body was a fatal error of V8
 * (a native stack, exit 133), or a whole body reported as one that broke off.
 */
export const MAX_RESPONSE_CAP = 500 * 1024 ** 2;

/** MON_MAX_RESPONSE: bytes, or with K, M or G (1024-based), from 1K to 500M; unset: the default. */
export function maxResponseFromEnv(env: Record<string, string | undefined>): number {
  const text = env.MON_MAX_RESPONSE?.trim();
  if (!text) return DEFAULT_MAX_RESPONSE_BYTES;
  const match = /^(\d+)([KMG]?)i?B?$/i.exec(text);
  const bytes = match ? Number(match[1]) * UNITS[match[2]!.toUpperCase()]! : Number.NaN;
  if (!(bytes >= 1024 && bytes <= MAX_RESPONSE_CAP)) {
    throw new UsageError(
      `MON_MAX_RESPONSE: must be a size in bytes, or with K, M or G, from 1K to 500M, the most an answer read as text may be (got ${quoted(text)})`,
    );
  }
  return bytes;
}

/** `33554432` -> `32 MiB`, for messages. */
export function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** Raised by {@link readCapped} once a body passes the cap; the caller stops the request. */
export class TooLarge extends Error {
  constructor(readonly cap: number) {
    super(`the answer is larger than ${sizeText(cap)}`);
  }
}

/**
 * Raised by {@link readCapped} for a body it cannot turn into text: an encoding or charset it
 * does not read, or one that does not decode. Another attempt would get the same answer.
 */
export class Unreadable extends Error {}

/** What the response's headers say of its body. */
export interface BodyHeaders {
  'content-length'?: string | string[];
  'content-encoding'?: string | string[];
  'content-type'?: string | string[];
}

/**
 * Reads a body to its end as text, never holding more than `cap` bytes: a Content-Length over the
 * cap is refused before reading, and a body that passes it (chunked, without end) is left at once.
 * `received` is told every chunk's size, for messages about bodies cut short.
 *
 * mon asks for no compression and JSON is UTF-8 (RFC 8259), but some proxies compress anyway or
 * convert: a Content-Encoding that node:zlib reads (gzip, deflate, br, zstd where Node has it) is
 * decoded, to at most `cap` bytes again (a small body that inflates without end is stopped), and
 * a charset that Content-Type declares is honoured. A byte order mark before the JSON is left out.
 */
export async function readCapped(
  body: AsyncIterable<unknown>,
  cap: number,
  headers: BodyHeaders,
  received: (bytes: number) => void = () => undefined,
): Promise<string> {
  const contentLength = headers['content-length'];
  const declared = typeof contentLength === 'string' && /^\d+$/.test(contentLength) ? Number(contentLength) : undefined;
  if (declared !== undefined && declared > cap) throw new TooLarge(cap);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    total += bytes.length;
    received(bytes.length);
    if (total > cap) throw new TooLarge(cap);
    chunks.push(bytes);
  }
  const raw = Buffer.concat(chunks, total);
  const codings = codingsOf(one(headers['content-encoding']));
  const bytes = codings.length === 0 ? raw : await decoded(raw, codings, cap);
  const text = textOf(bytes, /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(one(headers['content-type']) ?? '')?.[1]);
  // A byte order mark before the JSON (some servers and proxies add one): RFC 8259 lets a parser
  // ignore it, and JSON.parse would not.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The most codings one body may carry (`gzip, br`), as undici's own decompressor allows. */
const MAX_CODINGS = 5;

/** The codings of a Content-Encoding, in the order they were applied (identity left out). */
function codingsOf(encoding: string | undefined): string[] {
  return (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** The body without its codings, decoded by node:zlib (loaded only for such a body). */
async function decoded(bytes: Buffer, codings: string[], cap: number): Promise<Buffer> {
  if (codings.length > MAX_CODINGS)
    throw new Unreadable(`${codings.length} content encodings, more than the ${MAX_CODINGS} mon decodes`);
  const zlib = await import('node:zlib');
  const options = { maxOutputLength: cap };
  const decoders: Record<string, ((input: Buffer) => Buffer) | undefined> = {
    gzip: (input) => zlib.gunzipSync(input, options),
    'x-gzip': (input) => zlib.gunzipSync(input, options),
    // "deflate" is zlib's format; some servers send the raw stream, which browsers read too.
    deflate: (input) => {
      try {
        return zlib.inflateSync(input, options);
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw error;
        return zlib.inflateRawSync(input, options);
      }
    },
    br: (input) => zlib.brotliDecompressSync(input, options),
    zstd:
      'zstdDecompressSync' in zlib
        ? (input) =>
            (zlib as unknown as { zstdDecompressSync: (b: Buffer, o: object) => Buffer }).zstdDecompressSync(
              input,
              options,
            )
        : undefined,
  };
  let out = bytes;
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    if (!decode) throw new Unreadable(`content encoding '${coding.slice(0, 40)}', which mon does not decode`);
    try {
      out = decode(out);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge(cap);
      throw new Unreadable(`a body that says it is ${coding} and does not decode as ${coding}`);
    }
  }
  return out;
}

/** The body as text, in the charset Content-Type names (UTF-8 when it names none). */
function textOf(bytes: Buffer, charset: string | undefined): string {
  if (charset === undefined || /^utf-?8$/i.test(charset)) return bytes.toString('utf8');
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new Unreadable(`charset '${charset.slice(0, 40)}', which mon does not read`);
  }
  return decoder.decode(bytes);
}
