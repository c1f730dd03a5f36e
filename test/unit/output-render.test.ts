import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createListRenderer, renderObject } from '../../src/output/render.js';
import { OUTPUT_FORMATS, type Column, type OutputFormat, type RenderOptions } from '../../src/output/types.js';

beforeAll(() => {
  process.env.TZ = 'UTC';
});

// 2026-11-20T14:03:00Z
const T = Date.UTC(2026, 10, 20, 14, 3, 0) / 1000;
const ESC = '\x1b';

/** A sink that keeps each write apart, to check what was streamed when. */
function sink(): { chunks: string[]; write(s: string): void; text(): string } {
  const chunks: string[] = [];
  return { chunks, write: (s) => void chunks.push(s), text: () => chunks.join('') };
}

const columns: Column[] = [
  { key: 'uid' },
  { key: 'name', header: 'COMPUTER', maxWidth: 8 },
  { key: 'status', kind: 'status' },
  { key: 'last_report', kind: 'time' },
  { key: 'online', kind: 'bool' },
];

const computers: Record<string, unknown>[] = [
  { uid: 'c_1', name: 'alpha', status: 'OK', last_report: T - 180, online: true, extra: { nested: [1, 2] } },
  { uid: 'c_22', name: 'bravo, "the second"', status: 'Alert', last_report: T - 7200, online: false },
  { uid: 'c_333', name: 'Zürich 東京', status: 'Warning', last_report: '2026-11-15T14:03:00Z', online: null },
];

function options(
  format: OutputFormat,
  over: Partial<RenderOptions> = {},
): RenderOptions & { out: ReturnType<typeof sink> } {
  return { format, columns, header: true, color: false, tty: false, now: () => T * 1000, ...over, out: sink() };
}

/** Renders `pages` as a streamed list and returns the sink. */
async function renderList(
  pages: Record<string, unknown>[][],
  format: OutputFormat,
  over: Partial<RenderOptions> = {},
): Promise<ReturnType<typeof sink>> {
  const opts = options(format, over);
  const list = await createListRenderer(opts);
  for (const page of pages) list.push(page);
  list.end();
  return opts.out;
}

/** Items numbered 0..n-1, with values that exercise JSON escaping and nesting. */
const many = (n: number): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => ({
    uid: `c_${i}`,
    note: i % 2 ? 'line\nbreak "quoted" \\ \t' : null,
    tags: i % 3 ? [] : ['a', { b: [i, true] }],
    empty: {},
    n: i * 1.5,
  }));

describe('json list', () => {
  it.each([
    ['no items, no pages', []],
    ['no items, an empty page', [[]]],
    ['one item', [many(1)]],
    ['many items in one page', [many(7)]],
    ['many items across pages, some empty', [many(3), [], many(1), many(4)]],
  ])('%s: byte-identical to JSON.stringify(all, null, 2)', async (_, pages) => {
    const out = await renderList(pages, 'json');
    expect(out.text()).toBe(`${JSON.stringify(pages.flat(), null, 2)}\n`);
    expect(() => JSON.parse(out.text()) as unknown).not.toThrow();
  });

  it('any pages of any objects, indented or compact (--jq): the text of the whole array, page by page', async () => {
    const item = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(item, { maxLength: 4 }), { maxLength: 4 }),
        fc.boolean(),
        async (pages, compact) => {
          const out = await renderList(pages as Record<string, unknown>[][], 'json', { compact });
          expect(out.text()).toBe(`${JSON.stringify(pages.flat(), null, compact ? undefined : 2)}\n`);
        },
      ),
    );
  });

  it('writes each page when it is pushed, not at the end', async () => {
    const opts = options('json');
    const list = await createListRenderer(opts);
    list.push(many(2));
    expect(opts.out.chunks).toHaveLength(1);
    expect(opts.out.text()).toMatch(/^\[\n {2}\{\n {4}"uid": "c_0"/);
    list.push(many(1));
    expect(opts.out.chunks).toHaveLength(2);
    expect(opts.out.chunks[1]).toMatch(/^,\n {2}\{/);
    list.end();
    expect(opts.out.chunks.at(-1)).toBe('\n]\n');
  });

  it('an empty list prints []', async () => {
    expect((await renderList([], 'json')).text()).toBe('[]\n');
  });

  it('prints values as received, whatever the columns say', async () => {
    const out = await renderList([computers], 'json');
    expect(JSON.parse(out.text())).toEqual(computers);
  });
});

describe('ndjson list', () => {
  it('one compact object per line, streamed per page', async () => {
    const opts = options('ndjson');
    const list = await createListRenderer(opts);
    list.push(computers.slice(0, 2));
    expect(opts.out.text()).toBe(
      computers
        .slice(0, 2)
        .map((c) => `${JSON.stringify(c)}\n`)
        .join(''),
    );
    list.push([]);
    list.push(computers.slice(2));
    list.end();
    const lines = opts.out.text().split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l) as unknown)).toEqual(computers);
    expect(opts.out.chunks).toHaveLength(2);
  });

  it('an empty list prints nothing', async () => {
    expect((await renderList([[]], 'ndjson')).text()).toBe('');
  });
});

