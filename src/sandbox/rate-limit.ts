/**
 * Sliding-window rate limit per key (api-v2.5, Limits: 400 requests per minute). What the
 * service does when the limit is exceeded is not shown; the sandbox answers 429 with a
 * Retry-After in whole seconds, and a refused request does not count.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Records a request; returns undefined when allowed, else the seconds to wait. */
  hit(key: string): number | undefined {
    const t = this.now();
    let times = this.hits.get(key);
    if (!times) {
      times = [];
      this.hits.set(key, times);
    }
    // drop hits that left the window; the array is in time order
    let expired = 0;
    while (expired < times.length && (times[expired] as number) <= t - this.windowMs) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length >= this.limit) {
      const oldest = times[0] as number;
      return Math.max(1, Math.ceil((oldest + this.windowMs - t) / 1000));
    }
    times.push(t);
    return undefined;
  }
}
