import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, result, type Fleet } from '../helpers/fake-fleet.js';
import { runMon } from '../helpers/run-mon.js';

/**
 * The same plugin result means the same thing in every command (issue: one answer everywhere).
 * A server the test scripts: the sandbox renders a mute that ran out as unmuted, while an API
 * may still send `muted: true` with the ended timed mute; mon must not believe the stale flag.
 */

const KEY = 'k_one_answer_key';
const now = Math.floor(Date.now() / 1000);
const fleet: Fleet = {
  groups: [{ uid: 'g_a', slug: 'alpha', name: 'Alpha' }],
  computers: [
    computer(1, 'g_a', [
      // muted: true, but the timed mute ended a day ago: not muted.
      result('pr_stale', 'Backups', 'Warning', { muted: true, mute_type: 'timed_mute', mute_until: now - 86_400 } as never),
      result('pr_timed', 'Disk Space', 'Alert', { muted: true, mute_type: 'timed_mute', mute_until: now + 86_400 } as never),
      result('pr_forever', 'SMART Status', 'Alert', { muted: true, mute_type: 'muted_forever' } as never),
      result('pr_open', 'Uptime', 'Alert'),
    ]),
  ],
  expirations: [],
};

describe('muted means one thing', () => {
  let api: FakeApi;
  let env: Record<string, string>;
  const uids = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { uid: string }).uid).sort();

  beforeAll(async () => {
    api = await startFakeApi(
      fleetHandler(fleet, (req, res) => {
        // plugin list reads one computer with its plugin results.
        if (req.path !== '/v2.5/computers/CLIENT-1') return false;
        json(res, 200, fleet.computers[0]);
        return true;
      }),
    );
    env = { MON_BASE_URL: api.url, MON_API_KEY: KEY };
  });
  afterAll(() => api.close());

  it('plugin list --muted and --unmuted agree with alerts about a timed mute that has ended', async () => {
    const muted = await runMon(['plugin', 'list', 'CLIENT-1', '--muted', '-o', 'ndjson'], { env });
    expect(muted.stderr).toBe('');
    expect(uids(muted.stdout)).toEqual(['pr_forever', 'pr_timed']);
    const unmuted = await runMon(['plugin', 'list', 'CLIENT-1', '--unmuted', '-o', 'ndjson'], { env });
    expect(uids(unmuted.stdout)).toEqual(['pr_open', 'pr_stale']);

    const alerts = await runMon(['alerts', '-o', 'ndjson'], { env });
    expect(alerts.code).toBe(0);
    expect(uids(alerts.stdout)).toEqual(['pr_open', 'pr_stale']);
    const mutedAlerts = await runMon(['alerts', '--muted', '-o', 'ndjson'], { env });
    expect(uids(mutedAlerts.stdout)).toEqual(['pr_forever', 'pr_timed']);
  });

  it('status counts it as an unmuted warning, and a bulk mute picks it as not yet muted', async () => {
    const status = await runMon(['status', '-o', 'json'], { env });
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as { plugin_results: unknown }).plugin_results).toEqual({ total: 4, alerts: 1, warnings: 1, muted: 2, hidden: 0 });

    const mute = await runMon(['plugin', 'mute', '--group', 'Alpha', '--ignore', '--dry-run'], { env });
    expect(mute.code).toBe(0);
    const puts = mute.stdout.split('\n').filter((line) => line.startsWith('PUT'));
    expect(puts.map((line) => /plugin_results\/(pr_\w+)/.exec(line)?.[1]).sort()).toEqual(['pr_open', 'pr_stale']);
    const unmute = await runMon(['plugin', 'unmute', '--group', 'Alpha', '--dry-run'], { env });
    const unmutePuts = unmute.stdout.split('\n').filter((line) => line.startsWith('PUT'));
    expect(unmutePuts.map((line) => /plugin_results\/(pr_\w+)/.exec(line)?.[1]).sort()).toEqual(['pr_forever', 'pr_timed']);
  });
});
