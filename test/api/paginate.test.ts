import { describe, expect, it } from 'vitest';
import { itemsOf, paginate, PAGE_CONCURRENCY, type FetchPage, type PageQuery } from '../../src/api/paginate.js';

/** A list of `total` numbered items served by page, with the headers `headers` picks. */
function list(total: number, headers: (page: number, pages: number, perPage: number) => Record<string, string>) {
  const asked: PageQuery[] = [];
  const fetch: FetchPage = async (query) => {
    asked.push(query);
    const perPage = query.per_page ?? 50;
    const start = query.offset ?? ((query.page ?? 1) - 1) * perPage;
    const page = Math.floor(start / perPage) + 1;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => ({ n: start + i + 1 }));
    return { data, headers: headers(page, Math.ceil(total / perPage), perPage) };
  };
  return { fetch, asked };
}

const all = async (pages: AsyncIterable<{ items: Record<string, unknown>[] }>) => {
  const out: unknown[] = [];
  for await (const page of pages) out.push(...page.items.map((item) => item.n));
  return out;
};
const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the paginator', () => {
  it('without --all or --limit asks for one page only', async () => {
    const { fetch, asked } = list(250, (_p, pages) => ({ 'x-total-pages': String(pages) }));
    expect(await all(paginate(fetch, {}))).toEqual(numbers(1, 50));
    expect(asked).toEqual([{ page: 1, per_page: undefined }]);
  });

  it('rule 1: x-total-pages names the end; --all asks for per_page 100 up to it', async () => {
    const { fetch, asked } = list(250, (_p, pages) => ({ 'x-total-pages': String(pages) }));
    expect(await all(paginate(fetch, { all: true }))).toEqual(numbers(1, 250));
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3]);
    expect(asked.every((q) => q.per_page === 100)).toBe(true);
  });

  it('rule 1: x-total alone names the end as well (x-total ÷ per_page)', async () => {
    const { fetch, asked } = list(95, () => ({ 'x-total': '95' }));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 95));
    expect(asked).toHaveLength(10);
  });

  it('rule 1 wins over x-next-page when both are sent (they agree on a real server)', async () => {
    const { fetch, asked } = list(30, (page, pages) => ({ 'x-total-pages': String(pages), 'x-next-page': page < pages ? String(page + 1) : '' }));
    expect(await all(paginate(fetch, { all: true, perPage: 10, page: 2 }))).toEqual(numbers(11, 30));
    expect(asked.map((q) => q.page)).toEqual([2, 3]);
  });

  it('rule 2: without totals, follows x-next-page until it is empty', async () => {
    const { fetch, asked } = list(25, (page, pages) => ({ 'x-next-page': page < pages ? String(page + 1) : '' }));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 25));
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('rule 2: with no pagination header at all, asks again after every full page and stops at a short one', async () => {
    const { fetch, asked } = list(30, () => ({}));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 30));
    // The third page was full, so a fourth was asked for: it came back empty and ended the list.
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3, 4]);
    const short = list(25, () => ({}));
    expect(await all(paginate(short.fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 25));
    expect(short.asked.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('rule 3: an empty page ends the list even when the headers promise more', async () => {
    const { fetch, asked } = list(20, () => ({ 'x-total-pages': '50' }));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 20));
    expect(asked.length).toBeLessThanOrEqual(3 + PAGE_CONCURRENCY);
  });

  it('rule 3: an answer that is not an array is yielded once, as data, and ends the walk', async () => {
    const fetch: FetchPage = async () => ({ data: { uid: 'g_1' }, headers: { 'x-total-pages': '9' } });
    const pages = [];
    for await (const page of paginate(fetch, { all: true })) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ number: 1, items: [], data: { uid: 'g_1' } });
  });

  it('--limit asks for as many pages as it needs and cuts the last one', async () => {
    const { fetch, asked } = list(250, (_p, pages) => ({ 'x-total-pages': String(pages) }));
    expect(await all(paginate(fetch, { limit: 120, perPage: 50 }))).toEqual(numbers(1, 120));
    expect(asked.map((q) => q.page)).toContain(3);
    expect(asked.map((q) => q.page)).not.toContain(5);
  });

  it('--offset counts pages from the offset and ends with the records after it', async () => {
    const { fetch, asked } = list(35, () => ({ 'x-total': '35', 'x-total-pages': '4' }));
    expect(await all(paginate(fetch, { all: true, perPage: 10, offset: 5 }))).toEqual(numbers(6, 35));
    expect(asked.map((q) => q.offset)).toEqual([5, 15, 25]);
    expect(asked.every((q) => q.page === undefined)).toBe(true);
  });

  it('fetches at most a few pages ahead of a slow reader, and yields them in order', async () => {
    const { fetch, asked } = list(2_000, (_p, pages) => ({ 'x-total-pages': String(pages) }));
    const pages = paginate(fetch, { all: true });
    await pages.next();
    await pages.next();
    // The reader stops here: however long it takes, no more than PAGE_CONCURRENCY are asked for ahead.
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked.length).toBeLessThanOrEqual(2 + PAGE_CONCURRENCY);
    await pages.return(undefined);
  });

  it('itemsOf hands the items out one by one', async () => {
    const { fetch } = list(7, () => ({ 'x-total': '7' }));
    const seen: unknown[] = [];
    for await (const item of itemsOf(paginate(fetch, { all: true, perPage: 3 }))) seen.push(item.n);
    expect(seen).toEqual(numbers(1, 7));
  });

  it('a page that fails stops the walk with its error, after the pages before it', async () => {
    const { fetch: base } = list(50, (_p, pages) => ({ 'x-total-pages': String(pages) }));
    const fetch: FetchPage = async (query) => {
      if (query.page === 3) throw new Error('page 3 failed');
      return base(query);
    };
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const page of paginate(fetch, { all: true, perPage: 10 })) seen.push(...page.items.map((i) => i.n));
      })(),
    ).rejects.toThrow('page 3 failed');
    expect(seen).toEqual(numbers(1, 20));
  });
});
