import { beforeAll, describe, expect, it } from 'vitest';
import {
  formatBool,
  formatBytes,
  formatCell,
  formatPercent,
  formatTime,
  plainValue,
  toCsvRow,
  toIsoUtc,
  toTsvRow,
  type Palette,
} from '../../src/output/format.js';
import { cutToWidth } from '../../src/output/width.js';
import { parseTime } from '../../src/time/parse.js';

// Local-time output depends on the zone: pin it before anything formats a date.
beforeAll(() => {
  process.env.TZ = 'UTC';
});

// 2026-11-20T14:03:00Z
const T = Date.UTC(2026, 10, 20, 14, 3, 0) / 1000;
const now = (): number => T * 1000;

describe('parseTime', () => {
  it.each([
    [T, T * 1000],
    [String(T), T * 1000],
    ['2026-11-20T15:03:00+01:00', T * 1000],
    ['2026-11-20T14:03:00Z', T * 1000],
    [new Date(T * 1000), T * 1000],
    ['not a date', undefined],
    ['', undefined],
    [null, undefined],
    [true, undefined],
    [Number.NaN, undefined],
  ])('%j -> %j', (input, expected) => {
    expect(parseTime(input)).toBe(expected);
  });

  it('toIsoUtc drops zero milliseconds only', () => {
    expect(toIsoUtc(T * 1000)).toBe('2026-11-20T14:03:00Z');
    expect(toIsoUtc(T * 1000 + 250)).toBe('2026-11-20T14:03:00.250Z');
  });
});

describe('formatTime', () => {
  const tty = { tty: true, now };
  it.each([
    [T, 'just now'],
    [T - 59, 'just now'],
    [T - 60, '1 min ago'],
    [T - 3 * 60, '3 min ago'],
    [T - 59 * 60, '59 min ago'],
    [T - 3600, '1 hour ago'],
    [T - 2 * 3600, '2 hours ago'],
    [T - 86400, '1 day ago'],
    [T - 5 * 86400, '5 days ago'],
    [T - 45 * 86400, '1 month ago'],
    [T - 400 * 86400, '1 year ago'],
    [T - 800 * 86400, '2 years ago'],
    [T + 30, 'in under a minute'],
    [T + 10 * 60, 'in 10 min'],
    [T + 2 * 86400, 'in 2 days'],
    ['2026-11-20T12:03:00Z', '2 hours ago'],
    [String(T - 3600), '1 hour ago'],
  ])('on a TTY %j -> %s', (value, expected) => {
    expect(formatTime(value, tty)).toBe(expected);
  });

  it.each([
    [T, '2026-11-20 14:03'],
    ['2026-11-20T15:03:00+01:00', '2026-11-20 14:03'],
    [String(T), '2026-11-20 14:03'],
    [0, '1970-01-01 00:00'],
  ])('off a TTY %j -> %s (UTC)', (value, expected) => {
    expect(formatTime(value, { tty: false, now })).toBe(expected);
  });

  it('off a TTY uses the local time zone', () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'Asia/Tokyo'; // UTC+9, no daylight saving
      expect(formatTime(T, { tty: false, now })).toBe('2026-11-20 23:03');
    } finally {
      process.env.TZ = saved;
    }
    expect(formatTime(T, { tty: false, now })).toBe('2026-11-20 14:03');
  });

  it.each([
    [null, ''],
    [undefined, ''],
    ['', ''],
    ['soon', 'soon'],
  ])('%j -> %j in both modes', (value, expected) => {
    expect(formatTime(value, { tty: true, now })).toBe(expected);
    expect(formatTime(value, { tty: false, now })).toBe(expected);
  });
});

describe('formatBytes (1024-based, IEC labels)', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1023.6, '1 KiB'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [1024 ** 2 - 1, '1 MiB'],
    [1.5 * 1024 ** 3, '1.5 GiB'],
    ['17179869184', '16 GiB'],
    [500107862016, '465.8 GiB'],
    [2 * 1024 ** 4, '2 TiB'],
    [3 * 1024 ** 6, '3072 PiB'],
    [-2048, '-2 KiB'],
    [null, ''],
    [undefined, ''],
    ['', ''],
    ['n/a', 'n/a'],
  ])('%j -> %j', (value, expected) => {
    expect(formatBytes(value)).toBe(expected);
  });
});

