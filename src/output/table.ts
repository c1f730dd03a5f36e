/**
 * The only module that touches cli-table3 and chalk, and only through dynamic imports: the
 * CLI must start fast, and json/ndjson/csv/tsv never need either.
 */
import type { Palette } from './format.js';
import { cutToWidth, displayWidth } from './width.js';

/** A loaded table layout, with the palette to colour cells when colour is on. */
export interface TableKit {
  /** Borderless, left-aligned columns two spaces apart; no trailing spaces; ends with '\n'. */
  grid(head: readonly string[] | undefined, rows: readonly (readonly string[])[]): string;
  /** Cuts a cell to a width in terminal columns, ending with `…` (see width.ts). */
  cut(text: string, width: number): string;
  palette: Palette | undefined;
}

// Every border character blank: a gh-like layout that greps and copies cleanly.
const NO_BORDER = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};

/** The space after each column. */
const GAP = 2;

/**
 * Rows cli-table3 draws at a time. Its layout compares each cell with every earlier cell of the
 * same table (span detection), so one table of n rows costs n²: drawn in pieces of this many
 * rows, a table costs what its rows cost.
 */
const CHUNK_ROWS = 32;

/**
 * The longest table cli-table3 draws. Even in pieces it spends about 0.3 ms a row (per cell, 17
 * option merges and four width measures that each build an ANSI pattern anew): 3.4 s of CPU for
 * 10,000 rows of seven columns, against 0.24 s for the same lines joined here, where a CSV of the
 * whole command takes about 1 s. Past this many rows the lines are joined here, cell by cell as
 * cli-table3 would draw them, which test/unit/table-look.test.ts checks byte for byte.
 */
const MAX_TABLE_ROWS = 1_000;

// Colour escapes, which take no columns (chalk writes SGR sequences only).
const SGR = /\x1b\[[0-9;]*m/g;
// Printable ASCII: one column per character by every measure, cli-table3's included.
const PLAIN = /^[\x20-\x7e]*$/;

// Keys in lower case; statuses of plugin results (api-v2.5, Plugin result status values)
// and the worrying computer statuses.
const STATUS_COLOURS: Record<string, 'green' | 'yellow' | 'red' | 'cyan'> = {
  ok: 'green',
  warning: 'yellow',
  alert: 'red',
  missing: 'red',
  informational: 'cyan',
};

async function loadPalette(): Promise<Palette> {
  const { Chalk } = await import('chalk');
  // The caller already decided colour is wanted (TTY, FORCE_COLOR…); chalk's own detection
  // would say no in a pipe or a test, so force the basic 16-colour level we need.
  const chalk = new Chalk({ level: 1 });
  return {
    header: (s) => chalk.bold(s),
    status: (value, s) => {
      const colour = STATUS_COLOURS[value.toLowerCase()];
      return colour ? chalk[colour](s) : s;
    },
  };
}

/** Loads cli-table3, the width measure (and chalk when `color`). */
export async function loadTableKit(color: boolean): Promise<TableKit> {
  const [{ default: Table }, palette] = await Promise.all([
    import('cli-table3'),
    color ? loadPalette() : Promise.resolve(undefined),
  ]);

  /** cli-table3's drawing of `rows`, each cell already as wide as its column. */
  const draw = (rows: readonly string[][]): string[] => {
    const table = new Table({
      chars: NO_BORDER,
      // head/border [] stop cli-table3 from colouring on its own.
      style: { 'padding-left': 0, 'padding-right': GAP, head: [], border: [], compact: true },
    });
    for (const row of rows) table.push(row);
    // The padding after the last column is noise at the end of every line.
    return table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd());
  };

  return {
    palette,
    cut: cutToWidth,
    grid(head, body) {
      const rows = head ? [head.map((h) => (palette ? palette.header(h) : h)), ...body] : body;
      // Every width is measured once, by display width (a CJK character or an emoji takes two
      // columns), and each cell padded to its column's width here: cli-table3, which measures
      // with an older rule of its own, then finds every cell of a column equally wide and only
      // adds the gap. A row that is all printable ASCII measures the same by any rule, so such
      // rows are drawn CHUNK_ROWS at a time; any other row is drawn alone, where cli-table3's
      // own measure cannot widen a column for the rows around it.
      const measured = rows.map((row) => row.map((cell) => displayWidth(cell)));
      const widths: number[] = [];
      for (const row of measured) row.forEach((w, i) => (widths[i] = Math.max(widths[i] ?? 0, w)));
      const lines: string[] = [];
      if (rows.length > MAX_TABLE_ROWS) {
        rows.forEach((row, r) =>
          lines.push(
            row
              .map((cell, i) => cell + ' '.repeat(widths[i]! - measured[r]![i]! + GAP))
              .join('')
              .trimEnd(),
          ),
        );
        return `${lines.join('\n')}\n`;
      }
      let chunk: string[][] = [];
      const flush = (): void => {
        if (chunk.length > 0) lines.push(...draw(chunk));
        chunk = [];
      };
      rows.forEach((row, r) => {
        const padded = row.map((cell, i) => cell + ' '.repeat(widths[i]! - measured[r]![i]!));
        if (row.every((cell) => PLAIN.test(cell.replace(SGR, '')))) {
          chunk.push(padded);
          if (chunk.length === CHUNK_ROWS) flush();
        } else {
          flush();
          chunk = [padded];
          flush();
        }
      });
      flush();
      return `${lines.join('\n')}\n`;
    },
  };
}
