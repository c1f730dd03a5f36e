/**
 * Renders API objects in the five output formats. json/ndjson/csv/tsv stream each page as it
 * is pushed; a table waits for the last page, since column widths depend on every row.
 */
import { pickFields, resolveColumns, type ResolvedColumn } from './columns.js';
import { formatCell, plainValue, toCsvRow, toTsvRow } from './format.js';
import { loadTableKit, type TableKit } from './table.js';
import type { FirstKey, ListRenderer, Reading, RenderOptions } from './types.js';
import { toJson } from '../text/json.js';
import { writeText } from './write.js';

export type { ListRenderer } from './types.js';

type Row = Record<string, unknown>;

/** The items with the first key put first: a copy of each (see FirstKey). */
function withFirstKey(items: readonly Row[], firstKey: FirstKey | undefined): readonly Row[] {
  return firstKey ? items.map((item) => ({ [firstKey.key]: firstKey.value, ...item })) : items;
}

/**
 * One JSON array, written page by page, byte-identical to `JSON.stringify(all, null, 2)`
 * plus a newline, without holding more than the page at hand.
 */
/** How csv, tsv and JSON read a derived column: for a machine, at the command's clock. */
function machineReading(opts: RenderOptions): Reading {
  return { nowMs: opts.now(), machine: true };
}

function jsonList(opts: RenderOptions): ListRenderer {
  let first = true;
  // Each page is stringified as an array of its own, whose brackets are cut: what is between them
  // is exactly what the whole array holds for those items (one pass, no re-indenting).
  const [open, between, close, cut] = opts.compact ? ['[', ',', ']\n', 1] : ['[\n', ',\n', '\n]\n', 2];
  return {
    push(items, firstKey) {
      if (items.length === 0) return;
      const copies = withFirstKey(items, firstKey);
      const page = opts.fields
        ? copies.map((item) => pickFields(item, opts.fields, opts.columns, machineReading(opts)))
        : copies;
      const text = toJson(page, opts.compact ? undefined : 2);
      writeText(opts.out, (first ? open : between) + text.slice(cut, -cut));
      first = false;
    },
    end() {
      opts.out.write(first ? '[]\n' : close);
    },
  };
}

function ndjsonList(opts: RenderOptions): ListRenderer {
  return {
    push(items, firstKey) {
      if (items.length === 0) return;
      // The first key is written into each line rather than copied into each item: across accounts,
      // copying every item cost about a tenth of `--all-profiles … -o ndjson`.
      const spliced = firstKey !== undefined && opts.fields === undefined;
      const reading = machineReading(opts);
      const line = spliced
        ? firstKeyLine(firstKey)
        : (item: Row) => toJson(pickFields(item, opts.fields, opts.columns, reading));
      writeText(opts.out, (spliced ? items : withFirstKey(items, firstKey)).map((item) => `${line(item)}\n`).join(''));
    },
    end() {},
  };
}

