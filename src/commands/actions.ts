import type { ApiClient, RequestInput } from '../api/client.js';
import type { RouteName } from '../api/endpoints.js';
import { leftAfter, MAX_PER_PAGE, type Page } from '../api/paginate.js';
import type { Context } from '../context.js';
import { drained } from '../output/drain.js';
import { createProgress, lineOptions } from '../output/progress.js';
import type { PagingValues } from '../spec/spec.js';
import type { RenderOptions } from '../output/types.js';
import { changesWanted } from '../changes/request.js';
import { confirmDeletion } from '../io/confirm.js';
import { changeSpecOf, renderOptions, withViewExpand, type View } from './view.js';
import { listChanges } from '../changes/track.js';

/**
 * The verbs most resources share: a list, one object (get, create, update), a delete. Each
 * prepares its request, hands it to ctx.dryRun (shown under --dry-run, else sent), and renders
 * what comes back. The render options are view.ts's; the confirmation io/confirm.ts's.
 */

/** What a list reads: the route, its request, the view it is shown in, and the paging asked for. */
interface ListRead {
  ctx: Context;
  client: ApiClient;
  route: RouteName;
  /** The request with the view's expand[] keys (listCommand's `input` as sent for a list). */
  request: RequestInput;
  render: RenderOptions;
  opts: PagingValues;
}

/**
 * A list: one page (or --all, --limit), --count, or --changes. With `sort`, an order the API
 * cannot serve (expirations soonest first): every page is read, then sorted, and --limit keeps
 * the first of that order; --page and --offset are the caller's to refuse. Otherwise pages
 * stream into the renderer as they come (ndjson lines appear while later pages are on their way).
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
  const read: ListRead = { ctx, client, route, request: withViewExpand(route, input, view, render), render, opts };
  if (changes) return changesOf(read, changes, view);
  // --count reads x-total alone: no names to expand.
  if (opts.count) return countOf({ ...read, request: input });
  if (sort) return sortedList(read, sort);
  return pagedList(read);
}

/** --changes: every page, 100 at a time unless --per-page says otherwise (the conflicting paging options were refused). */
async function changesOf(
  { ctx, client, route, request, render, opts }: ListRead,
  changes: NonNullable<ReturnType<typeof changesWanted>>,
  view: View,
): Promise<void> {
  const paging = { all: true, perPage: opts.perPage };
  const read = client.readOf(route, request, paging).input;
  const first = client.prepare(route, {
    ...read,
    query: { ...read.query, page: 1, per_page: opts.perPage ?? MAX_PER_PAGE },
  });
  if (await ctx.dryRun.shows(first)) return;
  await listChanges(ctx, changes, changeSpecOf(view), render, async (sink) => {
    for await (const page of client.pages(route, request, paging)) sink.push(page.items);
  });
}

/** --count: x-total of a one-item page; without the header, the records counted. */
async function countOf({ ctx, client, route, request, render }: ListRead): Promise<void> {
  const prepared = client.prepare(route, { ...request, query: { ...request.query, per_page: 1 } });
  if (await ctx.dryRun.shows(prepared)) return;
  let total: number | undefined;
  for await (const page of client.pages(route, request, { perPage: 1 })) total = page.total;
  if (total === undefined) {
    // No x-total header: count the records themselves.
    total = 0;
    for await (const page of client.pages(route, request, { all: true })) total += page.items.length;
  }
  await ctx.output.count(total, render);
}

/** An order the API cannot serve: every page read, sorted, the first --limit kept. */
async function sortedList(
  { ctx, client, route, request, render, opts }: ListRead,
  sort: (a: Record<string, unknown>, b: Record<string, unknown>) => number,
): Promise<void> {
  const first = client.prepare(route, {
    ...request,
    query: { ...request.query, page: 1, per_page: opts.perPage ?? MAX_PER_PAGE },
  });
  if (await ctx.dryRun.shows(first)) return;
  const items: Record<string, unknown>[] = [];
  for await (const page of client.pages(route, request, { all: true, perPage: opts.perPage }))
    items.push(...(page.items as Record<string, unknown>[]));
  const shown = items.sort(sort).slice(0, opts.limit);
  const renderer = await ctx.output.list(render);
  renderer.push(shown);
  renderer.end();
  if (shown.length === 0 && render.format === 'table') ctx.notice('No results.');
}

/** One page, --all or --limit: pages streamed into the renderer; a footnote when more follow. */
async function pagedList({ ctx, client, route, request, render, opts }: ListRead): Promise<void> {
  const read = client.readOf(route, request, opts).input;
  const first = client.prepare(route, {
    ...read,
    query: { ...read.query, page: opts.page, per_page: opts.perPage, offset: opts.offset },
  });
  if (await ctx.dryRun.shows(first)) return;
  const renderer = await ctx.output.list(render);
  // A table is printed once the last page is in: a person at a terminal sees the pages come.
  // The other formats print each page as it comes, and an account of many is one of several.
  const progress =
    render.format === 'table' && ctx.output.progress
      ? createProgress(ctx.io.stderr, ctx.now, lineOptions(ctx), ctx.rateWait)
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
  if (last && !opts.all && opts.limit === undefined) moreFollow(ctx, leftAfter(last, opts), shown);
}

/** No silent truncation: one page was asked for and more records follow it. */
function moreFollow(ctx: Context, left: ReturnType<typeof leftAfter>, shown: number): void {
  if (!left || shown === 0) return;
  const range = left.before > 0 ? `${left.before + 1}–${left.before + shown}` : String(shown);
  ctx.delivery.footnote(
    `showing ${range}${left.total === undefined ? '; more pages follow' : ` of ${left.total}`} — add --all for every page`,
  );
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
  const sent = await ctx.dryRun.send(prepared);
  if (!sent) return undefined;
  const result = sent.data as Record<string, unknown>;
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
  const prepared = (await ctx.client()).prepare(route, input);
  const sent = await ctx.dryRun.send(prepared, () => confirmDeletion(ctx, describe));
  if (sent) ctx.notice('Deleted.');
}
