import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testClient } from '../helpers/api-client.js';
import { encodeForm, flattenParams, type ParamValue, type Params, type Scalar } from '../../src/api/encode.js';
import { fillPath } from '../../src/api/endpoints.js';
import { UsageError } from '../../src/errors.js';

/** No lone surrogate: such text cannot be sent as UTF-8 at all. */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
/** Any text a user may type, astral characters and URL syntax included. */
const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => wellFormed(s));
const name = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 12 })
  .filter((s) => wellFormed(s) && !/[[\]]/.test(s));
const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  text,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
);
const value: fc.Arbitrary<ParamValue> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 4 }),
  fc.dictionary(name, fc.option(scalar, { nil: undefined }), { maxKeys: 4 }),
  fc.constant(undefined),
);
const params: fc.Arbitrary<Params> = fc.dictionary(name, value, { maxKeys: 6 });

/** What flattenParams must produce, written out the obvious way. */
function expected(input: Params): [string, string][] {
  return Object.entries(input).flatMap(([key, v]): [string, string][] => {
    if (v === undefined) return [];
    if (Array.isArray(v)) return (v as Scalar[]).map((item) => [`${key}[]`, String(item)]);
    if (typeof v === 'object') {
      return Object.entries(v as Record<string, Scalar | undefined>)
        .filter(([, inner]) => inner !== undefined)
        .map(([attribute, inner]) => [`${key}[${attribute}]`, String(inner)]);
    }
    return [[key, String(v)]];
  });
}

const client = testClient('https://acme.example.com', { apiKey: 'k_never_shown_0123', timeoutMs: 1_000 });

describe('the form encoder (property)', () => {
  it('flattens resource[attribute], name[] and scalars in order, leaving undefined out, booleans as true/false', () => {
    fc.assert(
      fc.property(params, (input) => {
        expect(flattenParams(input)).toEqual(expected(input));
      }),
    );
  });

  it('round trip: whatever the values hold (& = + % # spaces, emoji), a form parser reads back exactly the pairs', () => {
    fc.assert(
      fc.property(params, (input) => {
        const pairs = flattenParams(input);
        expect([...new URLSearchParams(encodeForm(pairs))]).toEqual(pairs);
      }),
    );
  });

  it('a GET carries the pairs in its query, a POST in its form, never mixed, never the key', () => {
    fc.assert(
      fc.property(params, (input) => {
        const get = client.prepareRaw('GET', '/groups', { query: input });
        expect([...get.url.searchParams]).toEqual(flattenParams(input));
        expect(get.form).toEqual([]);
        const post = client.prepareRaw('POST', '/notes', { body: input });
        expect(post.url.search).toBe('');
        expect(post.form).toEqual(flattenParams(input));
        expect(JSON.stringify(client.describe(get)) + JSON.stringify(client.describe(post))).not.toContain(
          'k_never_shown_0123',
        );
      }),
    );
  });

  it('a path value can never change the path: it is one escaped segment, or refused', () => {
    fc.assert(
      fc.property(
        fc.oneof(text, fc.constantFrom('', '.', '..', '../users', '%2e%2e', 'a/b', '?x=1', '#top')),
        (uid) => {
          let path: string;
          try {
            path = fillPath('/v2.5/notes/{uid}', { uid });
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
            expect(['', '.', '..']).toContain(uid);
            return;
          }
          const url = new URL(`https://acme.example.com${path}`);
          const segments = url.pathname.split('/');
          expect(segments.slice(0, 3)).toEqual(['', 'v2.5', 'notes']);
          expect(segments).toHaveLength(4);
          expect(decodeURIComponent(segments[3]!)).toBe(uid);
          expect(url.search).toBe('');
          expect(url.hash).toBe('');
        },
      ),
    );
  });
});
