import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OptionSpec, VerbSpec } from '../../src/spec/spec.js';
import { UsageError } from '../../src/errors.js';
import { checkInput } from '../../src/validate/input.js';
import { schemaFor } from '../../src/validate/rules.js';
import { MAX_EPOCH_SECONDS, dayToEpoch, daysIn, isoTimeMs, parseDate } from '../../src/validate/when.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
/** Characters of every width: ASCII, accents, CJK, emoji (two UTF-16 units, one character). */
const char = fc.constantFrom('a', 'Z', '7', ' ', 'é', '漢', '😀', '\n', ',', '"');
const chars = (min: number, max: number) =>
  fc.array(char, { minLength: min, maxLength: max }).map((list) => list.join(''));

/** A one-option verb, so checkInput can be driven the way the CLI drives it. */
function verbWith(option: OptionSpec): VerbSpec {
  return {
    name: 'test',
    summary: 'test',
    options: [option],
    examples: ['mon test'],
    run: async () => undefined,
  } as VerbSpec;
}

function rejection(verb: VerbSpec, opts: Record<string, unknown>): string {
  try {
    checkInput(verb, { args: {}, opts, rest: [] } as never, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('validators (property)', () => {
  it('text: up to max characters (counted as code points) passes unchanged; one more fails naming the option and the limit', () => {
    const verb = verbWith({ flags: '--custom-name <name>', description: 'x', rule: { type: 'text', max: 12 } });
    fc.assert(
      fc.property(chars(0, 12), (value) => {
        expect(
          checkInput(verb, { args: {}, opts: { customName: value }, rest: [] } as never, NOW).opts.customName,
        ).toBe(value);
      }),
    );
    fc.assert(
      fc.property(chars(13, 30), (value) => {
        expect(rejection(verb, { customName: value })).toBe(
          `--custom-name: at most 12 characters (got ${[...value].length})`,
        );
      }),
    );
  });

  it('text with nonEmpty: white space only is refused', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(' ', '\t', '\n'), { minLength: 0, maxLength: 5 }), (spaces) => {
        expect(schemaFor({ type: 'text', max: 255, nonEmpty: true }, NOW).safeParse(spaces.join('')).success).toBe(
          false,
        );
      }),
    );
  });

  it('int: every whole number in range passes as a number; outside it, or not digits, fails with the range', () => {
    const schema = schemaFor({ type: 'int', min: 1, max: 100 }, NOW);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (n) => {
        expect(schema.safeParse(String(n)).data).toBe(n);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 101, max: 10 ** 9 }), fc.constant(0)), (n) => {
        const result = schema.safeParse(String(n));
        expect(result.success).toBe(false);
        expect(result.error?.issues[0]?.message).toMatch(/from 1 to 100/);
      }),
    );
    fc.assert(
      fc.property(
        chars(0, 6).filter((s) => !/^\s*\d+\s*$/.test(s)),
        (s) => {
          expect(schema.safeParse(s).success).toBe(false);
        },
      ),
    );
  });

  it('uid: the prefix and at least one more character, no white space or URL syntax; anything else fails naming the kind', () => {
    const schema = schemaFor({ type: 'uid', prefix: 'n_' }, NOW);
    const tail = fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/);
    fc.assert(
      fc.property(tail, (t) => {
        expect(schema.safeParse(`n_${t}`).success).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          tail.map((t) => `g_${t}`),
          tail.map((t) => `n_${t}/x`),
          tail.map((t) => `n_ ${t}`),
          fc.constant('n_'),
        ),
        (bad) => {
          const result = schema.safeParse(bad);
          expect(result.success).toBe(false);
          expect(result.error?.issues[0]?.message).toMatch(/is not a note uid \(they start with n_\)/);
        },
      ),
    );
  });

  it('date: every real calendar day passes; a day past the end of its month fails', () => {
    const schema = schemaFor({ type: 'date' }, NOW);
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2037-12-31'), noInvalidDate: true }),
        (date) => {
          const text = date.toISOString().slice(0, 10);
          expect(schema.safeParse(text).success).toBe(true);
          expect(parseDate(text)).toEqual({
            year: date.getUTCFullYear(),
            month: date.getUTCMonth() + 1,
            day: date.getUTCDate(),
          });
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2037 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const text = `${year}-${String(month).padStart(2, '0')}-${days + 1}`;
        expect(schema.safeParse(text).success).toBe(false);
      }),
    );
  });

  it('when: a duration lands that far in the future (epoch seconds); the past and beyond 2038 fail', () => {
    const schema = schemaFor({ type: 'when' }, NOW);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_999 }),
        fc.constantFrom(['m', 60], ['h', 3_600], ['d', 86_400]),
        (n, [unit, seconds]) => {
          const expectedSeconds = Math.floor(NOW / 1000) + n * (seconds as number);
          const result = schema.safeParse(`${n}${unit as string}`);
          expect(result.success).toBe(expectedSeconds <= MAX_EPOCH_SECONDS);
          if (result.success) expect(result.data).toBe(expectedSeconds);
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000_000, max: Math.floor(NOW / 1000) }), (past) => {
        expect(schema.safeParse(String(past)).success).toBe(false);
      }),
    );
  });

  it('choices: anything outside the list fails, naming the option and the choices', () => {
    const verb = verbWith({ flags: '--status <status>', description: 'x', choices: ['OK', 'Warning', 'Alert'] });
    fc.assert(
      fc.property(
        chars(0, 8).filter((s) => !['OK', 'Warning', 'Alert'].includes(s)),
        (value) => {
          expect(rejection(verb, { status: value })).toBe(`--status: '${value}' is not one of OK, Warning, Alert`);
        },
      ),
    );
  });
});

