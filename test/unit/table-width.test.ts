/**
 * Wide characters keep a table aligned: cells are measured and cut in terminal columns (a CJK
 * character or an emoji takes two, a combining mark, a joiner or a variation selector none),
 * never in code points. Expectations are written out column by column.
 */
import { describe, expect, it } from 'vitest';
import { createListRenderer } from '../../src/output/render.js';
import type { Column, RenderOptions } from '../../src/output/types.js';
import stringWidth from 'string-width';
import { cutToWidth, displayWidth } from '../../src/output/width.js';

/** Every character the measure takes for one column without string-width (src/output/width.ts). */
const ONE_COLUMN = [
  [0x20, 0x7e],
  [0xa0, 0xac],
  [0xae, 0x24f],
  [0x2010, 0x2027],
].flatMap(([from, to]) => Array.from({ length: to! - from! + 1 }, (_, i) => String.fromCharCode(from! + i)));

describe('text measured by its length', () => {
  it('is what string-width measures, character by character and in a row', () => {
    for (const char of ONE_COLUMN) expect(stringWidth(char), `U+${char.charCodeAt(0).toString(16)}`).toBe(1);
    const all = ONE_COLUMN.join('');
    expect(displayWidth(all)).toBe(stringWidth(all));
    expect(displayWidth(`\x1b[1m${all}\x1b[22m`)).toBe(all.length);
  });

  it('is cut where string-width and the graphemes would cut it', () => {
    expect(cutToWidth('Zoë’s MacBook – office', 10)).toBe('Zoë’s Mac…');
    // The soft hyphen takes no column: left to string-width.
    expect(displayWidth('co\u00adop')).toBe(4);
  });
});

describe('displayWidth', () => {
  it.each([
    ['ascii', 'abc', 3],
    ['CJK', '東京', 4],
    ['fullwidth Latin', 'ＡＢ', 4],
    ['halfwidth katakana', 'ｶﾀ', 2],
    ['emoji', '😀', 2],
    ['emoji newer than cli-table3 knows', '🫠', 2],
    ['emoji with skin tone', '👍🏽', 2],
    ['ZWJ family', '👨‍👩‍👧', 2],
    ['flag', '🇯🇵', 2],
    ['heart with U+FE0F', '❤️', 2],
    ['heart without U+FE0F (text presentation)', '❤', 1],
    ['e and a combining acute', 'e\u0301', 1],
    ['Thai consonant with two marks', 'กี่', 1],
    ['zero-width space', 'a\u200bb', 2],
    ['colour escapes', '\x1b[31mOK\x1b[39m', 2],
  ])('%s', (_, text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('cutToWidth', () => {
  it.each([
    ['fits', 'abc', 3, 'abc'],
    ['ascii', 'abcdef', 4, 'abc…'],
    ['CJK on the edge leaves a column', '東京オフィス', 6, '東京…'],
    ['CJK', '東京オフィス', 7, '東京オ…'],
    ['never inside a ZWJ sequence', 'ab👨‍👩‍👧cd', 4, 'ab…'],
    ['keeps a mark with its letter', 'Cafe\u0301 Paris', 5, 'Cafe\u0301…'],
    ['keeps U+FE0F with its emoji', '❤️❤️❤️', 5, '❤️❤️…'],
    ['a width under 1 keeps the text', 'abc', 0, 'abc'],
  ])('%s', (_, text, width, expected) => {
    expect(cutToWidth(text, width)).toBe(expected);
    if (width >= 1) expect(displayWidth(cutToWidth(text, width))).toBeLessThanOrEqual(width);
  });
});

const columns: Column[] = [{ key: 'name', maxWidth: 10 }, { key: 'status', kind: 'status' }, { key: 'group' }];

const rows = [
  { name: 'plain-name', status: 'OK', group: 'HQ' },
  { name: '東京オフィスの端末', status: 'Alert', group: '研究所' },
  { name: 'Zoë’s 🫠 Mac', status: 'OK', group: 'e\u0301quipe' },
  { name: '❤️ love', status: 'Warning', group: '❤ text' },
  { name: '👨‍👩‍👧 family', status: 'OK', group: 'กี่ Thai' },
];

async function table(over: Partial<RenderOptions>): Promise<string> {
  let text = '';
  const opts: RenderOptions = {
    format: 'table',
    columns,
    header: true,
    color: false,
    tty: false,
    now: () => 0,
    out: { write: (s) => (text += s) },
    ...over,
  };
  const list = await createListRenderer(opts);
  list.push(rows);
  list.end();
  return text;
}

/** The terminal column where `word` starts on each line. */
const columnOf = (text: string, word: RegExp): number[] =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => displayWidth(line.slice(0, line.search(word))));

describe('a table of wide characters', () => {
  it('in a pipe: columns aligned by display width', async () => {
    const text = await table({});
    expect(columnOf(text, /STATUS|OK|Alert|Warning/)).toEqual([20, 20, 20, 20, 20, 20]);
    expect(text).toBe(
      [
        'NAME                STATUS   GROUP',
        'plain-name          OK       HQ',
        '東京オフィスの端末  Alert    研究所',
        'Zoë’s 🫠 Mac        OK       e\u0301quipe',
        '❤️ love             Warning  ❤ text',
        '👨‍👩‍👧 family           OK       กี่ Thai',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal: cut to the column width in terminal columns, still aligned', async () => {
    const text = await table({ tty: true });
    expect(text).toBe(
      [
        'NAME        STATUS   GROUP',
        'plain-name  OK       HQ',
        '東京オフ…   Alert    研究所',
        'Zoë’s 🫠 …  OK       e\u0301quipe',
        '❤️ love     Warning  ❤ text',
        '👨‍👩‍👧 family   OK       กี่ Thai',
        '',
      ].join('\n'),
    );
    expect(columnOf(text, /STATUS|OK|Alert|Warning/)).toEqual([12, 12, 12, 12, 12, 12]);
  });
});

it('a table too long for cli-table3 is laid out the same, wide characters and colour included', async () => {
  const render = async (items: Record<string, unknown>[], color: boolean): Promise<string> => {
    let text = '';
    const list = await createListRenderer({
      format: 'table',
      columns,
      header: true,
      color,
      tty: true,
      now: () => 0,
      out: { write: (s) => (text += s) },
    });
    list.push(items);
    list.end();
    return text;
  };
  const repeated = Array.from({ length: 201 }, () => rows).flat();
  for (const color of [false, true]) {
    const [head, ...body] = (await render(rows, color)).trimEnd().split('\n');
    const long = (await render(repeated, color)).trimEnd().split('\n');
    expect(long).toHaveLength(1 + repeated.length);
    expect(long).toEqual([head, ...Array.from({ length: 201 }, () => body).flat()]);
  }
});