describe('csv and tsv lists', () => {
  it('csv: header of keys, RFC 4180 quoting, plain values, \\n line ends', async () => {
    const out = await renderList([computers.slice(0, 1), computers.slice(1)], 'csv');
    expect(out.text()).toBe(
      [
        'uid,name,status,last_report,online',
        'c_1,alpha,OK,2026-11-20T14:00:00Z,true',
        'c_22,"bravo, ""the second""",Alert,2026-11-20T12:03:00Z,false',
        'c_333,Zürich 東京,Warning,2026-11-15T14:03:00Z,',
        '',
      ].join('\n'),
    );
    // Streamed: the header goes out with the first page, each page is one write.
    expect(out.chunks).toHaveLength(2);
    expect(out.chunks[0]).toMatch(/^uid,name/);
  });

  it('csv: a value with a newline is quoted and stays one record', async () => {
    const out = await renderList([[{ uid: 'n_1', body: 'first\nsecond' }]], 'csv', {
      fields: ['uid', 'body'],
    });
    expect(out.text()).toBe('uid,body\nn_1,"first\nsecond"\n');
  });

  it('tsv: header of keys, tabs and newlines in values become spaces', async () => {
    const rows = [{ uid: 'n_1', body: 'a\tb\nc', tags: ['x', 'y'], created_at: T }];
    const out = await renderList([rows], 'tsv', {
      columns: [{ key: 'uid' }, { key: 'body' }, { key: 'tags', kind: 'list' }, { key: 'created_at', kind: 'time' }],
    });
    expect(out.text()).toBe('uid\tbody\ttags\tcreated_at\nn_1\ta b c\tx;y\t2026-11-20T14:03:00Z\n');
  });

  it.each(['csv', 'tsv'] as const)('%s with --no-header prints rows only', async (format) => {
    const out = await renderList([computers.slice(0, 1)], format, { header: false });
    const sep = format === 'csv' ? ',' : '\t';
    expect(out.text()).toBe(`${['c_1', 'alpha', 'OK', '2026-11-20T14:00:00Z', 'true'].join(sep)}\n`);
  });

  it.each([
    ['csv', true, 'uid,name,status,last_report,online\n'],
    ['tsv', true, 'uid\tname\tstatus\tlast_report\tonline\n'],
    ['csv', false, ''],
  ] as const)('an empty %s list (header %s) prints the header only', async (format, header, expected) => {
    expect((await renderList([[]], format, { header })).text()).toBe(expected);
  });

  it('csv uses a derived column value', async () => {
    const out = await renderList([computers.slice(0, 2)], 'csv', {
      columns: [{ key: 'uid' }, { key: 'flags', get: (r) => (r.online ? 'up' : 'down') }],
    });
    expect(out.text()).toBe('uid,flags\nc_1,up\nc_22,down\n');
  });
});

