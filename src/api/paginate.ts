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
import { ServerError } from '../errors.js';
import { toJson } from '../text/json.js';
import { quoted } from '../text/escape.js';

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

/** Rule 5: a full read that missed a record that moved between pages (exit 7, a partial read). */
export class MovedWhileRead extends ServerError {}

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
  walk.check(first);
  const more = walk.goesOn(first);
  if (!more) walk.complete(first);
  yield take(first);
  if ((paging.all !== true && paging.limit === undefined) || remaining <= 0 || !more) return;

  // --limit needs no page past the one that holds its last item.
  const end =
    promise.lastPage === undefined || paging.limit === undefined
      ? promise.lastPage
      : Math.min(promise.lastPage, firstPage - 1 + Math.ceil(paging.limit / size));
  let last = first;
  if (end !== undefined && end > firstPage) {
    // Rule 2: the pages up to the promised end, a few at a time, in order.
    const inFlight: Promise<Page>[] = [];
    let next = firstPage + 1;
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
      walk.check(page);
      const goesOn = walk.goesOn(page);
      if (!goesOn) walk.complete(page);
      refill();
      yield take(page);
      if (remaining <= 0 || !goesOn) return;
      last = page;
    }
  }
  // Past the promised end (or with no promise): one page at a time, while one more is due; with
  // an offset, from the records read so far (a server's size may be unknown without totals).
  while (remaining > 0 && walk.goesOn(last)) {
    const page = await get(last.number + 1, walk.read);
    walk.check(page);
    if (!walk.goesOn(page)) walk.complete(page);
    yield take(page);
    last = page;
  }
}

/** What the first page promised: the records from the first one asked for, or the last page. */
interface Promised {
  /** x-total less the records before the first page. */
  records?: number;
  /** The page that holds the last promised record, or x-total-pages without x-total. */
  lastPage?: number;
}

/** Rule 2: the promise of the first page (with an offset, x-total-pages alone promises nothing). */
function promiseOf(first: Page, size: number, firstPage: number, before: number, byOffset: boolean): Promised {
  if (first.total !== undefined) {
    const records = Math.max(0, first.total - before);
    return { records, lastPage: firstPage - 1 + Math.max(1, Math.ceil(records / size)) };
  }
  const totalPages = numberHeader(first.headers['x-total-pages']);
  return !byOffset && totalPages !== undefined ? { lastPage: totalPages } : {};
}

/** The walk's account of what was read against the promise: rules 2 to 4. */
class Walk {
  /** Items read so far. */
  read = 0;
  /** The pages read, by what they hold (see fingerprint): a page served again is a loop. */
  private readonly seen = new Map<string, number>();
  /** Rule 5: the records read, by uid (or id), on a full read; undefined once one has neither. */
  private distinct: Set<string> | undefined;

  constructor(
    private readonly promise: Promised,
    private readonly size: number,
    /** Records ahead of the first page read (its offset), which x-total counts too. */
    private readonly before: number,
    private readonly byOffset: boolean,
    /** The list, as errors name it (its path). */
    private readonly name: string,
    /** A full read: its distinct records are counted (rule 5). */
    whole: boolean,
  ) {
    if (whole) this.distinct = new Set();
  }

  /** Rule 5, at the end of a full read (`last` is its last page): as many distinct records as promised. */
  complete(last: Page): void {
    if (this.distinct === undefined || this.promise.records === undefined) return;
    const promised = Math.min(
      this.promise.records,
      last.total === undefined ? Number.POSITIVE_INFINITY : Math.max(0, last.total - this.before),
    );
    const missed = promised - this.distinct.size;
    if (missed <= 0) return;
    const twice = this.read - this.distinct.size;
    throw new MovedWhileRead(
      `${this.name}: ${this.distinct.size.toLocaleString('en')} distinct records read of the ${promised.toLocaleString('en')} x-total announced` +
        `${twice > 0 ? ` (${twice.toLocaleString('en')} read twice)` : ''}: records moved between pages while the list was read, and ${missed.toLocaleString('en')} ${missed === 1 ? 'was' : 'were'} never read: the list was not read whole`,
      'the list changed while it was read; try again',
    );
  }

