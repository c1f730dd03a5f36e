import { describe, expect, it } from 'vitest';
import { errorOf, start } from './helpers.js';

describe('rate limit (api-v2.5, Limits)', () => {
  it('answers 429 with Retry-After in whole seconds past the limit, per key, and recovers', async () => {
    const { sandbox, api, clock } = await start({ rateLimit: { requests: 5, windowMs: 10_000 } });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await api.get('/v2.5/users')).status).toBe(200);
        clock.advance(1);
      }
      // t = 5 s: five requests in the window, the sixth is refused until the first leaves it at t = 10 s
      const refused = await api.get('/v2.5/users');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(errorOf(refused)).toMatchObject({
        status_code: 429,
        code: ':too_many_requests',
        title: 'Too Many Requests',
      });

      // another key has its own budget
      expect((await api.as(sandbox.otherApiKey).get('/v2.5/users')).status).toBe(200);

      clock.advance(4.5);
      const still = await api.get('/v2.5/users');
      expect(still.status).toBe(429);
      expect(still.headers.get('retry-after')).toBe('1');

      clock.advance(0.5);
      expect((await api.get('/v2.5/users')).status).toBe(200);
      // writes count too
      const write = await api.send('POST', '/v2.5/groups/find_or_create', { 'group[name]': 'Limited' });
      expect(write.status).toBe(429);
    } finally {
      await sandbox.close();
    }
  });

  it('allows 400 requests a minute by default', async () => {
    const { sandbox, api } = await start();
    try {
      const statuses: number[] = [];
      for (let batch = 0; batch < 8; batch++) {
        const res = await Promise.all(Array.from({ length: 50 }, () => api.get('/v2.5/users', { per_page: 1 })));
        statuses.push(...res.map((r) => r.status));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(400);
      const over = await api.get('/v2.5/users');
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBe(60);
    } finally {
      await sandbox.close();
    }
  });
});
