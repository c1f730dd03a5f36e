import type { Range } from '../spec/spec.js';

/**
 * Threshold ranges of the Nagios plugin guidelines ("Threshold and ranges"): `[@]start:end`,
 * where start defaults to 0, `~` is minus infinity, an empty end is plus infinity, and a value
 * outside the range alerts (inside it with a leading `@`).
 *
 *   10      alert when < 0 or > 10       10:    alert when < 10
 *   ~:10    alert when > 10              10:20  alert when < 10 or > 20
 *   @10:20  alert when 10 <= value <= 20
 * The Range type is declared with the rules (src/spec/spec.ts), which name what each one reads.
 */
export type { Range };

const NUMBER = /^-?\d+(\.\d+)?$/;

/** Parses a range; undefined when `text` is not one (or its start lies above its end). */
export function parseRange(text: string): Range | undefined {
  const value = text.trim();
  const inside = value.startsWith('@');
  const body = inside ? value.slice(1) : value;
  const colon = body.indexOf(':');
  const startText = colon === -1 ? '0' : body.slice(0, colon);
  const endText = colon === -1 ? body : body.slice(colon + 1);
  const start =
    startText === '~'
      ? Number.NEGATIVE_INFINITY
      : startText === ''
        ? 0
        : NUMBER.test(startText)
          ? Number(startText)
          : undefined;
  const end =
    endText === '' && colon !== -1 ? Number.POSITIVE_INFINITY : NUMBER.test(endText) ? Number(endText) : undefined;
  if (start === undefined || end === undefined || start > end) return undefined;
  return { text: value, start, end, inside };
}

/** Whether `value` raises the alert this range stands for. */
export function breaches(range: Range, value: number): boolean {
  const within = value >= range.start && value <= range.end;
  return range.inside ? within : !within;
}
