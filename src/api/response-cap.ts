import { UsageError } from '../errors.js';
import { quoted } from '../output/escape.js';

/**
 * The most one response may be. The largest real answer is a page of 100 computers with their
 * plugin results expanded: a few MB. 32 MiB leaves a wide margin, and still stops a body without
 * end (a broken proxy, a hostile server) long before it costs the machine its memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** MON_MAX_RESPONSE: bytes, or with K, M or G (1024-based), from 1K to 4G; unset: the default. */
export function maxResponseFromEnv(env: Record<string, string | undefined>): number {
  const text = env.MON_MAX_RESPONSE?.trim();
  if (!text) return DEFAULT_MAX_RESPONSE_BYTES;
  const match = /^(\d+)([KMG]?)i?B?$/i.exec(text);
  const bytes = match ? Number(match[1]) * UNITS[match[2]!.toUpperCase()]! : Number.NaN;
  if (!(bytes >= 1024 && bytes <= 4 * 1024 ** 3)) {
    throw new UsageError(`MON_MAX_RESPONSE: must be a size in bytes, or with K, M or G, from 1K to 4G (got ${quoted(text)})`);
  }
  return bytes;
}

/** `33554432` -> `32 MiB`, for messages. */
export function sizeText(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
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
 * Reads a body to its end as UTF-8 text (without a leading byte order mark), never holding more
 * than `cap` bytes: a Content-Length over the cap is refused before reading, and a body that
 * passes it (chunked, without end) is left at once. `received` is told every chunk's size, for
 * messages about bodies cut short.
 */
export async function readCapped(
  body: AsyncIterable<unknown>,
  cap: number,
  contentLength: string | string[] | undefined,
  received: (bytes: number) => void = () => undefined,
): Promise<string> {
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
  const text = Buffer.concat(chunks, total).toString('utf8');
  // A byte order mark before the JSON (some servers and proxies add one): RFC 8259 lets a parser
  // ignore it, and JSON.parse would not.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
