/**
 * Times as the API sends them, read into milliseconds: what the fleet commands, --changes and
 * the formatters all compare and show. Parsing only; formatting is src/output/format.ts.
 */

/** A number written as text: `1790000000`, `-3`, `12.5`. */
export const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * Milliseconds since the epoch, or undefined when `value` is not a time. Accepts epoch seconds
 * (number or numeric string, as the API documents) and ISO 8601 strings (a sample in the
 * reference returns last_report that way: api-v2.5, Computer).
 */
export function parseTime(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value * 1000 : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (NUMERIC.test(value.trim())) return Number(value) * 1000;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
