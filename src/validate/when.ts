/**
 * The largest whole number the API takes: its integers are 32 bits (api-v2.5, General
 * conventions 6). Past 2^53 a JavaScript number would not even hold the value typed, and past
 * 1e21 it would be sent as `1e+21`.
 */
export const MAX_INT32 = 2_147_483_647;

/** Largest time the API's 32-bit integers hold (api-v2.5, General conventions 6). */
export const MAX_EPOCH_SECONDS = MAX_INT32;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** A duration (90m, 2h, 7d, 1h30m, 2w) in seconds, or undefined when `text` is not one. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (!/^(?:\d+[smhdw])+$/.test(value)) return undefined;
  return value
    .match(/\d+[smhdw]/g)!
    .reduce((sum, part) => sum + Number(part.slice(0, -1)) * UNIT_SECONDS[part.slice(-1)]!, 0);
}

/** An ISO 8601 time as --timed and --since take it: a date, then a time and an offset if given. */
export const ISO_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Reads WHEN of `plugin mute --timed [WHEN]`: a duration from now (90m, 2h, 7d, 1h30m), an
 * ISO 8601 time, or epoch seconds. Returns epoch seconds, or undefined when unreadable.
 * With `direction` -1 a duration counts back from now (`alerts --since 2h`).
 */
export function parseWhen(text: string, nowMs: number, direction: 1 | -1 = 1): number | undefined {
  const value = text.trim();
  if (/^\d{9,}$/.test(value)) return Number(value);
  const seconds = parseDuration(value);
  if (seconds !== undefined) return Math.floor(nowMs / 1000) + direction * seconds;
  const ms = isoTimeMs(value);
  return ms === undefined ? undefined : Math.floor(ms / 1000);
}

/**
 * Epoch ms of an ISO 8601 time (ISO_TIME), read in local time unless it carries an offset: a
 * date alone is its local midnight, as `2026-03-31T00:00` is. Undefined for a day or a time
 * that does not exist (2030-02-31, 24:00, 10:60), which Date.parse would move to another day.
 */
export function isoTimeMs(text: string): number | undefined {
  const match = ISO_TIME.exec(text);
  const date = match ? parseDate(match[1]!) : undefined;
  if (!match || !date) return undefined;
  const [hour, minute, second] = [match[2], match[3], match[4]].map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
  ];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Math.floor(Number(match[5] ?? 0) * 1000);
  const offset = match[6];
  const at = new Date(0);
  if (offset === undefined) {
    at.setFullYear(date.year, date.month - 1, date.day);
    at.setHours(hour, minute, second, ms);
    return at.getTime();
  }
  at.setUTCFullYear(date.year, date.month - 1, date.day);
  at.setUTCHours(hour, minute, second, ms);
  if (offset === 'Z') return at.getTime();
  const [offsetHours, offsetMinutes] = [Number(offset.slice(1, 3)), Number(offset.slice(-2))];
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  return at.getTime() - (offset.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** Reads a strict YYYY-MM-DD calendar date; undefined for anything else (2026-02-30 too). */
export function parseDate(text: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return { year, month, day };
}

/** How many days `month` (1 to 12) of `year` has; any year, 0000 too (Date.UTC reads 0 to 99 as 1900 to 1999). */
export function daysIn(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

const DAY_SECONDS = 86_400;

/**
 * Epoch seconds of a YYYY-MM-DD date's UTC midnight, or with `endOfDay` of its last second (so
 * `--expires-end 2026-06-30` includes the whole 30th); undefined outside what the API's 32-bit
 * times hold (1970-01-01 to 2038-01-19; the end of that last day is clamped to the largest).
 */
export function dayToEpoch(date: { year: number; month: number; day: number }, endOfDay: boolean): number | undefined {
  const at = new Date(0);
  at.setUTCFullYear(date.year, date.month - 1, date.day);
  const midnight = at.getTime() / 1000;
  if (midnight < 0 || midnight > MAX_EPOCH_SECONDS) return undefined;
  return endOfDay ? Math.min(midnight + DAY_SECONDS - 1, MAX_EPOCH_SECONDS) : midnight;
}
