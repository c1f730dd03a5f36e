/**
 * The only module that touches cli-table3 and chalk, and only through dynamic imports: the
 * CLI must start fast, and json/ndjson/csv/tsv never need either.
 */
import type { Palette } from './format.js';

/** A loaded table layout, with the palette to colour cells when colour is on. */
export interface TableKit {
  /** Borderless, left-aligned columns two spaces apart; no trailing spaces; ends with '\n'. */
  grid(head: readonly string[] | undefined, rows: readonly (readonly string[])[]): string;
  palette: Palette | undefined;
}

// Every border character blank: a gh-like layout that greps and copies cleanly.
const NO_BORDER = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '',
};

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

/** Loads cli-table3 (and chalk when `color`). */
export async function loadTableKit(color: boolean): Promise<TableKit> {
  const [{ default: Table }, palette] = await Promise.all([
    import('cli-table3'),
    color ? loadPalette() : Promise.resolve(undefined),
  ]);
  return {
    palette,
    grid(head, rows) {
      const table = new Table({
        chars: NO_BORDER,
        // head/border [] stop cli-table3 from colouring on its own.
        style: { 'padding-left': 0, 'padding-right': 2, head: [], border: [], compact: true },
        ...(head ? { head: head.map((h) => (palette ? palette.header(h) : h)) } : {}),
      });
      for (const row of rows) table.push([...row]);
      // The padding after the last column is noise at the end of every line.
      const lines = table.toString().split('\n').map((line) => line.trimEnd());
      return lines.join('\n') + '\n';
    },
  };
}
