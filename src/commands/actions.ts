import type { PreparedRequest, RequestInput } from '../api/client.js';
import { withExpand } from '../api/encode.js';
import { routeOf, type RouteName } from '../api/endpoints.js';
import { leftAfter, MAX_PER_PAGE, type Page } from '../api/paginate.js';
import type { Context } from '../context.js';
import { DeclinedError, UsageError } from '../errors.js';
import { drained } from '../output/drain.js';
import { terminalSafe } from '../text/escape.js';
import { sharedKeys } from '../output/columns.js';
import type { Column, RenderOptions } from '../output/types.js';
import type { PagingValues } from '../spec/spec.js';
import type { ChangeSpec } from '../changes/track.js';
import { changesWanted } from '../changes/request.js';
import { closest } from '../validate/suggest.js';

/**
 * The steps most verbs share: send (or, with --dry-run, show) a request, and render what comes
 * back. Heavy modules (client, renderers) load here, at run time, never at start-up.
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
function withViewExpand(route: RouteName, input: RequestInput, view: View, render: RenderOptions): RequestInput {
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

/**
 * Prints the request --dry-run stands for (or the requests, in order, for a command that sends
 * several), key redacted. Returns true when nothing must be sent. `unsent` is what the closing
 * notice says was not sent (a bulk mute has read the selection by then).
 */
export async function showDryRun(
  ctx: Context,
  prepared: PreparedRequest | readonly PreparedRequest[],
  note?: string,
  unsent = 'nothing was sent',
): Promise<boolean> {
  if (!ctx.globals.dryRun) return false;
  const client = await ctx.client();
  const shown = (Array.isArray(prepared) ? prepared : [prepared]).map((one: PreparedRequest) => client.describe(one));
  if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') {
    const requests = shown.map((one) => ({ method: one.method, url: one.url, form: Object.fromEntries(one.form) }));
    const lines =
      ctx.globals.output === 'json'
        ? [JSON.stringify(requests.length === 1 ? requests[0] : requests, null, 2)]
        : requests.map((one) => JSON.stringify(one));
    ctx.io.stdout.write(`${lines.join('\n')}\n`);
  } else {
    const lines = shown.flatMap((one) => [
      `${one.method} ${one.url}`,
      ...one.form.map(([key, value]) => `${key}=${value}`),
    ]);
    ctx.io.stdout.write(`${lines.join('\n')}\n`);
  }
  ctx.notice(`dry run: ${unsent}${note ? ` (${note})` : ''}`);
  return true;
}

/**
 * --dry-run for a verb that changes this machine, not the account (profiles, --changes state,
 * the sandbox's data): nothing is changed, and the notice says what would have been. True when
 * the verb must stop there.
 */
export function dryRunLocally(ctx: Context, wouldDo: string): boolean {
  if (!ctx.globals.dryRun) return false;
  ctx.notice(`dry run: nothing was changed (this would ${wouldDo})`);
  return true;
}

/**
 * A list verb: --count prints x-total; otherwise pages stream into the renderer as they come
 * (ndjson lines appear while later pages are still on their way).
 */
/**
 * A list: one page (or --all, --limit), --count, or --changes. With `sort`, an order the API
 * cannot serve (expirations soonest first): every page is read, then sorted, and --limit keeps
 * the first of that order; --page and --offset are the caller's to refuse.
 */
