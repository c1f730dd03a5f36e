/**
 * The one paginator: every list command, `mon api --paginate` and the fleet commands walk the
 * pages of a list through paginate(), with one rule for where a list ends:
 *
 * 1. The first page names the end: x-total-pages, else x-total ÷ per_page (with an offset, the
 *    records after it). The pages up to it are fetched a few at a time, yielded in order.
 * 2. A server that sends neither is followed page by page: while x-next-page names a page, or,
 *    without x-next-page either, while pages come back full (per_page items).
 * 3. An empty page, or an answer that is not a JSON array, ends the list whatever the headers say.
 *
 * Pages are yielded as they come and the next ones are asked for only as the reader takes
 * them (at most PAGE_CONCURRENCY ahead), so a slow reader holds a few pages, not the list.
 */

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
}

/** One page of a list: its items and what the pagination headers said. */
export interface Page {
  /** The page number asked for (with an offset, counted from the first page fetched). */
  number: number;
  items: Record<string, unknown>[];
  /** x-total, when sent. */
  total?: number;
  headers: Record<string, string>;
  /** The answer as parsed; not an array when the path is not a list. */
  data: unknown;
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
 */
export async function* paginate(fetch: FetchPage, paging: Paging): AsyncGenerator<Page> {
  const perPage = paging.perPage ?? (paging.all ? MAX_PER_PAGE : undefined);
  const size = perPage ?? DEFAULT_PER_PAGE;
  const firstPage = paging.page ?? 1;
  const get = async (n: number): Promise<Page> => {
    const query: PageQuery =
      paging.offset === undefined ? { page: n, per_page: perPage } : { per_page: perPage, offset: paging.offset + (n - firstPage) * size };
    const { data, headers } = await fetch(query);
    const total = numberHeader(headers['x-total']);
    const items = Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
    return { number: n, items, headers, data, ...(total === undefined ? {} : { total }) };
  };

  let remaining = paging.limit ?? Number.POSITIVE_INFINITY;
  const take = (page: Page): Page => {
    remaining -= page.items.length;
    return remaining >= 0 ? page : { ...page, items: page.items.slice(0, page.items.length + remaining) };
  };
  const ends = (page: Page) => remaining <= 0 || page.items.length === 0 || !Array.isArray(page.data);

  const first = await get(firstPage);
  yield take(first);
  if ((paging.all !== true && paging.limit === undefined) || ends(first)) return;

  const end = lastPage(first, firstPage, size, paging.offset);
  // --limit needs no page past the one that holds its last item.
  const last = end === undefined || paging.limit === undefined ? end : Math.min(end, firstPage - 1 + Math.ceil(paging.limit / size));
  if (last === undefined) {
    // Rule 2: one page at a time, while the last one says there is another.
    for (let page = first; hasNext(page, size); ) {
      page = await get(page.number + 1);
      yield take(page);
      if (ends(page)) return;
    }
    return;
  }

  const inFlight: Promise<Page>[] = [];
  let next = firstPage + 1;
  const refill = () => {
    while (inFlight.length < PAGE_CONCURRENCY && next <= last) {
      const page = get(next++);
      page.catch(() => undefined); // awaited in order below; this keeps an early failure from going unhandled
      inFlight.push(page);
    }
  };
  refill();
  while (inFlight.length > 0) {
    const page = await inFlight.shift()!;
    refill();
    yield take(page);
    if (ends(page)) return;
  }
}

/**
 * What a read that stopped at `page` left out (neither --all nor --limit): the records after
 * it, or undefined when nothing follows. `before` is the number of records ahead of the page
 * (its offset); `total` is x-total when sent (without it, whether x-next-page names a page).
 */
export function leftAfter(page: Page, paging: Paging): { before: number; total?: number } | undefined {
  const size = paging.perPage ?? DEFAULT_PER_PAGE;
  const before = paging.offset ?? (page.number - 1) * size;
  if (page.total !== undefined) return before + page.items.length < page.total ? { before, total: page.total } : undefined;
  return page.items.length > 0 && hasNext(page, size) ? { before } : undefined;
}

/** The items of the pages, one by one. */
export async function* itemsOf(pages: AsyncIterable<Page>): AsyncGenerator<Record<string, unknown>> {
  for await (const page of pages) yield* page.items;
}

/** Rule 1: the last page to fetch as the first page tells it, or undefined when it does not. */
function lastPage(first: Page, firstPage: number, perPage: number, offset?: number): number | undefined {
  // With an offset the pages are counted from the offset, not from record 1.
  if (offset !== undefined && first.total !== undefined) return firstPage - 1 + Math.ceil((first.total - offset) / perPage);
  const totalPages = numberHeader(first.headers['x-total-pages']);
  if (totalPages !== undefined) return totalPages;
  if (first.total !== undefined) return Math.ceil(first.total / perPage);
  return undefined;
}

/** Rule 2: x-next-page says whether another page follows; without it, a full page may have one. */
function hasNext(page: Page, perPage: number): boolean {
  const next = page.headers['x-next-page'];
  if (next !== undefined) return next.trim() !== '';
  return page.items.length >= perPage;
}

function numberHeader(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