describe('--fields', () => {
  const fields = ['status', 'uid', 'extra'];

  it.each([
    ['csv', 'status,uid,extra\nOK,c_1,"{""nested"":[1,2]}"\nAlert,c_22,\n'],
    ['tsv', 'status\tuid\textra\nOK\tc_1\t{"nested":[1,2]}\nAlert\tc_22\t\n'],
  ] as const)('%s: selects and orders columns; an unknown key is a text column', async (format, expected) => {
    expect((await renderList([computers.slice(0, 2)], format, { fields })).text()).toBe(expected);
  });

  it('json: keeps only these keys, in --fields order, absent keys stay absent', async () => {
    const out = await renderList([computers.slice(0, 2)], 'json', { fields });
    expect(out.text()).toBe(
      `${JSON.stringify(
        [
          { status: 'OK', uid: 'c_1', extra: { nested: [1, 2] } },
          { status: 'Alert', uid: 'c_22' },
        ],
        null,
        2,
      )}\n`,
    );
  });

  it('ndjson: keeps only these keys, in order', async () => {
    const out = await renderList([computers.slice(0, 1)], 'ndjson', { fields: ['name', 'uid'] });
    expect(out.text()).toBe('{"name":"alpha","uid":"c_1"}\n');
  });

  it('table: a known column keeps its header and kind', async () => {
    const out = await renderList([computers.slice(0, 1)], 'table', { fields: ['online', 'name', 'extra'] });
    expect(out.text()).toBe('ONLINE  COMPUTER  EXTRA\nyes     alpha     {"nested":[1,2]}\n');
  });
});

