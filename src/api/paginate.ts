/**
 * The one paginator: every list command, `mon api --paginate` and the fleet commands walk the
 * pages of a list through paginate(), with one rule for where a list ends:
 *
 * 1. The page size is the server's: x-per-page when sent, else the length of the first page
 *    when the totals say more follow (a server may serve fewer than per_page asks), else the
 *    per_page asked for.
 * 2. The totals the server sends are a promise: x-total records (counted from the first record
 *    asked for), else x-total-pages pages. The pages up to the promised end are fetched a few at
 *    a time, yielded in order; past it, x-next-page is followed while it names a later page and
 *    the page's own x-total, when sent, has records left: a list that grew while it was read
 *    says so there. Once every record it counts is read the list ends, whatever x-next-page
 *    says, unless a page already holds more than it counts (rule 4).
 * 3. Without totals, pages are followed one at a time while x-next-page names a page, or,
 *    without x-next-page either, while pages come back full. An empty page then ends the list.
 * 4. A page that breaks the promise is a ServerError (exit 7, a partial read), never the end:
 *    an empty, short or non-list page before the promised end, a page that brings the records
 *    read past its own x-total while more follow (`x-total: 10` over full pages), an x-total
 *    that is no count of records (`-1`, `500 records`), without totals an x-next-page that
 *    names the page itself or an earlier one, and a page that repeats one read before (a
 *    server that ignores `page`, a
 *    loop) whatever the headers say.
 * 5. A full read (`all`, no `limit`) is whole only when it holds as many DISTINCT records (by uid,
 *    else id) as x-total promised: a record that moves between pages while the list is read (a
 *    computer that reports, in the default most-recently-reported order) is read twice while
 *    another is never read, and the count of records alone still adds up. Fewer distinct records
 *    than the first page's x-total (or than the last page's, for a list that shrank) is a
 *    MovedWhileRead (exit 7), thrown before the last page is yielded. A list that grows while it
 *    is read holds every record it promised and passes. Readers that hold the whole list before
 *    using it read it once more (readWhole); where a list has an order that a change does not
 *    move (computers: created_desc), the client reads in it (client.ts, STABLE_ORDERS).
 *
 * Pages are yielded as they come and the next ones are asked for only as the reader takes
 * them (at most PAGE_CONCURRENCY ahead), so a slow reader holds a few pages, not the list.
 */
import { hasNext, pageSize, recordCount, serverPerPage, type Page } from './page-headers.js';
import { MovedWhileRead, promiseOf, Walk } from './page-walk.js';

export type { Page } from './page-headers.js';
export { MovedWhileRead } from './page-walk.js';

export interface Paging {
  /** First page to ask for (1 unless given). */
  page?: number;
  perPage?: number;
  /** Records to skip: pages are then counted from it (offset, offset + per_page…). */
  offset?: number;
  /** Every page to the end (else only the first, or as many as `limit` needs). */
  all?: boolean;
  /** At most this many items in all. */
  limit?: number;
  /**
   * The reader does not care in which order the records come (it counts, groups or sorts them
   * itself): a full read of a list with an order that a change does not move streams in that
   * order, unsorted (client.ts, STABLE_ORDERS).
   */
  anyOrder?: boolean;
  /** Told of each page as it is read, also when a sorted full read yields them only at its end (progress). */
  onPage?: (page: Page) => void;
}

/** What one page request adds to the query. */
export interface PageQuery {
  page?: number;
  per_page?: number;
  offset?: number;
}

/** Fetches one page (retries, budget and all); its data is the parsed answer. */
export type FetchPage = (query: PageQuery) => Promise<{ data: unknown; headers: Record<string, string> }>;

/** per_page limit of api-v2.5, Limits. */
export const MAX_PER_PAGE = 100;
/** per_page when none is asked for (api-v2.5, Pagination). */
export const DEFAULT_PER_PAGE = 50;
/** How many pages are fetched at once when the end is known; the rate budget still bounds the pace. */
export const PAGE_CONCURRENCY = 4;

/**
 * Yields the pages of a list in order. Without `all` one page (or, with `limit`, as many as the
 * limit needs, the last one cut to it); with `all` every page to the end (see the rule above).
 * A page that contradicts the totals ends the walk with a ServerError before it is yielded.
 */
