/**
 * The one fan-out: work on many items, a few at a time: the PUTs of a bulk mute, the accounts
 * of `--profiles`. The client's rate budget still sets the pace of requests; this only bounds
 * how many are under way at once.
 */

/** How many writes are in flight at once: enough to hide a round trip, few enough to stop promptly. */
export const WRITE_CONCURRENCY = 4;

/**
 * Runs `work` on each item with at most `limit` at a time, in the items' order of starting.
 * Once `signal` is aborted no further item is started; those under way end as they end (the
 * client aborts their requests). Resolves when every started item has ended; `work` reports
 * its own outcome and must not throw for a failure of one item.
 */
export async function fanOut<T>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!signal.aborted && next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