  /** Whether the promise holds more than was read when `page` was the last one read. */
  private owed(page: Page): boolean {
    if (this.promise.records !== undefined) return this.read < this.promise.records;
    return this.promise.lastPage !== undefined && page.number < this.promise.lastPage;
  }

  /** Counts `page` in, or fails when it breaks the promise (rule 4). */
  check(page: Page): void {
    const isList = Array.isArray(page.data);
    const key = fingerprint(page.items);
    const again = key === undefined ? undefined : this.seen.get(key);
    if (again !== undefined)
      throw this.broken(page, `holds the same items as page ${again} (the server does not serve the page asked for)`);
    if (key !== undefined) this.seen.set(key, page.number);
    this.read += page.items.length;
    if (this.distinct !== undefined) {
      for (const item of page.items) {
        const id =
          typeof item.uid === 'string'
            ? item.uid
            : typeof item.id === 'string' || typeof item.id === 'number'
              ? `id ${item.id}`
              : undefined;
        if (id === undefined) {
          // Records with neither uid nor id cannot be told apart: rule 5 cannot be checked.
          this.distinct = undefined;
          break;
        }
        this.distinct.add(id);
      }
    }
    // More records than the page's own x-total counts, and yet more to come: the count is wrong,
    // and ending at it would pass a partial read for the whole list. (More records on a last
    // page is a list that moved while it was read: a record read twice, nothing left out.)
    if (
      page.total !== undefined &&
      page.items.length > 0 &&
      this.before + this.read > page.total &&
      hasNext(page, this.size)
    ) {
      throw this.broken(
        page,
        `brings the records read to ${(this.before + this.read).toLocaleString('en')}, more than the ${page.total.toLocaleString('en')} its x-total counts, and more follow`,
      );
    }
    // Without totals x-next-page is the one guide (rule 3): one that names this page or an earlier
    // one would walk back into pages already read, with fresh items for ever.
    const next = numberHeader(page.headers['x-next-page']);
    const here = this.byOffset ? numberHeader(page.headers['x-page']) : page.number;
    if (
      this.promise.records === undefined &&
      this.promise.lastPage === undefined &&
      next !== undefined &&
      here !== undefined &&
      next <= here
    ) {
      throw this.broken(page, `names page ${next} as the next one (x-next-page)`);
    }
    if (!this.owed(page)) return;
    if (!isList) throw this.broken(page, `is not a list, ${this.promised()}`);
    if (page.items.length === 0) throw this.broken(page, `came back empty, ${this.promised()}`);
    if (page.items.length < this.size)
      throw this.broken(page, `holds ${page.items.length} of ${this.size} items, ${this.promised()}`);
  }

  /** Whether another page follows `page` (already checked). */
  goesOn(page: Page): boolean {
    if (!Array.isArray(page.data) || page.items.length === 0) return false;
    if (this.owed(page)) return true;
    // Rule 2: every record the page's own x-total counts is read (a list that grew says so here).
    if (page.total !== undefined && this.before + this.read >= page.total) return false;
    const next = page.headers['x-next-page']?.trim();
    if (this.promise.records !== undefined || this.promise.lastPage !== undefined) {
      // The promise is kept: only a later page that x-next-page names is read on.
      const here = this.byOffset ? numberHeader(page.headers['x-page']) : page.number;
      const named = numberHeader(next);
      return here !== undefined && named !== undefined && named > here;
    }
    return hasNext(page, this.size);
  }

  private promised(): string {
    const { records, lastPage } = this.promise;
    return records !== undefined
      ? `with ${this.read} of the ${records} records x-total announced read`
      : `before page ${lastPage}, the last x-total-pages announced`;
  }