export async function listCommand(
  ctx: Context,
  route: RouteName,
  input: RequestInput,
  view: View,
  opts: PagingValues,
  sort?: (a: Record<string, unknown>, b: Record<string, unknown>) => number,
): Promise<void> {
  const changes = changesWanted(opts);
  const render = renderOptions(ctx, view);
  const client = await ctx.client();
  if (changes) {
    // Every page, 100 at a time unless --per-page says otherwise (the conflicting paging options were refused).
    const request = withViewExpand(route, input, view, render);
    const paging = { all: true, perPage: opts.perPage };
    const read = client.readOf(route, request, paging).input;
    if (
      await showDryRun(
        ctx,
        client.prepare(route, { ...read, query: { ...read.query, page: 1, per_page: opts.perPage ?? MAX_PER_PAGE } }),
      )
    )
      return;
    const { listChanges } = await import('../changes/track.js');
    await listChanges(ctx, changes, changeSpecOf(view), render, async (sink) => {
      for await (const page of client.pages(route, request, paging)) sink.push(page.items);
    });
    return;
  }
  if (opts.count) {
    const prepared = client.prepare(route, { ...input, query: { ...input.query, per_page: 1 } });
    if (await showDryRun(ctx, prepared)) return;
    let total: number | undefined;
    for await (const page of client.pages(route, input, { perPage: 1 })) total = page.total;
    if (total === undefined) {
      // No x-total header: count the records themselves.
      total = 0;
      for await (const page of client.pages(route, input, { all: true })) total += page.items.length;
    }
    await ctx.output.count(total, render);
    return;
  }
  const request = withViewExpand(route, input, view, render);
  if (sort) {
    if (
      await showDryRun(
        ctx,
        client.prepare(route, {
          ...request,
          query: { ...request.query, page: 1, per_page: opts.perPage ?? MAX_PER_PAGE },
        }),
      )
    )
      return;
    const items: Record<string, unknown>[] = [];
    for await (const page of client.pages(route, request, { all: true, perPage: opts.perPage }))
      items.push(...(page.items as Record<string, unknown>[]));
    const shown = items.sort(sort).slice(0, opts.limit);
    const renderer = await ctx.output.list(render);
    renderer.push(shown);
    renderer.end();
    if (shown.length === 0 && render.format === 'table') ctx.notice('No results.');
    return;
  }
  const read = client.readOf(route, request, opts).input;
  const first = client.prepare(route, {
    ...read,
    query: { ...read.query, page: opts.page, per_page: opts.perPage, offset: opts.offset },
  });
  if (await showDryRun(ctx, first)) return;
  const renderer = await ctx.output.list(render);
  // A table is printed once the last page is in: a person at a terminal sees the pages come.
  // The other formats print each page as it comes, and an account of many is one of several.
  const progress =
    render.format === 'table' && ctx.output.progress
      ? (await import('../output/progress.js')).createProgress(ctx.io.stderr, ctx.now, ctx.globals.quiet, ctx.rateWait)
      : undefined;
  const noun = route.slice(0, route.indexOf('.')).replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`); // pluginResults: plugin results
  let shown = 0;
  let counted = 0;
  let last: Page | undefined;
  // Counted as read: a sorted full read (client.ts, readOf) yields its pages only once all are in.
  const onPage =
    progress &&
    ((page: Page) =>
      progress.update(
        `reading ${noun} ${(counted += page.items.length)}${page.total === undefined ? '' : `/${page.total}`}`,
      ));
  try {
    for await (const page of client.pages(route, request, { ...opts, onPage })) {
      renderer.push(page.items);
      shown += page.items.length;
      last = page;
      await drained(ctx.io.stdout, ctx.signal);
    }
  } finally {
    progress?.done();
  }
  renderer.end();
  if (shown === 0 && render.format === 'table') ctx.notice('No results.');
  // No silent truncation: one page was asked for and more records follow it.
  const left = last && !opts.all && opts.limit === undefined ? leftAfter(last, opts) : undefined;
  if (left && shown > 0) {
    const range = left.before > 0 ? `${left.before + 1}–${left.before + shown}` : String(shown);
    ctx.footnote(
      `showing ${range}${left.total === undefined ? '; more pages follow' : ` of ${left.total}`} — add --all for every page`,
    );
  }
}

/** What --changes compares for a view: its declaration, else the uid alone (only new and gone). */
export function changeSpecOf(view: View): ChangeSpec {
  return view.changes ?? { noun: 'items', compare: [] };
}

/** A verb that answers with one object: get, create, update. */
export async function objectCommand(
  ctx: Context,
  route: RouteName,
  input: RequestInput,
  view: View,
  confirm?: (result: Record<string, unknown>) => string | undefined,
): Promise<Record<string, unknown> | undefined> {
  const render = renderOptions(ctx, view);
  const client = await ctx.client();
  // Names instead of uids in a table, after a write as after a read.
  const prepared = client.prepare(route, withViewExpand(route, input, view, render));
  if (await showDryRun(ctx, prepared)) return undefined;
  const { data } = await client.send(prepared);
  const result = data as Record<string, unknown>;
  await ctx.output.object(result, render);
  const message = confirm?.(result);
  if (message) ctx.notice(message);
  return result;
}

/**
 * A delete: asks first on a terminal (showing what will go), refuses without --yes when no one
 * can answer (docs/design/cli-contract.md, Exit codes: 2), prints nothing on stdout on 204.
 */
export async function deleteCommand(
  ctx: Context,
  route: RouteName,
  input: RequestInput,
  describe: () => Promise<string>,
): Promise<void> {
  const client = await ctx.client();
  const prepared = client.prepare(route, input);
  if (await showDryRun(ctx, prepared)) return;
  await confirmDeletion(ctx, describe);
  await client.send(prepared);
  ctx.notice('Deleted.');
}

/** --yes, or a "y" typed on a terminal; with neither, a UsageError (exit 2) and nothing deleted. */
export async function confirmDeletion(ctx: Context, describe: () => Promise<string>): Promise<void> {
  await confirmAction(ctx, {
    question: async () => `Delete ${terminalSafe(await describe())}? This cannot be undone. [y/N] `,
    refusal: ['refusing to delete without --yes: no terminal to confirm on', 'add --yes (-y) to delete from a script'],
    declined: 'not deleted: the deletion was not confirmed',
  });
}

/** What a confirmation asks, and what it says when it cannot ask or is told no. */
export interface Confirmation {
  /** The question, ending in `[y/N] `; made only when there is someone to ask. */
  question: () => Promise<string>;
  /** Message and hint when there is no terminal and no --yes. */
  refusal: [string, string];
  /** Message when the answer is not yes. */
  declined: string;
  /** Shown on the terminal just before the question (what will be done), when it is asked. */
  preface?: () => Promise<void>;
}

/**
 * --yes, or a "y" typed on a terminal (stdin and stderr both terminals); without a terminal
 * and --yes, a UsageError (exit 2) before anything is sent; any other answer, a DeclinedError
 * (exit 1: the command line was right, the person said no).
 */
export async function confirmAction(ctx: Context, confirmation: Confirmation): Promise<void> {
  if (ctx.globals.yes) return;
  const { stdin, stderr } = ctx.io;
  if (!stdin.isTTY || !stderr.isTTY) throw new UsageError(...confirmation.refusal);
  await confirmation.preface?.();
  if (!(await askYesNo(ctx, await confirmation.question()))) throw new DeclinedError(confirmation.declined);
}

async function askYesNo(ctx: Context, question: string): Promise<boolean> {
  const { askLine } = await import('../io/prompt.js');
  return /^y(es)?$/i.test((await askLine(ctx, question)).trim());
}