describe('formatBool and formatPercent', () => {
  it.each([
    [true, 'yes'],
    [false, 'no'],
    ['true', 'yes'],
    ['false', 'no'],
    [null, ''],
    [undefined, ''],
    ['maybe', 'maybe'],
  ])('bool %j -> %j', (value, expected) => {
    expect(formatBool(value)).toBe(expected);
  });

  it.each([
    [42, '42%'],
    [42.0, '42%'],
    [97.46, '97.5%'],
    ['12.5', '12.5%'],
    [0, '0%'],
    [null, ''],
    ['high', 'high'],
  ])('percent %j -> %j', (value, expected) => {
    expect(formatPercent(value)).toBe(expected);
  });
});

describe('formatCell', () => {
  const plain = { tty: false, now };
  const tty = { tty: true, now };

  it.each([
    ['text', 'hello', 'hello'],
    ['text', 42, '42'],
    ['text', null, ''],
    ['text', undefined, ''],
    ['text', { a: 1, b: [2] }, '{"a":1,"b":[2]}'],
    ['text', ['a', 'b'], 'a, b'],
    ['list', ['g_1', 'g_2', 'g_3'], 'g_1, g_2, g_3'],
    ['list', [], ''],
    ['list', [{ uid: 'g_1' }], '{"uid":"g_1"}'],
    ['bool', true, 'yes'],
    ['bytes', 1024, '1 KiB'],
    ['percent', 7, '7%'],
    ['status', 'Alert', 'Alert'],
    ['time', T, '2026-11-20 14:03'],
  ] as const)('%s %j -> %j off a TTY', (kind, value, expected) => {
    expect(formatCell(value, kind, plain)).toBe(expected);
  });

  it('folds multi-line text onto one line off a TTY, keeps the first line on one', () => {
    expect(formatCell('first line\nsecond\r\nthird', 'text', plain)).toBe('first line second third');
    expect(formatCell('first line\nsecond', 'text', tty)).toBe('first line…');
  });

  it('truncates to maxWidth on a TTY only', () => {
    const long = 'abcdefghijklmnop';
    expect(formatCell(long, 'text', { ...tty, maxWidth: 6, cut: cutToWidth })).toBe('abcde…');
    expect(formatCell(long, 'text', { ...plain, maxWidth: 6, cut: cutToWidth })).toBe(long);
    expect(formatCell('abcdef', 'text', { ...tty, maxWidth: 6, cut: cutToWidth })).toBe('abcdef');
  });

  it('colours only status cells, and only through the palette', () => {
    const palette: Palette = { header: (s) => `<h>${s}`, status: (v, s) => `<${v}>${s}` };
    expect(formatCell('OK', 'status', { ...plain, palette })).toBe('<OK>OK');
    expect(formatCell('OK', 'text', { ...plain, palette })).toBe('OK');
    expect(formatCell(null, 'status', { ...plain, palette })).toBe('');
  });
});

describe('plain values for csv/tsv', () => {
  it.each([
    [T, 'time', '2026-11-20T14:03:00Z'],
    ['2026-11-20T15:03:00+01:00', 'time', '2026-11-20T14:03:00Z'],
    ['garbage', 'time', 'garbage'],
    [T, 'text', String(T)],
    [true, 'bool', 'true'],
    [false, 'text', 'false'],
    [null, 'text', ''],
    [undefined, 'time', ''],
    [['a', 'b', 3], 'list', 'a;b;3'],
    [{ a: 'x' }, 'text', '{"a":"x"}'],
    [1536, 'bytes', '1536'],
    [42.5, 'percent', '42.5'],
  ] as const)('%j as %s -> %j', (value, kind, expected) => {
    expect(plainValue(value, kind)).toBe(expected);
  });

  it.each([
    [['a', 'b', 'c'], 'a,b,c'],
    [['a,b', 'c'], '"a,b",c'],
    [['say "hi"', 'x'], '"say ""hi""",x'],
    [['line1\nline2', 'x'], '"line1\nline2",x'],
    [['cr\rhere'], '"cr\rhere"'],
    [['Zürich', '東京', '😀'], 'Zürich,東京,😀'],
    [[null, undefined, ''], ',,'],
    [[true, 3, ['x', 'y']], 'true,3,x;y'],
    [[{ k: 'a,b' }], '"{""k"":""a,b""}"'],
    [[' padded '], ' padded '],
  ])('csv %j -> %j', (values, expected) => {
    expect(toCsvRow(values)).toBe(expected);
  });

  it.each([
    [['a', 'b'], 'a\tb'],
    [['has\ttab', 'x'], 'has tab\tx'],
    [['l1\nl2', 'crlf\r\nend', 'cr\rend'], 'l1 l2\tcrlf end\tcr end'],
    [['a,b', 'say "hi"'], 'a,b\tsay "hi"'],
    [[null, 'Zürich'], '\tZürich'],
  ])('tsv %j -> %j', (values, expected) => {
    expect(toTsvRow(values)).toBe(expected);
  });
});
