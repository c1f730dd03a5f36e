import { setTimeout as sleep } from 'node:timers/promises';
import type { RateBudget } from './client.js';

/** The API's limit: 400 requests per minute, all requests (api-v2.5, Limits). */
export const RATE_LIMIT = { requests: 400, windowMs: 60_000 };

/**
 * A sliding-window budget for this process: waits, rather than fails, when the window is full.
 * MON_RATE_LIMIT=<requests>/<seconds> narrows it (for tests and for sharing a key).
 */
export function sharedBudget(_dir: string, _apiKey: string, env: Record<string, string | undefined>): RateBudget {
  const limit = parseLimit(env.MON_RATE_LIMIT) ?? RATE_LIMIT;
  const sent: number[] = [];
  return {
    async take(signal) {
      for (;;) {
        const now = Date.now();
        while (sent.length > 0 && sent[0]! <= now - limit.windowMs) sent.shift();
        if (sent.length < limit.requests) {
          sent.push(now);
          return;
        }
        await sleep(sent[0]! + limit.windowMs - now, undefined, { signal });
      }
    },
  };
}

function parseLimit(text: string | undefined): { requests: number; windowMs: number } | undefined {
  const match = text ? /^(\d+)\/(\d+)$/.exec(text.trim()) : null;
  if (!match) return undefined;
  return { requests: Math.max(1, Number(match[1])), windowMs: Math.max(1, Number(match[2])) * 1000 };
}