export async function* paginate(fetch: FetchPage, paging: Paging, name = 'the list'): AsyncGenerator<Page> {
  const asked = paging.perPage ?? (paging.all ? MAX_PER_PAGE : undefined);
  const firstPage = paging.page ?? 1;
  // per_page asked for until the first page tells the server's own (rule 1).
  let size = asked ?? DEFAULT_PER_PAGE;
  /** Page `n`; with an offset, the records after `skip` of them (by default the pages before it). */
  const get = async (n: number, skip = (n - firstPage) * size): Promise<Page> => {
    const query: PageQuery =
      paging.offset === undefined ? { page: n, per_page: asked } : { per_page: asked, offset: paging.offset + skip };
    const { data, headers } = await fetch(query);
    const total = recordCount(headers['x-total'], name, n);
    const items = Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
    return { number: n, items, headers, data, ...(total === undefined ? {} : { total }) };
  };

  let remaining = paging.limit ?? Number.POSITIVE_INFINITY;
  const take = (page: Page): Page => {
    remaining -= page.items.length;
    return remaining >= 0 ? page : { ...page, items: page.items.slice(0, page.items.length + remaining) };
  };

  const first = await get(firstPage);
  // An answer that is not a list (`mon api --paginate` over an object) is yielded as it came.
  if (!Array.isArray(first.data)) {
    yield first;
    return;
  }
  size = pageSize(
    first,
    asked ?? DEFAULT_PER_PAGE,
    paging.offset ?? (firstPage - 1) * (asked ?? DEFAULT_PER_PAGE),
    paging.offset === undefined,
  );
  // The records ahead of the first page, which x-total counts too.
  const before = paging.offset ?? (firstPage - 1) * size;
  const promise = promiseOf(first, size, firstPage, before, paging.offset !== undefined);
  const whole = paging.all === true && paging.limit === undefined;
  const walk = new Walk(promise, size, before, paging.offset !== undefined, name, whole);
  const more = walk.accept(first);
  yield take(first);
  if ((paging.all !== true && paging.limit === undefined) || remaining <= 0 || !more) return;

  // --limit needs no page past the one that holds its last item.
  const end =
    promise.lastPage === undefined || paging.limit === undefined
      ? promise.lastPage
      : Math.min(promise.lastPage, firstPage - 1 + Math.ceil(paging.limit / size));
  let last = first;
  if (end !== undefined && end > firstPage) {
    for await (const { page, goesOn } of fetchedAhead(get, firstPage + 1, end, (page) => walk.accept(page))) {
      yield take(page);
      if (remaining <= 0 || !goesOn) return;
      last = page;
    }
  }
  // Past the promised end (or with no promise): one page at a time, while one more is due; with
  // an offset, from the records read so far (a server's size may be unknown without totals).
  while (remaining > 0 && walk.goesOn(last)) {
    const page = await get(last.number + 1, walk.read);
    walk.accept(page);
    yield take(page);
    last = page;
  }
}

/**
 * Rule 2: pages `from` to `end`, PAGE_CONCURRENCY of them asked for at once, each handed to
 * `accept` (which says whether another follows) in order before the next ones are asked for.
 */
async function* fetchedAhead(
  get: (n: number) => Promise<Page>,
  from: number,
  end: number,
  accept: (page: Page) => boolean,
): AsyncGenerator<{ page: Page; goesOn: boolean }> {
  const inFlight: Promise<Page>[] = [];
  let next = from;
  const refill = () => {
    while (inFlight.length < PAGE_CONCURRENCY && next <= end) {
      const page = get(next++);
      page.catch(() => undefined); // awaited in order below; this keeps an early failure from going unhandled
      inFlight.push(page);
    }
  };
  refill();
  while (inFlight.length > 0) {
    const page = await inFlight.shift()!;
    const goesOn = accept(page);
    refill();
    yield { page, goesOn };
  }
}

/**
 * What a read that stopped at `page` left out (neither --all nor --limit): the records after
 * it, or undefined when nothing follows. `before` is the number of records ahead of the page
 * (its offset); `total` is x-total when sent (without it, whether x-next-page names a page).
 */
export function leftAfter(page: Page, paging: Paging): { before: number; total?: number } | undefined {
  const size = serverPerPage(page) ?? paging.perPage ?? DEFAULT_PER_PAGE;
  const before = paging.offset ?? (page.number - 1) * size;
  if (page.total !== undefined)
    return before + page.items.length < page.total ? { before, total: page.total } : undefined;
  return page.items.length > 0 && hasNext(page, size) ? { before } : undefined;
}

/**
 * Every page of a full read, for a reader that holds the whole list before it uses it: a read
 * that missed a record that moved between pages (rule 5) is read once more, and a second such
 * read is the failure (exit 7).
 */
export async function readWhole(read: () => AsyncIterable<Page>): Promise<Page[]> {
  return onceMoreIfMoved(async () => {
    const pages: Page[] = [];
    for await (const page of read()) pages.push(page);
    return pages;
  });
}

/** Runs a whole read, and once more when records moved while it was read (rule 5). */
export async function onceMoreIfMoved<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof MovedWhileRead) || attempt === 2) throw error;
    }
  }
}

/** The items of the pages, one by one. */
export async function* itemsOf(pages: AsyncIterable<Page>): AsyncGenerator<Record<string, unknown>> {
  for await (const page of pages) yield* page.items;
}