describe('times of --timed and --since (isoTimeMs)', () => {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const moment = fc.record({
    year: fc.integer({ min: 1970, max: 2037 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
  });

  it('a time without an offset is local time, a date alone its local midnight; a day that does not exist is no time (never another day)', () => {
    fc.assert(
      fc.property(moment, ({ year, month, day, hour, minute, second }) => {
        const date = `${year}-${pad(month)}-${pad(day)}`;
        const text = `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
        const local = new Date(year, month - 1, day, hour, minute, second);
        if (local.getDate() !== day) {
          expect(isoTimeMs(text)).toBeUndefined();
          expect(isoTimeMs(date)).toBeUndefined();
          expect(parseDate(date)).toBeUndefined();
          return;
        }
        expect(isoTimeMs(text)).toBe(local.getTime());
        expect(isoTimeMs(date)).toBe(isoTimeMs(`${date}T00:00`));
      }),
    );
  });

  it('an offset is honoured: Z, +hh:mm and -hhmm name the same instant as UTC', () => {
    fc.assert(
      fc.property(moment, fc.integer({ min: -14 * 60, max: 14 * 60 }), ({ year, month, day, hour, minute }, offset) => {
        fc.pre(day <= daysIn(year, month));
        const text = `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}`;
        const utc = Date.UTC(year, month - 1, day, hour, minute);
        const sign = offset < 0 ? '-' : '+';
        const abs = Math.abs(offset);
        expect(isoTimeMs(`${text}Z`)).toBe(utc);
        expect(isoTimeMs(`${text}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`)).toBe(utc - offset * 60_000);
        expect(isoTimeMs(`${text}${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`)).toBe(utc - offset * 60_000);
      }),
    );
  });

  it.each([
    '2030-02-29',
    '2030-02-31T10:00',
    '2030-04-31',
    '2030-13-01',
    '2030-00-10',
    '2030-01-01T24:00',
    '2030-01-01T10:60',
    '2030-01-01T10:00:60',
    '2030-01-01T10:00+24:00',
  ])('%s is no time', (text) => expect(isoTimeMs(text)).toBeUndefined());

  it('the years 0000 to 0099 are those years, not 1900 to 1999 (Date.UTC would move them)', () => {
    expect(parseDate('0000-02-29')).toEqual({ year: 0, month: 2, day: 29 });
    expect(parseDate('0070-01-01')).toEqual({ year: 70, month: 1, day: 1 });
    expect(dayToEpoch({ year: 70, month: 1, day: 1 }, false)).toBeUndefined();
    expect(daysIn(1900, 2)).toBe(28);
    expect(daysIn(2000, 2)).toBe(29);
  });

  it.each([
    [
      '--timed',
      '2030-02-31',
      "'2030-02-31' does not exist: February 2030 has 28 days — the form is right, check the day",
    ],
    [
      '--timed',
      '2030-01-01T25:00',
      "'2030-01-01T25:00' is not a time of day that exists — hours are 00 to 23, minutes and seconds 00 to 59",
    ],
    [
      '--since',
      '2026-02-30',
      "'2026-02-30' does not exist: February 2026 has 28 days — the form is right, check the day",
    ],
    ['--since', '0000-13-01', "'0000-13-01' has no month 13 — the month is 01 to 12"],
  ])('%s %s: %s', (option, value, message) => {
    const rule = option === '--timed' ? ({ type: 'when' } as const) : ({ type: 'since' } as const);
    const parsed = schemaFor(rule, NOW).safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });
});
