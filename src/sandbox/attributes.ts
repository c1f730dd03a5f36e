/**
 * Create/update bodies: `resource[attribute]=value` (api-v2.5 conventions 7). Checks run in the
 * order a Rails service applies them: unpermitted keys (400), missing required ones (400), then
 * values as they are read (over-long 500, invalid 422).
 */
import {
  INT32_MAX,
  charLength,
  missingParameter,
  overLimit,
  parseBoolean,
  parseEpochOrDate,
  unpermittedParameter,
  unprocessable,
  type Params,
} from './http.js';
import type { RequestContext } from './router.js';

/** Bracketed keys allowed beside the resource's own on a create or update. */
const GLOBAL_BRACKET_KEYS = new Set(['expand[]']);

export class Attributes {
  private constructor(
    readonly resource: string,
    private readonly values: Map<string, string>,
  ) {}

  /**
   * Collects `resource[name]` keys. Any other bracketed key, or a name outside `allowed`,
   * is 400 :unpermitted_parameter; a name in `required` that is absent or blank is 400
   * :missing_parameter.
   */
  static read(
    ctx: RequestContext,
    resource: string,
    allowed: readonly string[],
    required: readonly string[] = [],
  ): Attributes {
    return Attributes.fromParams(ctx.params, resource, allowed, required);
  }

  static fromParams(
    params: Params,
    resource: string,
    allowed: readonly string[],
    required: readonly string[] = [],
  ): Attributes {
    const values = new Map<string, string>();
    const allowedSet = new Set(allowed);
    const prefix = `${resource}[`;
    for (const [key, raw] of Object.entries(params)) {
      if (!key.includes('[')) continue;
      if (key.startsWith(prefix)) {
        const m = /^[^[]+\[([^\]]*)\]$/.exec(key);
        const name = m?.[1];
        if (name === undefined || !allowedSet.has(name)) throw unpermittedParameter(key);
        const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
        if (value !== undefined) values.set(name, value);
      } else if (!GLOBAL_BRACKET_KEYS.has(key)) {
        throw unpermittedParameter(key);
      }
    }
    for (const name of required) {
      const v = values.get(name);
      if (v === undefined || v.trim() === '') throw missingParameter(`${resource}[${name}]`);
    }
    return new Attributes(resource, values);
  }

  key(name: string): string {
    return `${this.resource}[${name}]`;
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  get size(): number {
    return this.values.size;
  }

  raw(name: string): string | undefined {
    return this.values.get(name);
  }

  /** undefined when absent, null when sent empty (clears an optional field), else the string. */
  text(name: string, max: number): string | null | undefined {
    const v = this.values.get(name);
    if (v === undefined) return undefined;
    if (charLength(v) > max) throw overLimit(this.key(name), max);
    return v === '' ? null : v;
  }

  /** A value that must not be blank when present (names, bodies, keys). */
  nonBlank(name: string, max: number): string | undefined {
    const v = this.text(name, max);
    if (v === undefined) return undefined;
    if (v === null || v.trim() === '') throw unprocessable(name, "can't be blank");
    return v;
  }

  bool(name: string): boolean | undefined {
    const v = this.values.get(name);
    if (v === undefined) return undefined;
    const b = parseBoolean(v);
    if (b === undefined) throw unprocessable(name, 'must be true or false');
    return b;
  }

  /** A YYYY-MM-DD date (or epoch seconds) stored as epoch seconds; empty clears it. */
  date(name: string): number | null | undefined {
    const v = this.values.get(name);
    if (v === undefined) return undefined;
    if (v.trim() === '') return null;
    const n = parseEpochOrDate(v);
    if (n === undefined) throw unprocessable(name, 'must be a date (YYYY-MM-DD) or epoch seconds');
    // integers are 32 bit (api-v2.5, data type bounds): beyond that the service fails with a 500
    if (Math.abs(n) > INT32_MAX) throw overLimit(this.key(name), INT32_MAX);
    return n;
  }

  integer(name: string): number | undefined {
    const v = this.values.get(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v.trim())) throw unprocessable(name, 'must be an integer');
    const n = Number(v.trim());
    if (Math.abs(n) > INT32_MAX) throw overLimit(this.key(name), INT32_MAX);
    return n;
  }
}
