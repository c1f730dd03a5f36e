/**
 * What a page of a list is and what its pagination headers say (paginate.ts, rules 1 and 3):
 * the server's page size, whether another page follows, and x-total read as a count of records.
 */
import { ServerError } from '../errors.js';
import { quoted } from '../text/escape.js';

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

/**
 * Rule 1: the server's page size. x-per-page when sent; else a first page that holds fewer
 * items than asked while the totals say more follow shows the server's size; else the size asked.
 */
export function pageSize(first: Page, asked: number, before: number, byPage: boolean): number {
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

/** Rule 3: x-next-page says whether another page follows; without it, a full page may have one. */
export function hasNext(page: Page, perPage: number): boolean {
  const next = page.headers['x-next-page'];
  if (next !== undefined) return next.trim() !== '';
  return page.items.length >= perPage;
}

/** x-per-page, when it is a page size. */
export function serverPerPage(page: Page): number | undefined {
  const perPage = numberHeader(page.headers['x-per-page']);
  return perPage !== undefined && Number.isInteger(perPage) && perPage > 0 ? perPage : undefined;
}

/**
 * A number a pagination header holds. A header sent twice arrives joined ("500, 500"): the same
 * number each time is that number.
 */
export function numberHeader(value: string | undefined): number | undefined {
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
export function recordCount(value: string | undefined, name: string, page: number): number | undefined {
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
