import { describe, expect, it } from 'vitest';
import { seedState } from '../../src/sandbox/seed.js';
import { NOW, NOW_SEC, DAY, start } from './helpers.js';

/** CPU time of this process in ms (user + system), which other processes do not inflate. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

describe('seedState', () => {
  it('is deterministic for a seed, a count and a clock', () => {
    const a = seedState({ seed: 1, computers: 40, nowMs: NOW });
    const b = seedState({ seed: 1, computers: 40, nowMs: NOW });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const c = seedState({ seed: 2, computers: 40, nowMs: NOW });
    expect(c.computers.map((x) => x.uid)).not.toEqual(a.computers.map((x) => x.uid));
    expect(c.computers.map((x) => x.serial_number)).not.toEqual(a.computers.map((x) => x.serial_number));
  });

  it('places times around the clock it is given', () => {
    const later = seedState({ seed: 1, computers: 40, nowMs: NOW + 100 * DAY * 1000 });
    const now = seedState({ seed: 1, computers: 40, nowMs: NOW });
    expect((later.computers[0]?.last_report ?? 0) - (now.computers[0]?.last_report ?? 0)).toBe(100 * DAY);
    for (const c of now.computers) {
      expect(c.last_report).toBeLessThanOrEqual(NOW_SEC);
      expect(c.last_report).toBeGreaterThan(NOW_SEC - 90 * DAY);
      expect(c.created_at).toBeLessThan(c.last_report);
    }
  });

  it('holds realistic, varied demo data', () => {
    const s = seedState({ seed: 1, computers: 40, nowMs: NOW });
    const primary = (x: { account: string }) => x.account === 'demo';
    const groups = s.groups.filter(primary);
    expect(groups.length).toBeGreaterThanOrEqual(4);
    expect(groups.length).toBeLessThanOrEqual(6);
    const computers = s.computers.filter(primary);
    expect(computers).toHaveLength(40);
    for (const p of ['mac', 'linux', 'windows']) expect(computers.filter((c) => c.platform === p).length).toBeGreaterThanOrEqual(5);
    expect(computers.some((c) => c.model_identifier === 'MacBookPro18,3' || c.model_name.startsWith('MacBook'))).toBe(true);
    expect(new Set(computers.map((c) => c.client_id)).size).toBe(40);
    expect(computers.every((c) => /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/.test(c.client_id))).toBe(true);
    for (const flag of ['hidden', 'pending_removal', 'rekey_requested', 'has_issue', 'agent_removed'] as const) {
      expect(computers.some((c) => c[flag]), flag).toBe(true);
      expect(computers.some((c) => !c[flag]), flag).toBe(true);
    }
    const missing = computers.filter((c) => c.report_if_missing && NOW_SEC - c.last_report > c.report_missing_after * DAY);
    expect(missing.length).toBeGreaterThanOrEqual(3);
    expect(missing.length).toBeLessThanOrEqual(10);
    // computers whose own report_missing_after decides, either way
    const silentDays = (c: { last_report: number }) => (NOW_SEC - c.last_report) / DAY;
    expect(computers.some((c) => c.report_if_missing && c.report_missing_after > 7 && silentDays(c) > 7 && silentDays(c) < c.report_missing_after)).toBe(true);
    expect(computers.some((c) => c.report_if_missing && c.report_missing_after < 7 && silentDays(c) > c.report_missing_after && silentDays(c) < 7)).toBe(true);
    expect(s.expirationManufacturers.filter(primary).length).toBeGreaterThanOrEqual(4);
    expect(s.expirationProducts.filter(primary).length).toBeGreaterThanOrEqual(4);
    const expirations = s.expirations.filter(primary);
    expect(expirations.length).toBeGreaterThanOrEqual(12);
    expect(expirations.length).toBeLessThanOrEqual(20);
    expect(s.notes.filter(primary).length).toBeGreaterThanOrEqual(6);
    expect(new Set(s.users.filter(primary).map((u) => u.role))).toEqual(new Set(['employee', 'end_user']));
    // the second subscriber has its own small set
    expect(s.groups.filter((g) => g.account === 'other')).toHaveLength(1);
    expect(s.computers.filter((c) => c.account === 'other')).toHaveLength(2);
    expect(s.notes.filter((n) => n.account === 'other')).toHaveLength(1);
    // every uid is unique and prefixed
    const all = [...s.groups, ...s.computers, ...s.pluginResults, ...s.expirations, ...s.expirationManufacturers, ...s.expirationProducts, ...s.notes, ...s.users];
    expect(new Set(all.map((x) => x.uid)).size).toBe(all.length);
  });

  it('seeds 10 000 computers in under a second of CPU time', () => {
    // CPU time, best of three: a machine busy with other work must not fail the test
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      const t0 = cpuMs();
      const s = seedState({ seed: 3, computers: 10_000, nowMs: NOW });
      best = Math.min(best, cpuMs() - t0);
      expect(s.computers.filter((c) => c.account === 'demo')).toHaveLength(10_000);
    }
    expect(best).toBeLessThan(1000);
  });
});

describe('a 10 000-computer sandbox', () => {
  it('starts fast and serves 100 pages of 100 fast (CPU time, client included)', async () => {
    const t0 = cpuMs();
    const { sandbox, api } = await start({ computers: 10_000 });
    const startMs = cpuMs() - t0;
    try {
      expect(startMs).toBeLessThan(3000);
      const t1 = cpuMs();
      const seen = new Set<string>();
      for (let page = 1; page <= 100; page++) {
        const res = await api.get('/v2.5/computers', { page, per_page: 100 });
        expect(res.status).toBe(200);
        for (const c of res.body as { uid: string }[]) seen.add(c.uid);
        if (page === 100) expect(res.headers.get('x-next-page')).toBe('');
      }
      expect(seen.size).toBe(10_000);
      // about 1 s on an idle laptop
      expect(cpuMs() - t1).toBeLessThan(5000);
    } finally {
      await sandbox.close();
    }
  });
});