describe('table list', () => {
  it('is borderless, aligned, humanised, with no escape codes without colour', async () => {
    const out = await renderList([computers.slice(0, 1), computers.slice(1)], 'table');
    expect(out.text()).toBe(
      [
        'UID    COMPUTER             STATUS   LAST REPORT       ONLINE',
        'c_1    alpha                OK       2026-11-20 14:00  yes',
        'c_22   bravo, "the second"  Alert    2026-11-20 12:03  no',
        'c_333  Zürich 東京          Warning  2026-11-15 14:03',
        '',
      ].join('\n'),
    );
    expect(out.text()).not.toContain(ESC);
  });

  it('on a TTY without colour: relative times and truncation, still no escapes', async () => {
    const out = await renderList([computers], 'table', { tty: true });
    expect(out.text()).toBe(
      [
        'UID    COMPUTER  STATUS   LAST REPORT  ONLINE',
        'c_1    alpha     OK       3 min ago    yes',
        'c_22   bravo, …  Alert    2 hours ago  no',
        'c_333  Zürich …  Warning  5 days ago',
        '',
      ].join('\n'),
    );
    expect(out.text()).not.toContain(ESC);
  });

  it('with colour: bold headings and coloured statuses, same layout once escapes are stripped', async () => {
    const coloured = (await renderList([computers], 'table', { tty: true, color: true })).text();
    const plain = (await renderList([computers], 'table', { tty: true })).text();
    expect(coloured).toContain(`${ESC}[1mUID${ESC}[22m`);
    expect(coloured).toContain(`${ESC}[32mOK${ESC}[39m`);
    expect(coloured).toContain(`${ESC}[31mAlert${ESC}[39m`);
    expect(coloured).toContain(`${ESC}[33mWarning${ESC}[39m`);
    expect(coloured.replace(/\x1b\[\d+m/g, '')).toBe(plain);
  });

  it('--no-header drops the heading row', async () => {
    const out = await renderList([computers.slice(0, 1)], 'table', { header: false });
    expect(out.text()).toBe('c_1  alpha  OK  2026-11-20 14:00  yes\n');
  });

  it('keeps every row on one line', async () => {
    const out = await renderList([[{ uid: 'n_1', name: 'two\nlines' }]], 'table', { fields: ['uid', 'name'] });
    expect(out.text()).toBe('UID  COMPUTER\nn_1  two lines\n');
  });

  it('writes nothing until end(), then once', async () => {
    const opts = options('table');
    const list = await createListRenderer(opts);
    list.push(computers);
    expect(opts.out.chunks).toHaveLength(0);
    list.end();
    expect(opts.out.chunks).toHaveLength(1);
  });

  it.each([[[]], [[[]]]])('an empty list prints nothing (pages %j)', async (pages) => {
    expect((await renderList(pages, 'table')).text()).toBe('');
    expect((await renderList(pages, 'table', { color: true, tty: true })).text()).toBe('');
  });
});

describe('renderObject', () => {
  const obj = computers[0]!;

  it.each([
    ['json', undefined, `${JSON.stringify(obj, null, 2)}\n`],
    ['json', ['name', 'uid', 'missing'], '{\n  "name": "alpha",\n  "uid": "c_1"\n}\n'],
    ['ndjson', undefined, `${JSON.stringify(obj)}\n`],
    ['ndjson', ['online'], '{"online":true}\n'],
    ['csv', undefined, 'uid,name,status,last_report,online\nc_1,alpha,OK,2026-11-20T14:00:00Z,true\n'],
    ['csv', ['uid', 'extra'], 'uid,extra\nc_1,"{""nested"":[1,2]}"\n'],
    ['tsv', ['uid', 'online'], 'uid\tonline\nc_1\ttrue\n'],
    [
      'table',
      undefined,
      'UID          c_1\nCOMPUTER     alpha\nSTATUS       OK\nLAST REPORT  2026-11-20 14:00\nONLINE       yes\n',
    ],
    ['table', ['online', 'extra'], 'ONLINE  yes\nEXTRA   {"nested":[1,2]}\n'],
  ] as const)('%s with fields %j', async (format, fields, expected) => {
    const opts = options(format, fields ? { fields: [...fields] } : {});
    await renderObject(obj, opts);
    expect(opts.out.text()).toBe(expected);
  });

  it('table without columns lists the object own keys', async () => {
    const opts = options('table', { columns: [] });
    await renderObject({ uid: 'u_1', active: true }, opts);
    expect(opts.out.text()).toBe('UID     u_1\nACTIVE  true\n');
  });

  it('table with colour: bold labels, coloured status', async () => {
    const opts = options('table', { color: true, fields: ['uid', 'status'] });
    await renderObject(obj, opts);
    expect(opts.out.text()).toBe(`${ESC}[1mUID${ESC}[22m     c_1\n${ESC}[1mSTATUS${ESC}[22m  ${ESC}[32mOK${ESC}[39m\n`);
  });

  it('csv with --no-header prints the row only', async () => {
    const opts = options('csv', { header: false, fields: ['uid'] });
    await renderObject(obj, opts);
    expect(opts.out.text()).toBe('c_1\n');
  });
});

it('OUTPUT_FORMATS lists the six formats', () => {
  expect(OUTPUT_FORMATS).toEqual(['table', 'json', 'ndjson', 'csv', 'tsv', 'openmetrics']);
});

describe('a lead key (the profile of a read across accounts)', () => {
  const lead = { key: 'profile', value: 'north "α"' };
  // Keys that order or collide differently: the lead's own, array indices, __proto__ (an own key
  // when JSON.parse makes the item), and any other.
  const key = fc.oneof(
    fc.constantFrom('profile', '0', '7', '12', '__proto__', 'uid', 'name'),
    fc.string({ maxLength: 4 }),
  );
  // Items as they come off the wire: through JSON text.
  const item = fc
    .dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 })
    .map((dict) => JSON.parse(JSON.stringify(dict)) as Record<string, unknown>);
  const copied = (pages: Record<string, unknown>[][]) =>
    pages.map((page) => page.map((it) => ({ [lead.key]: lead.value, ...it })));
  const leadColumns: Column[] = [{ key: 'profile' }, ...columns];

  it.each(OUTPUT_FORMATS.filter((format) => format !== 'openmetrics'))(
    '%s: prints each item as its copy with the key first prints, byte for byte',
    async (format) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(item, { maxLength: 4 }), { maxLength: 3 }),
          fc.constantFrom<string[] | undefined>(undefined, ['profile', 'uid', '0']),
          async (pages, fields) => {
            const over = { columns: leadColumns, fields };
            const withLead = options(format, over);
            const list = await createListRenderer(withLead);
            for (const page of pages) list.push(page, lead);
            list.end();
            expect(withLead.out.text()).toBe((await renderList(copied(pages), format, over)).text());
          },
        ),
      );
    },
  );
});
