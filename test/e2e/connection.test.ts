import { lookup } from 'node:dns/promises';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { testClock } from '../helpers/clock.js';

/**
 * #12 item 10: a host name that does not resolve is not retried. `.invalid` is reserved never
 * to resolve (RFC 6761 §6.4), so the machine's resolver answers "not found" at once.
 */
describe('a host that does not resolve', () => {
  const host = 'mon-no-such-host.invalid';

  it('fails at once with exit 8, naming the host and where it came from', async () => {
    // The premise: this machine's resolver says "not found" (not "try again") for the name.
    await expect(lookup(host)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    const clock = testClock();
    const result = await runMain(['groups', 'list', '-v'], {
      env: { MON_BASE_URL: `https://${host}`, MON_API_KEY: 'k_test_1234567890' },
      clock,
    });
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('mon: '));
    expect(errors).toEqual([
      `mon: cannot reach ${host}: host not found — check the host name of the base URL (from MON_BASE_URL)`,
    ]);
    // One attempt: no backoff, no "(after N attempts)"; --verbose shows a single request.
    expect(result.stderr.match(/^GET https:/gm) ?? []).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});
