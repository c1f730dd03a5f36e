import * as z from 'zod/mini';
import type { Rule } from '../spec/spec.js';
import { parseRange } from './range.js';
import { characters } from './text.js';
import {
  ISO_TIME,
  MAX_EPOCH_SECONDS,
  MAX_INT32,
  dayToEpoch,
  daysIn,
  parseDate,
  parseDuration,
  parseWhen,
} from './when.js';
import { quoted } from '../text/escape.js';

/** What each uid prefix names (api-v2.5, uid prefixes). */
export const UID_KINDS: Record<string, string> = {
  g_: 'group',
  c_: 'computer',
  e_: 'expiration',
  em_: 'expiration manufacturer',
  ep_: 'expiration product',
  n_: 'note',
  pr_: 'plugin result',
  u_: 'user',
};

/** 'an expiration', 'an item', but 'a user': the article of a kind of item, as a message says it. */
export function article(noun: string): string {
  return /^[aeio]/.test(noun) ? 'an' : 'a';
}

/**
 * The zod schema of a rule. Each one parses the text a user typed into the value sent to the
 * API, and fails with a message that states the rule (the caller prefixes the option's name).
 */
export function schemaFor(rule: Rule, nowMs: number): z.ZodMiniType<unknown, string> {
  return (SCHEMAS[rule.type] as SchemaOf<Rule['type']>)(rule as never, nowMs);
}

/** How a rule of one type becomes its schema. */
type SchemaOf<K extends Rule['type']> = (
  rule: Extract<Rule, { type: K }>,
  nowMs: number,
) => z.ZodMiniType<unknown, string>;

/** Each type of rule and its schema: one entry a type. */
const SCHEMAS: { [K in Rule['type']]: SchemaOf<K> } = {
  text: (rule) =>
    z.string().check(
      z.refine((v) => characters(v) <= rule.max, {
        error: (issue) => `at most ${rule.max} characters (got ${characters(issue.input as string)})`,
      }),
      z.refine((v) => !rule.nonEmpty || v.trim().length > 0, { error: 'must not be empty' }),
    ),
  email: (rule) =>
    z.string().check(
      z.refine((v) => characters(v) <= rule.max, { error: `at most ${rule.max} characters` }),
      z.refine((v) => z.email().safeParse(v).success, {
        error: (issue) => `${quoted(String(issue.input))} is not an e-mail address`,
      }),
    ),
  date: (rule) => {
    const date = z
      .string()
      .check(z.refine((v) => parseDate(v) !== undefined, { error: (issue) => dateProblem(String(issue.input)) }));
    if (!rule.epoch) return date;
    // The reference types these times as integer epoch seconds (api-v2.5, Expirations; one
    // sample sends a date string): the documented integer is sent.
    const endOfDay = rule.epoch === 'end';
    return z.pipe(
      date,
      parsedBy(
        (v) => dayToEpoch(parseDate(v)!, endOfDay),
        () => 'must lie between 1970-01-01 and 2038-01-19 (the API keeps times in 32 bits)',
      ),
    );
  },
  uid: (rule) => {
    const kind = UID_KINDS[rule.prefix] ?? 'item';
    return z.string().check(
      z.refine((v) => v.startsWith(rule.prefix) && v.length > rule.prefix.length && !/[\s/?#]/.test(v), {
        error: (issue) =>
          `${quoted(String(issue.input))} is not ${article(kind)} ${kind} uid (they start with ${rule.prefix})`,
      }),
      // ids sent in a body have a limit (191 in expirations and notes, api-v2.5 Limits); over it the API answers 500
      z.refine((v) => rule.max === undefined || characters(v) <= rule.max, {
        error: (issue) => `at most ${rule.max} characters (got ${characters(issue.input as string)})`,
      }),
    );
  },
  int: (rule) => {
    const range = rule.max === undefined ? `${rule.min} or more` : `from ${rule.min} to ${rule.max}`;
    return z
      .pipe(
        z.string().check(
          z.refine((v) => /^\d+$/.test(v.trim()), {
            error: (issue) => `must be a whole number ${range} (got ${quoted(String(issue.input))})`,
          }),
          z.refine((v) => rule.max !== undefined || Number(v.trim()) <= MAX_INT32, {
            error: (issue) =>
              `must be at most ${MAX_INT32}, the largest whole number the API takes (got ${quoted(String(issue.input))})`,
          }),
        ),
        z.transform((v: string) => Number(v)),
      )
      .check(
        z.refine((n: number) => n >= rule.min && (rule.max === undefined || n <= rule.max), {
          error: (issue) => `must be a whole number ${range} (got ${String(issue.input)})`,
        }),
      );
  },
  url: (rule) =>
    z.string().check(
      z.refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), {
        error: (issue) => `${quoted(String(issue.input))} is not an http(s) URL`,
      }),
      z.refine((v) => rule.max === undefined || characters(v) <= rule.max, {
        error: `at most ${rule.max} characters`,
      }),
    ),
  when: (_rule, nowMs) =>
    parsedBy(
      (v) => parseWhen(v, nowMs),
      (v) => whenProblem(v, 'is not a duration (90m, 2h, 7d), an ISO 8601 time or epoch seconds'),
    ).check(
      z.refine((s: number) => s > nowMs / 1000, {
        error: (issue) =>
          `must lie in the future: read as ${isoSeconds(issue.input as number)}, and now is ${isoSeconds(Math.floor(nowMs / 1000))} — give a duration such as 2h, or a later time`,
      }),
      z.refine((s: number) => s <= MAX_EPOCH_SECONDS, {
        error: 'must be before 2038-01-19 (the API keeps times in 32 bits)',
      }),
    ),
  since: (_rule, nowMs) =>
    parsedBy(
      (v) => parseWhen(v, nowMs, -1),
      (v) => whenProblem(v, 'is not a duration back from now (90m, 2h, 7d), an ISO 8601 time or epoch seconds'),
    ),
  duration: () => parsedBy((v) => parseDuration(v) || undefined, 'is not a duration such as 30d, 2w or 12h'),
  range: () =>
    parsedBy(parseRange, 'is not a threshold range such as 5, 5:, ~:5, 1:5 or @1:5 (Nagios plugin guidelines)'),
  name: (rule) =>
    z
      .string()
      .check(
        z.refine((v) => rule.pattern.test(v), { error: (issue) => `'${String(issue.input)}' is not ${rule.says}` }),
      ),
  rate: () => parsedBy(parseRate, 'is not a rate such as 400/60 (requests per seconds, each from 1 to 1000000)'),
};

