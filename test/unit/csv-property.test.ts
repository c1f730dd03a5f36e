import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCsvRow, toTsvRow } from '../../src/output/format.js';
import { createListRenderer } from '../../src/output/render.js';

/**
 * A small RFC 4180 reader: quoted fields may hold commas, quotes (doubled) and line breaks;
 * records end with LF or CRLF. Throws on anything malformed, so a bad writer cannot pass.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quotedField = false;
  const endField = () => {
    record.push(field);
    field = '';
    quotedField = false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === '' && !quotedField) {
      quotedField = true;
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      if (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r')
        throw new Error(`text after a closing quote at ${i}`);
      continue;
    }
    if (c === '"') throw new Error(`bare quote inside an unquoted field at ${i}`);
    if (c === ',') {
      endField();
      i++;
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      endField();
      records.push(record);
      record = [];
      i += c === '\r' ? 2 : 1;
    } else if (c === '\r') {
      throw new Error(`bare CR in an unquoted field at ${i}`);
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || record.length > 0 || quotedField) {
    endField();
    records.push(record);
  }
  return records;
}

/** Field text with everything CSV must survive: separators, quotes, CR, LF, CRLF, unicode. */
const field = fc
  .array(
    fc.oneof(fc.constantFrom(',', '"', '\n', '\r', '\r\n', ' ', '\t', '""', 'é', '😀'), fc.string({ maxLength: 4 })),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

describe('the CSV writer (property, round trip through an RFC 4180 reader)', () => {
  it('the reader itself reads the RFC examples', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
    expect(parseCsv('"line\nbreak",2\r\n')).toEqual([['line\nbreak', '2']]);
    expect(() => parseCsv('a"b\n')).toThrow();
  });

  it('one row: any fields come back exactly', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 2, maxLength: 6 }), (values) => {
        expect(parseCsv(`${toCsvRow(values)}\n`)).toEqual([values]);
      }),
    );
  });

  it('a whole list through the renderer: header and every record come back, whatever the values', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ uid: field, name: field, note: field }), { maxLength: 10 }),
        async (items) => {
          let out = '';
          const renderer = await createListRenderer({
            format: 'csv',
            columns: [{ key: 'uid' }, { key: 'name' }, { key: 'note' }],
            header: true,
            color: false,
            tty: false,
            now: () => 0,
            out: { write: (chunk: string) => (out += chunk) },
          });
          // Pages of any size: the result must not depend on where pages break.
          for (let at = 0; at < items.length; at += 3) renderer.push(items.slice(at, at + 3));
          renderer.end();
          expect(parseCsv(out)).toEqual([
            ['uid', 'name', 'note'],
            ...items.map((item) => [item.uid, item.name, item.note]),
          ]);
        },
      ),
    );
  });

  it('values that are not strings: numbers, booleans, null and arrays come back in their plain form', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.boolean(),
        fc.array(fc.stringMatching(/^[a-z_0-9]{1,6}$/), { maxLength: 3 }),
        (n, b, list) => {
          expect(parseCsv(`${toCsvRow([n, b, null, list])}\n`)).toEqual([[String(n), String(b), '', list.join(';')]]);
        },
      ),
    );
  });

  it('TSV: every record stays one line with the same number of fields', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 6 }), (values) => {
        const line = toTsvRow(values);
        expect(line).not.toMatch(/[\r\n]/);
        expect(line.split('\t')).toHaveLength(values.length);
      }),
    );
  });
});