  /** A partial read (exit 7): the page that broke the promise or looped. */
  private broken(page: Page, what: string): ServerError {
    return new ServerError(
      `${this.name}: page ${page.number} ${what}: the list was not read whole`,
      'the list changed while it was read, or the server pages it wrongly; try again',
    );
  }
}

/**
 * What a page holds, for telling a page served twice: a 53-bit hash (cyrb53) of its items' uids
 * (or ids, or the items themselves) and their count, so that the walk keeps a number per page,
 * not the list. Undefined for an empty page.
 */
function fingerprint(items: readonly Record<string, unknown>[]): string | undefined {
  if (items.length === 0) return undefined;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const item of items) {
    const key =
      typeof item.uid === 'string'
        ? item.uid
        : typeof item.id === 'string' || typeof item.id === 'number'
          ? String(item.id)
          : toJson(item);
    for (let i = 0; i <= key.length; i++) {
      // The end of each key counts too (as 0): ['ab', 'c'] and ['a', 'bc'] differ.
      const code = i < key.length ? key.charCodeAt(i) : 0;
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${items.length}:${4294967296 * (2097151 & h2) + (h1 >>> 0)}`;
}

/**
 * Rule 1: the server's page size. x-per-page when sent; else a first page that holds fewer
 * items than asked while the totals say more follow shows the server's size; else the size asked.
 */
function pageSize(first: Page, asked: number, before: number, byPage: boolean): number {
  const length = first.items.length;
  const perPage = serverPerPage(first);
  // A page longer than x-per-page says shows the real size.
  if (perPage !== undefined) return Math.max(perPage, length);
  const totalPages = numberHeader(first.headers['x-total-pages']);
  const more =
    first.total !== undefined
      ? before + length < first.total
      : byPage && totalPages !== undefined && first.number < totalPages;
  return length > 0 && length < asked && more ? length : Math.max(asked, length);
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
  for (let attempt = 1; ; attempt++) {
    try {
      const pages: Page[] = [];
      for await (const page of read()) pages.push(page);
      return pages;
    } catch (error) {
      if (!(error instanceof MovedWhileRead) || attempt === 2) throw error;
    }
  }
}

/** The items of the pages, one by one. */
export async function* itemsOf(pages: AsyncIterable<Page>): AsyncGenerator<Record<string, unknown>> {
  for await (const page of pages) yield* page.items;
}

/** Rule 3: x-next-page says whether another page follows; without it, a full page may have one. */
function hasNext(page: Page, perPage: number): boolean {
  const next = page.headers['x-next-page'];
  if (next !== undefined) return next.trim() !== '';
  return page.items.length >= perPage;
}

/** x-per-page, when it is a page size. */
function serverPerPage(page: Page): number | undefined {
  const perPage = numberHeader(page.headers['x-per-page']);
  return perPage !== undefined && Number.isInteger(perPage) && perPage > 0 ? perPage : undefined;
}

/**
 * A number a pagination header holds. A header sent twice arrives joined ("500, 500"): the same
 * number each time is that number.
 */
function numberHeader(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const numbers = new Set(value.split(',').map((part) => Number(part)));
  const [n] = numbers;
  return numbers.size === 1 && Number.isFinite(n) ? n : undefined;
}

/**
 * x-total: the promise the whole walk is held to (rule 2). Sent but not a count of records
 * (`-1`, `500 records`, two different numbers) it promises nothing that can be checked, and read
 * as absent it would let a short read pass for the whole list: a ServerError (exit 7).
 */
function recordCount(value: string | undefined, name: string, page: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = numberHeader(value);
  if (n === undefined || !Number.isInteger(n) || n < 0) {
    throw new ServerError(
      `${name}: page ${page} says x-total ${quoted(value)}, which is not a count of records: the list cannot be known whole`,
      'the server pages the list wrongly; try again',
    );
  }
  return n;
}
