/**
 * The exporter's schedule (src/fleet/exporter.ts): each account read on its own, again after
 * each refresh; a read that fails keeps the last figures with mon_up 0; an exposition never
 * reads; a read of many requests waits for its share of the rate budget.
 */
import { describe, expect, it } from 'vitest';
import { Exporter, type AccountRead } from '../../src/fleet/exporter.js';
import { NetworkError } from '../../src/errors.js';
import type { StatusReport } from '../../src/output/status-report.js';

const report = (computers: number): StatusReport => ({
  scope: { groups: null },
  computers: { total: computers, missing: 0, hidden: 0, pending_removal: 0, platforms: { mac: computers } },
  plugin_results: { total: 0, alerts: 0, warnings: 0, muted: 0, hidden: 0 },
  top_plugins: [],
  groups: [
    {
      uid: 'g_1',
      name: 'Acme',
      computers,
      missing: 0,
      alerts: 0,
      warnings: 0,
      hidden: 0,
      platforms: { mac: computers },
      results: { unmuted: {}, muted: {} },
    },
  ],
  expirations: { expired: 0, expiring: 0, within_days: 30, windows: { '30d': 0, '90d': 0 } },
});

/** A read per call from `script` (a number of computers, or a failure), and a way to wait for the n-th call to have settled. */
function scriptedReads(script: Record<string, (number | 'fail')[]>) {
  const calls: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const read = async (name: string): Promise<AccountRead> => {
    const index = calls.filter((one) => one === name).length;
    calls.push(name);
    const step = script[name]![Math.min(index, script[name]!.length - 1)]!;
    // Settled on the next turn, after the exporter has taken the outcome.
    setImmediate(() => waiters.filter((waiter) => calls.length >= waiter.count).forEach((waiter) => waiter.resolve()));
    if (step === 'fail') throw new NetworkError('cannot reach 10.0.0.1:443: connection refused');
    return { report: report(step), readSeconds: 0.25, requests: 3 };
  };
  const calledTimes = (count: number) =>
    new Promise<void>((resolve) => (calls.length >= count ? setImmediate(resolve) : waiters.push({ count, resolve })));
  return { read, calls, calledTimes };
}

describe('Exporter', () => {
  it('a failed refresh keeps the last figures and sets mon_up 0; the last success stays', async () => {
    const reads = scriptedReads({ north: [5, 'fail', 7] });
    const lines: string[] = [];
    let now = 1_000_000;
    const exporter = new Exporter({ refreshMs: 5, now: () => now, log: (line) => lines.push(line), read: reads.read });
    exporter.setAccounts(['north']);
    await reads.calledTimes(1);
    expect(exporter.ready()).toBe(true);
    expect(exporter.exposition('openmetrics')).toContain('mon_up{account="north"} 1');
    now = 2_000_000;
    await reads.calledTimes(2);
    const failed = exporter.exposition('openmetrics');
    expect(failed).toContain('mon_up{account="north"} 0');
    expect(failed).toContain('mon_computers{account="north",group="Acme",group_uid="g_1",platform="mac"} 5');
    expect(failed).toContain('mon_last_success_timestamp_seconds{account="north"} 1000');
    expect(lines.join('\n')).toMatch(/^north: read failed \(exit code 8\)/m);
    expect(lines.join('\n')).not.toContain('10.0.0.1');
    await reads.calledTimes(3);
    expect(exporter.exposition('openmetrics')).toContain('mon_up{account="north"} 1');
    expect(exporter.exposition('openmetrics')).toContain('platform="mac"} 7');
    await exporter.stop();
  });

  it('an exposition never reads; it is rendered again only after a read', async () => {
    const reads = scriptedReads({ north: [5], south: [3] });
    const exporter = new Exporter({ refreshMs: 3_600_000, now: () => 0, log: () => undefined, read: reads.read });
    exporter.setAccounts(['north', 'south']);
    expect(exporter.ready()).toBe(false);
    await reads.calledTimes(2);
    const first = exporter.exposition('text');
    for (let i = 0; i < 100; i++) expect(exporter.exposition('text')).toBe(first);
    expect(reads.calls).toEqual(['north', 'south']);
    expect(exporter.exposition('openmetrics', 'south')).toContain('mon_up{account="south"} 1');
    expect(exporter.exposition('openmetrics', 'south')).not.toContain('north');
    await exporter.stop();
  });

  it('accounts dropped on a reload lose their series; new ones are read', async () => {
    const reads = scriptedReads({ north: [5], south: [3], west: [2] });
    const exporter = new Exporter({ refreshMs: 3_600_000, now: () => 0, log: () => undefined, read: reads.read });
    exporter.setAccounts(['north', 'south']);
    await reads.calledTimes(2);
    exporter.setAccounts(['north', 'west']);
    await reads.calledTimes(3);
    const text = exporter.exposition('openmetrics');
    expect(text).toContain('mon_up{account="west"} 1');
    expect(text).not.toContain('account="south"');
    expect(reads.calls).toEqual(['north', 'south', 'west']);
    await exporter.stop();
  });

  it('a read of many requests waits for a tenth of the rate budget before the next, and says so', async () => {
    const lines: string[] = [];
    let calls = 0;
    const exporter = new Exporter({
      refreshMs: 5,
      now: () => 0,
      log: (line) => lines.push(line),
      read: async () => {
        calls++;
        return { report: report(10_000), readSeconds: 1, requests: 102 };
      },
    });
    exporter.setAccounts(['big']);
    await new Promise<void>((resolve) => {
      const check = () => (lines.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(lines[0]).toBe(
      'big: a read takes 102 requests, so it is read every 153 s, not more often (a tenth of the rate budget)',
    );
    await exporter.stop();
    expect(calls).toBe(1);
  });
});
