import type { RequestInput } from '../api/client.js';
import { withExpand } from '../api/encode.js';
import { routeOf, type RouteName } from '../api/endpoints.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { sharedKeys } from '../output/columns.js';
import type { Column, RenderOptions } from '../output/types.js';
import type { ChangeSpec } from '../changes/track.js';
import { closest } from '../validate/suggest.js';

/**
 * How a verb's answer is shown: a resource's view (columns, --fields keys, the names a table
 * expands) and the render options the global flags, the terminal and the environment make of it.
 */

/** How a resource is shown: its default columns and every key --fields accepts. */
export interface View {
  columns: Column[];
  fields: readonly string[];
  /**
   * Related objects a table names rather than showing their uids (group, product, owner). They
   * are expanded for table output; CSV and TSV expand the group alone, when they show its column
   * (the group's name in every format for people and sheets, docs/design/cli-contract.md); JSON and ndjson
   * stay as the API sends them.
   */
  tableExpand?: readonly string[];
  /** What `--changes` compares by default, and what the items are called (src/changes). */
  changes?: ChangeSpec;
}

/**
 * The expand[] keys the output needs: a table's names; in CSV and TSV the group's, when a group
 * column is shown (other columns of a sheet keep the API's uids).
 */
function expandFor(view: View, render: RenderOptions): readonly string[] {
  if (render.format === 'table') return view.tableExpand ?? [];
  const shown = render.fields ?? render.columns.map((column) => column.key);
  if ((render.format === 'csv' || render.format === 'tsv') && shown.includes('group'))
    return view.tableExpand?.filter((key) => key === 'group') ?? [];
  return [];
}

/** Adds the view's expand[] keys to a read when the output is for people or a sheet (expandFor). */
export function withViewExpand(route: RouteName, input: RequestInput, view: View, render: RenderOptions): RequestInput {
  const keys = expandFor(view, render);
  if (keys.length === 0) return input;
  // expand[] is accepted on every request (api-v2.5, conventions 8): a create or update answers
  // with names too, so its table reads like the list's. It goes where the client sends it.
  if (routeOf(route).method !== 'GET')
    return { ...input, body: { ...input.body, expand: withExpand(input.body?.expand, keys) } };
  return { ...input, query: { ...input.query, expand: withExpand(input.query?.expand, keys) } };
}

/** Render options from the global flags, the terminal and the environment. */
export function renderOptions(ctx: Context, view: View): RenderOptions {
  const { globals, io } = ctx;
  // Across accounts every item has a `profile` too (src/fleet/accounts.ts).
  const keys = [...view.fields, ...view.columns.map((column) => column.key)];
  const known = [...new Set([...keys, ...sharedKeys(keys), ...ctx.output.addedKeys])];
  const unknown = globals.fields?.filter((field) => !known.includes(field)) ?? [];
  if (unknown.length > 0) {
    // The nearest key for each typo rather than the whole list (a computer has 90).
    const guesses = unknown.map((field) => closest(field, known));
    const computed = view.columns
      .filter((column) => column.get && !view.fields.includes(column.key))
      .map((column) => column.key);
    throw new UsageError(
      `--fields: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`,
      guesses.every((guess) => guess !== undefined)
        ? `did you mean --fields ${globals.fields!.map((field) => guesses[unknown.indexOf(field)] ?? field).join(',')}?`
        : `the keys are those of -o json${computed.length ? `, and the table's columns ${computed.join(', ')}` : ''}`,
    );
  }
  const tty = io.stdout.isTTY === true;
  return {
    format: globals.output,
    columns: view.columns,
    fields: globals.fields,
    header: globals.header,
    compact: globals.jq !== undefined,
    color: colourWanted(ctx, tty),
    tty,
    now: ctx.now,
    out: io.stdout,
  };
}

/**
 * Colour only on a terminal (docs/design/cli-contract.md, Output): --no-color and NO_COLOR turn it off,
 * and so does TERM=dumb (a terminal that draws no escapes: Emacs' shell, a serial console);
 * FORCE_COLOR (other than 0) turns it on even in a pipe or on a dumb terminal, for those who ask.
 */
export function colourWanted(ctx: Context, tty: boolean): boolean {
  const { env, globals } = ctx;
  if (!globals.color || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '')
    return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return tty && env.TERM !== 'dumb';
}

/** What --changes compares for a view: its declaration, else the uid alone (only new and gone). */
export function changeSpecOf(view: View): ChangeSpec {
  return view.changes ?? { noun: 'items', compare: [] };
}
