import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSafe } from '../../src/text/escape.js';

/** jsonSafe written out the obvious way: every DEL, C1, separator and bidi control as a \u escape. */
const escapedByRegex = (json: string) =>
  json.replace(
    /[\u007f-\u009f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const UNSAFE = [0x7f, 0x80, 0x9b, 0x9f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069].map((c) =>
  String.fromCharCode(c),
);
/** Characters whose UTF-8 starts as an unsafe one's does (C2, E2) or lies just beside one. */
const NEIGHBOURS = ['\u00a0', '©', '\u00bf', '’', '€', '\u2027', '\u202f', '\u2065', '\u206a', '→', 'é', '東', '😀'];

/** JSON of at least 16 KiB (looked through as bytes), names built of `parts`. */
function longJson(parts: readonly string[]): string {
  const names = Array.from({ length: 400 }, (_, i) => `host-${i} ${parts[i % parts.length]}`);
  return JSON.stringify(
    names.map((name) => ({ name, os: 'Rocky Linux 9.4 (Blue Onyx)' })),
    null,
    2,
  );
}

describe('jsonSafe over long JSON', () => {
  it('escapes each unsafe character wherever it stands among characters that start as it does', () => {
    for (const unsafe of UNSAFE) {
      for (const at of [0, 1, 399]) {
        const parts = NEIGHBOURS.map((n, i) => (i === at % NEIGHBOURS.length ? `${n}${unsafe}` : n));
        const json = at === 399 ? `${longJson(NEIGHBOURS)}"${unsafe}"` : longJson(parts);
        expect(json.length).toBeGreaterThan(16 * 1024);
        const safe = jsonSafe(json);
        expect(safe).toBe(escapedByRegex(json));
        expect(safe).not.toContain(unsafe);
      }
    }
  });

  it('leaves JSON with only safe characters past ASCII as it is, many or few', () => {
    const json = longJson(NEIGHBOURS);
    expect(jsonSafe(json)).toBe(json);
    const many = longJson(['’’’’ ©©']);
    expect(jsonSafe(many)).toBe(many);
  });

  it('finds an unsafe character behind many that start as it does, and beside a lone surrogate', () => {
    const behindMany = `${longJson(['’’’’ ©©'])}"\u2028"`;
    expect(jsonSafe(behindMany)).toBe(escapedByRegex(behindMany));
    const lone = `${longJson(['\ud800'])}"\u009b"`;
    expect(jsonSafe(lone)).toBe(escapedByRegex(lone));
  });

  it('is the regex, on any text', () => {
    const unit = fc.constantFrom(...UNSAFE, ...NEIGHBOURS, 'a', ' ', '"', '\ud800', '\udc00');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), fc.integer({ min: 0, max: 1 }), (units, padded) => {
        const text = (padded ? 'x'.repeat(16 * 1024) : '') + units.join('');
        expect(jsonSafe(text)).toBe(escapedByRegex(text));
      }),
      { numRuns: 300 },
    );
  });
});
