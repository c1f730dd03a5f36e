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
  return value.match(/\d+[smhdw]/g)!.reduce((sum, part) => sum + Number(part.slice(0, -1)) * UNIT_SECONDS[part.slice(-1)]!, 0);
}

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
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    const ms = Date.parse(value.replace(' ', 'T'));
    return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
  }
  return undefined;
}

/** Reads a strict YYYY-MM-DD calendar date; undefined for anything else (2026-02-30 too). */
export function parseDate(text: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

const DAY_SECONDS = 86_400;

/**
 * Epoch seconds of a YYYY-MM-DD date's UTC midnight, or with `endOfDay` of its last second (so
 * `--expires-end 2026-06-30` includes the whole 30th); undefined outside what the API's 32-bit
 * times hold (1970-01-01 to 2038-01-19; the end of that last day is clamped to the largest).
 */
export function dayToEpoch(date: { year: number; month: number; day: number }, endOfDay: boolean): number | undefined {
  const midnight = Date.UTC(date.year, date.month - 1, date.day) / 1000;
  if (midnight < 0 || midnight > MAX_EPOCH_SECONDS) return undefined;
  return endOfDay ? Math.min(midnight + DAY_SECONDS - 1, MAX_EPOCH_SECONDS) : midnight;
}
