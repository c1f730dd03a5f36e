import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAGMENT_MIN, redact, REDACTED } from '../../src/api/redact.js';
import { longRunsCut, quoted, shortened } from '../../src/text/escape.js';
import { scrub } from '../../src/api/secrets.js';

/** What API keys are made of, '+', '/' and '=' included (they change when URL-encoded). */
const KEY_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/=.'];
const key = fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: FRAGMENT_MIN, maxLength: 64 });
/** Text around the pieces: anything a message may hold, the key's own characters included. */
const filler = fc.string({
  unit: fc.oneof(fc.constantFrom(...KEY_CHARS), fc.constantFrom(' ', "'", '"', ':', '\n', '%', 'é')),
  maxLength: 20,
});

/** Each FRAGMENT_MIN-character piece of `secret` found in `text`. */
function piecesIn(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + FRAGMENT_MIN <= secret.length; i++) {
    const piece = secret.slice(i, i + FRAGMENT_MIN);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

/** A text made of filler and pieces of `forms` (the key and its encodings), each at least FRAGMENT_MIN long. */
const leaky = key.chain((secret) => {
  const forms = [secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)];
  const piece = fc.tuple(fc.constantFrom(...forms), fc.nat(), fc.nat()).map(([form, a, b]) => {
    const length = FRAGMENT_MIN + (b % (form.length - FRAGMENT_MIN + 1));
    const start = a % (form.length - length + 1);
    return form.slice(start, start + length);
  });
  return fc
    .tuple(fc.constant(secret), fc.array(fc.tuple(filler, piece), { minLength: 1, maxLength: 5 }), filler)
    .map(([s, parts, tail]) => ({
      secret: s,
      forms,
      text: parts.map(([before, p]) => before + p).join('') + tail,
    }));
});

describe('redact', () => {
  it('leaves no piece of FRAGMENT_MIN characters of the key, nor of its encoded forms', () => {
    fc.assert(
      fc.property(leaky, ({ secret, forms, text }) => {
        const out = redact(text, secret);
        expect(out).toContain(REDACTED);
        for (const form of forms) expect(piecesIn(out, form)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves a text that holds no such piece as it is', () => {
    fc.assert(
      fc.property(key, filler, (secret, text) => {
        fc.pre(!text.includes('api_key='));
        const forms = [secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)];
        fc.pre(forms.every((form) => piecesIn(text, form).length === 0));
        expect(redact(text, secret)).toBe(text);
      }),
    );
  });

  it('replaces a run of overlapping pieces once, and keeps what is around it', () => {
    const secret = 'k_live_Zq81mXv4Tn0pRw7yLc3bHd5s9Fg2Jk6';
    expect(redact(`MON_API_KEY=${secret.slice(0, 28)}`, secret)).toBe(`MON_API_KEY=${REDACTED}`);
    expect(redact(`{"uid": "${secret.slice(3, 29)}"} and ${secret.slice(20, 28)}.`, secret)).toBe(
      `{"uid": "${REDACTED}"} and ${REDACTED}.`,
    );
    // Seven characters are not taken for the key: `k_live_` starts many keys.
    expect(redact(`${secret.slice(0, 7)}x`, secret)).toBe(`${secret.slice(0, 7)}x`);
  });

  it('scrub() applies it with the key of MON_API_KEY', () => {
    const secret = 'k_live_Zq81mXv4Tn0pRw7yLc3bHd5s9Fg2Jk6';
    expect(
      scrub(`mon: -o/--output: '${secret.slice(5, 30)}' is not one of json`, { env: { MON_API_KEY: secret } }),
    ).toBe(`mon: -o/--output: '${REDACTED}' is not one of json`);
  });
});

describe('long values in messages', () => {
  it.each([
    ['acme', "'acme'"],
    ['a'.repeat(80), `'${'a'.repeat(80)}'`],
    [`pr_${'a'.repeat(60_000_000)}`, `'pr_${'a'.repeat(29)}…' (60,000,003 characters)`],
    // Never half of a surrogate pair.
    [`${'a'.repeat(31)}😀${'b'.repeat(100)}`, `'${'a'.repeat(31)}…' (133 characters)`],
  ])('quoted(%#)', (value, shown) => {
    expect(quoted(value)).toBe(shown);
  });

  it('shortened() is the same without the quotes', () => {
    expect(shortened('x'.repeat(81))).toBe(`${'x'.repeat(32)}… (81 characters)`);
    expect(shortened('title')).toBe('title');
  });

  it('longRunsCut() cuts any run over 400 characters without white space, and keeps the rest', () => {
    const run = 'z'.repeat(5_000);
    expect(longRunsCut(`mon: unknown option '--${run}' — see help`)).toBe(
      `mon: unknown option '--${'z'.repeat(29)}… (5,004 characters) — see help`,
    );
    const fine = `mon: ${'word '.repeat(200)}`;
    expect(longRunsCut(fine)).toBe(fine);
  });
});
