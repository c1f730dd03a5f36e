import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServerError } from '../../src/errors.js';
import {
  itemsOf,
  MovedWhileRead,
  paginate,
  PAGE_CONCURRENCY,
  readWhole,
  type FetchPage,
  type PageQuery,
} from '../../src/api/paginate.js';

/** A list of `total` numbered items served by page, with the headers `headers` picks. */
function list(total: number, headers: (page: number, pages: number, perPage: number) => Record<string, string>) {
  const asked: PageQuery[] = [];
  const fetch: FetchPage = async (query) => {
    asked.push(query);
    const perPage = query.per_page ?? 50;
    const start = query.offset ?? ((query.page ?? 1) - 1) * perPage;
    const page = Math.floor(start / perPage) + 1;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => ({
      n: start + i + 1,
    }));
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

  it('rule 2: x-total-pages names the end; --all asks for per_page 100 up to it', async () => {
    const { fetch, asked } = list(250, (_p, pages) => ({ 'x-total-pages': String(pages) }));
    expect(await all(paginate(fetch, { all: true }))).toEqual(numbers(1, 250));
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3]);
    expect(asked.every((q) => q.per_page === 100)).toBe(true);
  });

  it('rule 2: x-total alone names the end as well (x-total ÷ per_page)', async () => {
    const { fetch, asked } = list(95, () => ({ 'x-total': '95' }));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 95));
    expect(asked).toHaveLength(10);
  });

  it('rule 2 wins over x-next-page when both are sent (they agree on a real server)', async () => {
    const { fetch, asked } = list(30, (page, pages) => ({
      'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '',
    }));
    expect(await all(paginate(fetch, { all: true, perPage: 10, page: 2 }))).toEqual(numbers(11, 30));
    expect(asked.map((q) => q.page)).toEqual([2, 3]);
  });

  it('rule 3: without totals, follows x-next-page until it is empty', async () => {
    const { fetch, asked } = list(25, (page, pages) => ({ 'x-next-page': page < pages ? String(page + 1) : '' }));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 25));
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('rule 3: with no pagination header at all, asks again after every full page and stops at a short one', async () => {
    const { fetch, asked } = list(30, () => ({}));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 30));
    // The third page was full, so a fourth was asked for: it came back empty and ended the list.
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3, 4]);
    const short = list(25, () => ({}));
    expect(await all(paginate(short.fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 25));
    expect(short.asked.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('rule 3: without totals, an empty page ends the list', async () => {
    const { fetch, asked } = list(20, (page) => ({ 'x-next-page': String(page + 1) }));
    expect(await all(paginate(fetch, { all: true, perPage: 10 }))).toEqual(numbers(1, 20));
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('an answer that is not an array is yielded once, as data, and ends the walk', async () => {
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

/** How a scripted server pages a list of `total` numbered items. */
interface Behaviour {
  total: number;
  /** The most items it serves a page, whatever per_page asks (api-v2.5 caps at 100). */
  cap?: number;
  /** Which headers it sends (all of them unless given). */
  send?: { perPage?: boolean; total?: boolean; totalPages?: boolean; next?: boolean };
  /** x-total-pages as it says it (counted for per_page as asked, not as served). */
  totalPagesAsAsked?: boolean;
  /** It serves page 1 whatever page is asked for. */
  ignoresPage?: boolean;
  /** It serves pages 1..cycle over and over (page cycle + 1 is page 1 again). */
  cycle?: number;
  /** The body of a page it answers otherwise. */
  body?: (page: number, items: unknown[]) => unknown;
  /** x-total as it says it, when not the number of items. */
  totalSaid?: string;
  /** x-next-page as it says it on each page, when not the page after. */
  nextSaid?: (page: number) => string;
}

/** A server that pages as `b` says: page numbers by its own page size, like the sandbox. */
function server(b: Behaviour) {
  const asked: PageQuery[] = [];
  const send = { perPage: true, total: true, totalPages: true, next: true, ...b.send };
  const fetch: FetchPage = async (query) => {
    asked.push(query);
    const wanted = query.per_page ?? 50;
    const size = Math.min(wanted, b.cap ?? 100);
    const start = b.ignoresPage
      ? 0
      : b.cycle
        ? (((query.page ?? 1) - 1) % b.cycle) * size
        : (query.offset ?? ((query.page ?? 1) - 1) * size);
    const page = Math.floor(start / size) + 1;
    const pages = Math.ceil(b.total / size);
    const items = Array.from({ length: Math.max(0, Math.min(size, b.total - start)) }, (_, i) => ({
      n: start + i + 1,
    }));
    const headers: Record<string, string> = { 'x-page': String(page) };
    if (send.perPage) headers['x-per-page'] = String(size);
    if (send.total) headers['x-total'] = b.totalSaid ?? String(b.total);
    if (send.totalPages) headers['x-total-pages'] = String(b.totalPagesAsAsked ? Math.ceil(b.total / wanted) : pages);
    if (send.next)
      headers['x-next-page'] = b.nextSaid ? b.nextSaid(page) : start + size < b.total ? String(page + 1) : '';
    return { data: b.body ? b.body(page, items) : items, headers };
  };
  return { fetch, asked };
}

/** The items read (their numbers), or the exit code and message of the failure. */
async function outcome(fetch: FetchPage, paging: Parameters<typeof paginate>[1]) {
  const read: unknown[] = [];
  try {
    for await (const page of paginate(fetch, paging, 'GET /v2.5/computers'))
      read.push(...page.items.map((item) => item.n));
    return { read };
  } catch (error) {
    if (!(error instanceof ServerError)) throw error;
    return { read, exitCode: error.exitCode, message: error.message };
  }
}

describe('the paginator against servers that page differently', () => {
  it.each<[string, Behaviour, number]>([
    ['serves per_page as asked, with every header', { total: 250 }, 250],
    [
      'serves 50 whatever per_page asks: x-per-page 50 and x-total 250, no x-total-pages',
      { total: 250, cap: 50, send: { totalPages: false } },
      250,
    ],
    [
      'serves 50 whatever per_page asks and says only x-total',
      { total: 250, cap: 50, send: { perPage: false, totalPages: false, next: false } },
      250,
    ],
    [
      'serves 50 whatever per_page asks and counts x-total-pages for the 100 asked',
      { total: 250, cap: 50, totalPagesAsAsked: true, send: { total: false } },
      250,
    ],
    [
      'serves 50 and says only x-total-pages',
      { total: 250, cap: 50, send: { perPage: false, total: false, next: false } },
      250,
    ],
    [
      'serves 50 and says only x-next-page',
      { total: 250, cap: 50, send: { perPage: false, total: false, totalPages: false } },
      250,
    ],
    [
      'serves 30 with x-per-page and nothing else',
      { total: 95, cap: 30, send: { total: false, totalPages: false, next: false } },
      95,
    ],
    [
      'sends no header at all and honours per_page',
      { total: 230, send: { perPage: false, total: false, totalPages: false, next: false } },
      230,
    ],
    ['has an empty list', { total: 0 }, 0],
  ])('reads every item once when the server %s', async (_name, behaviour, count) => {
    const { fetch } = server(behaviour);
    expect(await outcome(fetch, { all: true })).toEqual({ read: numbers(1, count) });
  });

  it('follows x-next-page when it points further than x-total-pages said', async () => {
    // x-total-pages counted for the per_page asked says 3; page 3 of the 50 served names page 4.
    const { fetch, asked } = server({
      total: 250,
      cap: 50,
      totalPagesAsAsked: true,
      send: { perPage: false, total: false },
    });
    expect(await outcome(fetch, { all: true })).toEqual({ read: numbers(1, 250) });
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3, 4, 5]);
  });

  /**
   * Pages of new items, x-next-page always naming the next, x-total as `totalOf(page)` says and
   * each page holding no more than that count (full pages without it); without end, but for the
   * test's sake empty past page 20.
   */
  const withoutEnd = (totalOf: (page: number) => number | undefined) => {
    const asked: number[] = [];
    const fetch: FetchPage = async (query) => {
      const page = query.page ?? 1;
      asked.push(page);
      const size = query.per_page ?? 50;
      const total = totalOf(page);
      const length = page > 20 ? 0 : Math.max(0, Math.min(size, (total ?? Infinity) - (page - 1) * size));
      const items = Array.from({ length }, (_, i) => ({ n: (page - 1) * size + i + 1 }));
      return {
        data: items,
        headers: {
          'x-per-page': String(size),
          'x-next-page': String(page + 1),
          ...(total === undefined ? {} : { 'x-total': String(total) }),
        },
      };
    };
    return { fetch, asked };
  };

  it('ends once every record x-total counts is read, though x-next-page names yet another page', async () => {
    const { fetch, asked } = withoutEnd(() => 250);
    expect(await outcome(fetch, { all: true })).toEqual({ read: numbers(1, 250) });
    expect(asked).toEqual([1, 2, 3]);
    // With an offset, x-total counts the records before it as well.
    const offset = withoutEnd(() => 250);
    expect(await outcome(offset.fetch, { page: 2, all: true, perPage: 100 })).toEqual({ read: numbers(101, 250) });
    expect(offset.asked).toEqual([2, 3]);
  });

  it("reads on past the first page's x-total while later pages count more (a list that grew while it was read)", async () => {
    const { fetch, asked } = withoutEnd((page) => (page === 1 ? 250 : 420));
    expect(await outcome(fetch, { all: true })).toEqual({ read: numbers(1, 420) });
    expect(asked).toEqual([1, 2, 3, 4, 5]);
  });

  it.each<[string, Behaviour, Parameters<typeof paginate>[1], number, RegExp]>([
    [
      'page 2 answers [] before the 3 pages x-total promised',
      { total: 250, body: (page, items) => (page === 2 ? [] : items) },
      { all: true },
      100,
      /page 2 came back empty, with 100 of the 250 records x-total announced read/,
    ],
    [
      'page 2 answers [] and only x-total-pages promised 3',
      { total: 250, send: { total: false }, body: (page, items) => (page === 2 ? [] : items) },
      { all: true },
      100,
      /page 2 came back empty, before page 3/,
    ],
    [
      'page 2 is short of the page size',
      { total: 250, body: (page, items) => (page === 2 ? items.slice(0, 60) : items) },
      { all: true },
      100,
      /page 2 holds 60 of 100 items/,
    ],
    [
      'the last page comes short of x-total',
      { total: 250, body: (page, items) => (page === 3 ? items.slice(0, 10) : items) },
      { all: true },
      200,
      /page 3 holds 10 of 100 items, with 210 of the 250/,
    ],
    [
      'the first page is empty while x-total is 250',
      { total: 250, body: () => [] },
      { all: true },
      0,
      /page 1 came back empty, with 0 of the 250/,
    ],
    [
      'the one page read is empty while x-total is 250',
      { total: 250, body: () => [] },
      {},
      0,
      /page 1 came back empty/,
    ],
    [
      'page 2 is not a list',
      { total: 250, body: (page, items) => (page === 2 ? { error: 'busy' } : items) },
      { all: true },
      100,
      /page 2 is not a list/,
    ],
    [
      'it serves page 1 whatever page is asked (x-total 250)',
      { total: 250, ignoresPage: true },
      { all: true },
      100,
      /page 2 holds the same items as page 1/,
    ],
    [
      'it serves page 1 whatever page is asked, with no header at all',
      { total: 250, ignoresPage: true, send: { perPage: false, total: false, totalPages: false, next: false } },
      { all: true },
      100,
      /page 2 holds the same items as page 1/,
    ],
    [
      'it serves page 1 whatever page is asked, and x-next-page always names another',
      { total: 250, ignoresPage: true, send: { total: false, totalPages: false } },
      { all: true },
      100,
      /page 2 holds the same items as page 1/,
    ],
    [
      'it serves pages 1, 2, 3, 1, 2, 3… and x-next-page always names another',
      { total: 2500, cycle: 3, send: { total: false, totalPages: false }, body: (_page, items) => items },
      { all: true },
      300,
      /page 4 holds the same items as page 1/,
    ],
    [
      '--limit: page 2 answers [] before the limit',
      { total: 250, body: (page, items) => (page === 2 ? [] : items) },
      { limit: 150, perPage: 100 },
      100,
      /page 2 came back empty/,
    ],
    [
      '--offset: the second page answers [] before x-total',
      { total: 250, body: (page, items) => (page === 3 ? [] : items) },
      { all: true, offset: 120, perPage: 100 },
      100,
      /page 2 came back empty, with 100 of the 130/,
    ],
    [
      'x-total is 0 over full pages',
      { total: 205, totalSaid: '0' },
      { all: true },
      0,
      /page 1 brings the records read to 100, more than the 0 its x-total counts/,
    ],
    [
      'x-total is 10 over full pages',
      { total: 205, totalSaid: '10' },
      { all: true },
      0,
      /page 1 brings the records read to 100, more than the 10 its x-total counts/,
    ],
    [
      'x-total is -1',
      { total: 205, totalSaid: '-1' },
      { all: true },
      0,
      /page 1 says x-total '-1', which is not a count of records/,
    ],
    [
      "x-total is '500 records'",
      { total: 500, totalSaid: '500 records' },
      { all: true },
      0,
      /page 1 says x-total '500 records', which is not a count of records/,
    ],
    [
      'x-total is sent twice with two numbers',
      { total: 500, totalSaid: '500, 600' },
      { all: true },
      0,
      /page 1 says x-total '500, 600'/,
    ],
    [
      'x-total is sent twice (500, 500) and page 2 answers []',
      { total: 500, totalSaid: '500, 500', body: (page, items) => (page === 2 ? [] : items) },
      { all: true },
      100,
      /page 2 came back empty, with 100 of the 500/,
    ],
    [
      'without totals, x-next-page goes back to page 1 after page 2',
      { total: 5000, send: { total: false, totalPages: false }, nextSaid: (page) => (page === 1 ? '2' : '1') },
      { all: true },
      100,
      /page 2 names page 1 as the next one \(x-next-page\)/,
    ],
    [
      'without totals, x-next-page names the page itself',
      { total: 5000, send: { total: false, totalPages: false }, nextSaid: (page) => String(page) },
      { all: true },
      0,
      /page 1 names page 1 as the next one/,
    ],
    [
      '--count reads one item a page: x-total 0 over it',
      { total: 5, totalSaid: '0' },
      { perPage: 1 },
      0,
      /page 1 brings the records read to 1, more than the 0/,
    ],
  ])('fails with exit 7 when %s, after the pages before it', async (_name, behaviour, paging, read, message) => {
    const { fetch } = server(behaviour);
    const result = await outcome(fetch, paging);
    expect(result).toMatchObject({ exitCode: 7, message: expect.stringMatching(message) });
    expect(result.message).toMatch(/^GET \/v2\.5\/computers: /);
    expect(result.read).toEqual(numbers(1 + (paging.offset ?? 0), read + (paging.offset ?? 0)));
  });

  it('x-total sent twice with the same number is that number', async () => {
    const { fetch } = server({ total: 250, totalSaid: '250, 250' });
    expect(await outcome(fetch, { all: true })).toEqual({ read: numbers(1, 250) });
  });

  it('a page past the end (--page 9 of 3) is empty, not a failure', async () => {
    const { fetch } = server({ total: 250 });
    expect(await outcome(fetch, { page: 9, perPage: 100 })).toEqual({ read: [] });
    expect(await outcome(fetch, { page: 9, perPage: 100, all: true })).toEqual({ read: [] });
  });

  it('property: whatever honest page size and headers, every item is read once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 450 }),
        fc.integer({ min: 1, max: 100 }),
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        fc.record({ perPage: fc.boolean(), total: fc.boolean(), totalPages: fc.boolean(), next: fc.boolean() }),
        fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }),
        async (total, cap, perPage, send, offset) => {
          const served = Math.min(cap, perPage ?? 100);
          // A server that serves fewer than asked and says nothing of it cannot be read whole by anyone.
          const told = send.perPage || send.total || send.next || (send.totalPages && offset === undefined);
          fc.pre(served === (perPage ?? 100) || told);
          const { fetch, asked } = server({ total, cap, send });
          const { read, message } = await outcome(fetch, { all: true, perPage, offset });
          expect(message).toBeUndefined();
          expect(read).toEqual(numbers((offset ?? 0) + 1, total));
          // No page is asked for twice.
          expect(new Set(asked.map((q) => `${q.page}/${q.offset}`)).size).toBe(asked.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('rule 5: a full read holds as many distinct records as x-total promised', () => {
  /** 30 records by uid, 10 a page, x-total 30; `move` changes the list once page 1 is served. */
  function moving(move: (uids: string[]) => string[], times = Number.POSITIVE_INFINITY) {
    const original = Array.from({ length: 30 }, (_, i) => `u${i + 1}`);
    let served = 0;
    let uids = original;
    const fetch: FetchPage = async (query) => {
      const page = query.page ?? 1;
      if (page === 1) uids = original;
      const data = uids.slice((page - 1) * 10, page * 10).map((uid) => ({ uid }));
      const headers = {
        'x-total': String(uids.length),
        'x-per-page': '10',
        'x-next-page': page * 10 < uids.length ? String(page + 1) : '',
      };
      if (page === 1 && served++ < times) uids = move(original);
      return { data, headers };
    };
    return fetch;
  }
  /** Record 15 moves to the front: record 10 is read twice, record 15 never. */
  const toFront = (uids: string[]) => ['u15', ...uids.filter((uid) => uid !== 'u15')];

  it('a record that moves to the front between pages is exit 7 before the last page is yielded', async () => {
    const yielded: number[] = [];
    const read = (async () => {
      for await (const page of paginate(moving(toFront), { all: true, perPage: 10 }, 'GET /v2.5/computers'))
        yielded.push(page.number);
    })();
    await expect(read).rejects.toThrow(MovedWhileRead);
    await expect(read).rejects.toThrow(
      'GET /v2.5/computers: 29 distinct records read of the 30 x-total announced (1 read twice)',
    );
    expect(yielded).toEqual([1, 2]);
    expect(new MovedWhileRead('x')).toBeInstanceOf(ServerError);
  });

  it('a list that grows at the front while it is read holds every record it promised: no exit 7', async () => {
    const grown = (uids: string[]) => ['u0', ...uids];
    const items = await all(paginate(moving(grown), { all: true, perPage: 10 }));
    expect(items).toHaveLength(31);
    // Without x-next-page the walk ends at the promised 30 records, one of them read twice: the
    // record pushed past the end was never read, and that is said (it was silently left out).
    const inner = moving(grown);
    const silent: FetchPage = async (query) => {
      const { data, headers } = await inner(query);
      return { data, headers: { ...headers, 'x-next-page': '' } };
    };
    await expect(all(paginate(silent, { all: true, perPage: 10 }))).rejects.toThrow(MovedWhileRead);
  });

  it('without --all (one page, --limit) nothing is counted', async () => {
    expect(await all(paginate(moving(toFront), { limit: 25, perPage: 10 }))).toHaveLength(25);
  });

  it('readWhole reads a spoiled list once more, and a second spoiled read is the failure', async () => {
    const once = moving(toFront, 1);
    const pages = await readWhole(() => paginate(once, { all: true, perPage: 10 }));
    expect(new Set(pages.flatMap((page) => page.items.map((item) => item.uid))).size).toBe(30);
    const always = moving(toFront);
    await expect(readWhole(() => paginate(always, { all: true, perPage: 10 }))).rejects.toThrow(MovedWhileRead);
  });
});
