/**
 * The walk over a list's pages held to what its first page promised (paginate.ts, rules 2 to 5):
 * what was read against the promise, pages that break it or come round again, and on a full read
 * the distinct records counted.
 */
import { ServerError } from '../errors.js';
import { toJson } from '../text/json.js';
import { hasNext, numberHeader, type Page } from './page-headers.js';

/** Rule 5: a full read that missed a record that moved between pages (exit 7, a partial read). */
export class MovedWhileRead extends ServerError {}

/** What the first page promised: the records from the first one asked for, or the last page. */
export interface Promised {
  /** x-total less the records before the first page. */
  records?: number;
  /** The page that holds the last promised record, or x-total-pages without x-total. */
  lastPage?: number;
}

/** Rule 2: the promise of the first page (with an offset, x-total-pages alone promises nothing). */
export function promiseOf(first: Page, size: number, firstPage: number, before: number, byOffset: boolean): Promised {
  if (first.total !== undefined) {
    const records = Math.max(0, first.total - before);
    return { records, lastPage: firstPage - 1 + Math.max(1, Math.ceil(records / size)) };
  }
  const totalPages = numberHeader(first.headers['x-total-pages']);
  return !byOffset && totalPages !== undefined ? { lastPage: totalPages } : {};
}

/** The walk's account of what was read against the promise: rules 2 to 4. */
export class Walk {
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

  /**
   * Counts `page` in (rule 4: fails when it breaks the promise) and says whether another page
   * follows; at the end of a full read, checks rule 5.
   */
  accept(page: Page): boolean {
    this.check(page);
    const goesOn = this.goesOn(page);
    if (!goesOn) this.complete(page);
    return goesOn;
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