/** A schema that parses the text with `parse`; undefined from it fails with `'<text>' <says>`, or with what `says` makes of the text. */
function parsedBy<T>(parse: (value: string) => T | undefined, says: string | ((value: string) => string)) {
  return z.pipe(
    z.string(),
    z.transform((v: string, ctx) => {
      const parsed = parse(v);
      if (parsed === undefined) {
        ctx.issues.push({
          code: 'custom',
          input: v,
          message: typeof says === 'string' ? `${quoted(v)} ${says}` : says(v),
        });
        return z.NEVER;
      }
      return parsed;
    }),
  );
}

/** N/S: N requests per S seconds, each a whole number from 1 to 1,000,000. */
function parseRate(text: string): { requests: number; windowMs: number } | undefined {
  const match = /^(\d{1,7})\/(\d{1,7})$/.exec(text.trim());
  if (!match) return undefined;
  const [requests, seconds] = [Number(match[1]), Number(match[2])];
  if (requests < 1 || seconds < 1 || requests > 1_000_000 || seconds > 1_000_000) return undefined;
  return { requests, windowMs: seconds * 1000 };
}

/** A time as ISO 8601 in UTC to the second: what a message shows for a time it read. */
function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Why a text is not a date: the wrong form, or the right form naming a day that does not exist. */
function dateProblem(text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return `${quoted(text)} is not a date of the form YYYY-MM-DD — e.g. 2026-03-31`;
  return (
    dayProblem(text, Number(match[1]), Number(match[2])) ??
    `${quoted(text)} is not a date of the form YYYY-MM-DD — e.g. 2026-03-31`
  );
}

/** What is wrong with a date of the right form whose month or day does not exist. */
function dayProblem(text: string, year: number, month: number): string | undefined {
  if (month < 1 || month > 12)
    return `${quoted(text)} has no month ${String(month).padStart(2, '0')} — the month is 01 to 12`;
  const name = new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return `${quoted(text)} does not exist: ${name} ${String(year).padStart(4, '0')} has ${daysIn(year, month)} days — the form is right, check the day`;
}

/**
 * Why WHEN of --timed or --since was not read: a time of the right form that does not exist
 * (2030-02-31, 25:00) says so; anything else is named with the forms taken (`forms`).
 */
function whenProblem(text: string, forms: string): string {
  const match = ISO_TIME.exec(text.trim());
  if (match) {
    const [year, month] = match[1]!.split('-').map(Number) as [number, number];
    if (parseDate(match[1]!) === undefined) return dayProblem(text, year, month)!;
    return `${quoted(text)} is not a time of day that exists — hours are 00 to 23, minutes and seconds 00 to 59`;
  }
  return `${quoted(text)} ${forms}`;
}
