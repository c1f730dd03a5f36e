/**
 * The look of a table, byte for byte: borderless columns two spaces apart, no trailing spaces,
 * headings bold and statuses coloured when colour is on, cells cut with `…` on a terminal. The
 * snapshots were taken from the layout that drew every table in one piece; a table drawn in
 * pieces must not differ from it by one byte.
 */
import { describe, expect, it } from 'vitest';
import { createListRenderer, renderObject } from '../../src/output/render.js';
import type { Column, RenderOptions } from '../../src/output/types.js';

// 2026-11-20T14:03:00Z
const NOW = Date.UTC(2026, 10, 20, 14, 3, 0);

const columns: Column[] = [
  { key: 'uid' },
  { key: 'name', header: 'COMPUTER', maxWidth: 12 },
  { key: 'status', kind: 'status' },
  { key: 'last_report', kind: 'time' },
  { key: 'ram', kind: 'bytes' },
  { key: 'note' },
];

const rows: Record<string, unknown>[] = [
  { uid: 'c_1', name: 'alpha', status: 'OK', last_report: NOW / 1000 - 180, ram: 17179869184, note: 'first' },
  {
    uid: 'c_22',
    name: 'bravo, "the second"',
    status: 'Alert',
    last_report: NOW / 1000 - 7200,
    ram: 8589934592,
    note: '',
  },
  {
    uid: 'c_333',
    name: 'charlie the long-named laptop',
    status: 'Warning',
    last_report: null,
    ram: null,
    note: 'two\nlines',
  },
  { uid: 'c_4444', name: '', status: 'missing', last_report: NOW / 1000 - 86400 * 3, ram: 1536, note: null },
];

async function table(over: Partial<RenderOptions> = {}, items = rows): Promise<string> {
  let text = '';
  const opts: RenderOptions = {
    format: 'table',
    columns,
    header: true,
    color: false,
    tty: false,
    now: () => NOW,
    out: { write: (s) => (text += s) },
    ...over,
  };
  const list = await createListRenderer(opts);
  list.push(items.slice(0, 2));
  list.push(items.slice(2));
  list.end();
  return text;
}

describe('table look', () => {
  it('in a pipe', async () => {
    expect(await table()).toMatchInlineSnapshot(`
      "UID     COMPUTER                       STATUS   LAST REPORT       RAM      NOTE
      c_1     alpha                          OK       2026-11-20 14:00  16 GiB   first
      c_22    bravo, "the second"            Alert    2026-11-20 12:03  8 GiB
      c_333   charlie the long-named laptop  Warning                             two lines
      c_4444                                 missing  2026-11-17 14:03  1.5 KiB
      "
    `);
  });

  it('on a terminal: relative times, cells cut to their width', async () => {
    expect(await table({ tty: true })).toMatchInlineSnapshot(`
      "UID     COMPUTER      STATUS   LAST REPORT  RAM      NOTE
      c_1     alpha         OK       3 min ago    16 GiB   first
      c_22    bravo, "the…  Alert    2 hours ago  8 GiB
      c_333   charlie the…  Warning                        two…
      c_4444                missing  3 days ago   1.5 KiB
      "
    `);
  });

  it('on a terminal with colour', async () => {
    expect(JSON.stringify(await table({ tty: true, color: true }))).toMatchInlineSnapshot(
      `""\\u001b[1mUID\\u001b[22m     \\u001b[1mCOMPUTER\\u001b[22m      \\u001b[1mSTATUS\\u001b[22m   \\u001b[1mLAST REPORT\\u001b[22m  \\u001b[1mRAM\\u001b[22m      \\u001b[1mNOTE\\u001b[22m\\nc_1     alpha         \\u001b[32mOK\\u001b[39m       3 min ago    16 GiB   first\\nc_22    bravo, \\"the…  \\u001b[31mAlert\\u001b[39m    2 hours ago  8 GiB\\nc_333   charlie the…  \\u001b[33mWarning\\u001b[39m                        two…\\nc_4444                \\u001b[31mmissing\\u001b[39m  3 days ago   1.5 KiB\\n""`,
    );
  });

  it('without a header', async () => {
    expect(await table({ header: false })).toMatchInlineSnapshot(`
      "c_1     alpha                          OK       2026-11-20 14:00  16 GiB   first
      c_22    bravo, "the second"            Alert    2026-11-20 12:03  8 GiB
      c_333   charlie the long-named laptop  Warning                             two lines
      c_4444                                 missing  2026-11-17 14:03  1.5 KiB
      "
    `);
  });

  it('one object, as label and value', async () => {
    let text = '';
    await renderObject(rows[1]!, {
      format: 'table',
      columns,
      header: true,
      color: true,
      tty: true,
      now: () => NOW,
      out: { write: (s) => (text += s) },
    });
    expect(JSON.stringify(text)).toMatchInlineSnapshot(
      `""\\u001b[1mUID\\u001b[22m          c_22\\n\\u001b[1mCOMPUTER\\u001b[22m     bravo, \\"the…\\n\\u001b[1mSTATUS\\u001b[22m       \\u001b[31mAlert\\u001b[39m\\n\\u001b[1mLAST REPORT\\u001b[22m  2 hours ago\\n\\u001b[1mRAM\\u001b[22m          8 GiB\\n\\u001b[1mNOTE\\u001b[22m\\n""`,
    );
  });
});

it('a table of many rows has the look of a small one: each column as wide as its widest cell, two spaces apart', async () => {
  const many = Array.from({ length: 1_234 }, (_, i) => ({
    uid: `c_${i}`,
    name: 'x'.repeat(i % 7),
    status: i % 5 ? 'OK' : 'Informational',
    note: i === 1_000 ? 'the widest note' : 'n',
  }));
  const cols: Column[] = [{ key: 'uid' }, { key: 'name' }, { key: 'status', kind: 'status' }, { key: 'note' }];
  const text = await table({ columns: cols }, many);
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => cell.padEnd([6, 6, 13, 15][i]! + 2))
      .join('')
      .trimEnd();
  const expected = [
    line(['UID', 'NAME', 'STATUS', 'NOTE']),
    ...many.map((row) => line([row.uid, row.name, row.status, row.note])),
  ];
  expect(text).toBe(`${expected.join('\n')}\n`);
});