/** One item's JSON with the first key put first, byte for byte what withFirstKey's copy prints. */
function firstKeyLine(firstKey: FirstKey): (item: Row) => string {
  const head = `{${toJson(firstKey.key)}:${toJson(firstKey.value)}`;
  return (item) => {
    const text = toJson(item);
    // Where the copy orders keys otherwise, it is made: a key of the item's own stays where the
    // item has it, and keys that are array indices ("0", "12") come before every other key of an
    // object (JSON.stringify writes them first, so the first one tells). Anything but an object
    // (never a list's item) is copied too.
    if (Object.hasOwn(item, firstKey.key) || !text.startsWith('{') || /^\{"\d+":/.test(text))
      return toJson({ [firstKey.key]: firstKey.value, ...item });
    return text === '{}' ? `${head}}` : `${head},${text.slice(1)}`;
  };
}

/**
 * csv/tsv. Lines end with '\n', not RFC 4180's CRLF: that is what Unix tools and every
 * spreadsheet read, while quoting follows the RFC. The header row holds the column keys,
 * which are what --fields takes; it is written with the first page, or at the end for an
 * empty list, so a failed first request leaves stdout empty.
 */
function delimitedList(
  opts: RenderOptions,
  cols: readonly ResolvedColumn[],
  toRow: (values: readonly unknown[]) => string,
): ListRenderer {
  let headerDue = opts.header;
  const writeHeader = (): string => {
    if (!headerDue) return '';
    headerDue = false;
    return `${toRow(cols.map((c) => c.key))}\n`;
  };
  return {
    push(items, firstKey) {
      if (items.length === 0) return;
      const reading = machineReading(opts);
      const lines = withFirstKey(items, firstKey).map(
        (item) => `${toRow(cols.map((c) => plainValue(c.value(item, reading), c.kind)))}\n`,
      );
      opts.out.write(writeHeader() + lines.join(''));
    },
    end() {
      const header = writeHeader();
      if (header) opts.out.write(header);
    },
  };
}

function cells(row: Row, cols: readonly ResolvedColumn[], opts: RenderOptions, kit: TableKit): string[] {
  const reading = { nowMs: opts.now(), machine: false };
  return cols.map((c) =>
    formatCell(c.value(row, reading), c.kind, {
      tty: opts.tty,
      now: opts.now,
      maxWidth: c.maxWidth,
      cut: kit.cut,
      palette: kit.palette,
    }),
  );
}

/**
 * Creates the renderer for `opts.format`. Async because a table loads cli-table3 (and chalk)
 * on demand; the other formats load nothing.
 */
export async function createListRenderer(opts: RenderOptions): Promise<ListRenderer> {
  const cols = resolveColumns(opts.columns, opts.fields);
  switch (opts.format) {
    case 'json':
      return jsonList(opts);
    case 'ndjson':
      return ndjsonList(opts);
    case 'csv':
      return delimitedList(opts, cols, toCsvRow);
    case 'tsv':
      return delimitedList(opts, cols, toTsvRow);
    case 'table': {
      const kit = await loadTableKit(opts.color);
      // Formatted strings only: the objects themselves are not kept past their page.
      const rows: string[][] = [];
      return {
        push(items, firstKey) {
          for (const item of withFirstKey(items, firstKey)) rows.push(cells(item, cols, opts, kit));
        },
        end() {
          // An empty table prints nothing: the caller says "No results" on stderr.
          if (rows.length === 0) return;
          opts.out.write(kit.grid(opts.header ? cols.map((c) => c.header) : undefined, rows));
        },
      };
    }
    case 'openmetrics':
      // main.ts refuses -o openmetrics before a verb that does not print metrics runs.
      throw new Error('-o openmetrics reached a list');
  }
}

/**
 * Renders one object. json/ndjson print it as received (keys picked by --fields); csv/tsv
 * print a header and one row; a table is a vertical listing of label and value, one line per
 * column (or field). With neither columns nor fields, the table lists the object's own keys.
 */
export async function renderObject(obj: Row, opts: RenderOptions): Promise<void> {
  switch (opts.format) {
    case 'json':
      writeText(
        opts.out,
        `${toJson(pickFields(obj, opts.fields, opts.columns, machineReading(opts)), opts.compact ? undefined : 2)}\n`,
      );
      return;
    case 'ndjson':
      writeText(opts.out, `${toJson(pickFields(obj, opts.fields, opts.columns, machineReading(opts)))}\n`);
      return;
    case 'csv':
    case 'tsv': {
      const list = await createListRenderer(opts);
      list.push([obj]);
      list.end();
      return;
    }
    case 'table': {
      const columns = opts.columns.length > 0 || opts.fields ? opts.columns : Object.keys(obj).map((key) => ({ key }));
      const cols = resolveColumns(columns, opts.fields);
      if (cols.length === 0) return;
      const kit = await loadTableKit(opts.color);
      const values = cells(obj, cols, opts, kit);
      const label = (s: string): string => (kit.palette ? kit.palette.header(s) : s);
      opts.out.write(
        kit.grid(
          undefined,
          cols.map((c, i) => [label(c.header), values[i] ?? '']),
        ),
      );
      return;
    }
  }
}
