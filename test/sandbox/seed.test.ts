import { describe, expect, it } from 'vitest';
import type { PluginResultRec } from '../../src/sandbox/model.js';
import { activeMute, isMissing } from '../../src/sandbox/render.js';
import { seedState } from '../../src/sandbox/seed.js';
import { NOW, NOW_SEC, DAY, start } from './helpers.js';

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
    expect(groups).toHaveLength(9);
    // names with accents and apostrophes, as real customers have
    expect(groups.map((g) => g.name)).toEqual(
      expect.arrayContaining(['Café Lumière', "O'Brien & Sons Plumbing", 'Atelier Hélène Dubois']),
    );
    expect(s.computers.some((c) => c.custom_name?.includes("'"))).toBe(true);
    expect(s.computers.some((c) => /[éèëñüłá]/.test(c.custom_name ?? c.computer_name))).toBe(true);
    const computers = s.computers.filter(primary);
    expect(computers).toHaveLength(40);
    for (const p of ['mac', 'linux', 'windows'])
      expect(computers.filter((c) => c.platform === p).length).toBeGreaterThanOrEqual(5);
    expect(computers.some((c) => c.model_identifier === 'MacBookPro18,3' || c.model_name.startsWith('MacBook'))).toBe(
      true,
    );
    expect(new Set(computers.map((c) => c.client_id)).size).toBe(40);
    expect(
      computers.every((c) => /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/.test(c.client_id)),
    ).toBe(true);
    for (const flag of ['hidden', 'pending_removal', 'rekey_requested', 'has_issue', 'agent_removed'] as const) {
      expect(
        computers.some((c) => c[flag]),
        flag,
      ).toBe(true);
      expect(
        computers.some((c) => !c[flag]),
        flag,
      ).toBe(true);
    }
    const missing = computers.filter(
      (c) => c.report_if_missing && NOW_SEC - c.last_report > c.report_missing_after * DAY,
    );
    expect(missing).toHaveLength(3);
    // computers whose own report_missing_after decides, either way
    const silentDays = (c: { last_report: number }) => (NOW_SEC - c.last_report) / DAY;
    expect(
      computers.some(
        (c) =>
          c.report_if_missing &&
          c.report_missing_after > 7 &&
          silentDays(c) > 7 &&
          silentDays(c) < c.report_missing_after,
      ),
    ).toBe(true);
    expect(
      computers.some(
        (c) =>
          c.report_if_missing &&
          c.report_missing_after < 7 &&
          silentDays(c) > c.report_missing_after &&
          silentDays(c) < 7,
      ),
    ).toBe(true);
    expect(s.expirationManufacturers.filter(primary).length).toBeGreaterThanOrEqual(4);
    expect(s.expirationProducts.filter(primary).length).toBeGreaterThanOrEqual(4);
    const expirations = s.expirations.filter(primary);
    expect(expirations).toHaveLength(23);
    // spread over the past and the next year
    const days = expirations.map((e) => ((e.expires_at ?? 0) - NOW_SEC) / DAY);
    expect(Math.min(...days)).toBeLessThan(-250);
    expect(Math.max(...days)).toBeGreaterThan(250);
    expect(days.filter((d) => d < 0).length).toBeGreaterThanOrEqual(8);
    expect(days.filter((d) => d > 0 && d <= 60).length).toBeGreaterThanOrEqual(2);
    expect(s.notes.filter(primary).length).toBeGreaterThanOrEqual(6);
    expect(new Set(s.users.filter(primary).map((u) => u.role))).toEqual(new Set(['employee', 'end_user']));
    // the second subscriber has its own small set
    expect(s.groups.filter((g) => g.account === 'other')).toHaveLength(1);
    expect(s.computers.filter((c) => c.account === 'other')).toHaveLength(2);
    expect(s.notes.filter((n) => n.account === 'other')).toHaveLength(1);
    // every uid is unique and prefixed
    const all = [
      ...s.groups,
      ...s.computers,
      ...s.pluginResults,
      ...s.expirations,
      ...s.expirationManufacturers,
      ...s.expirationProducts,
      ...s.notes,
      ...s.users,
    ];
    expect(new Set(all.map((x) => x.uid)).size).toBe(all.length);
  });
});

/**
 * The proportions src/sandbox/README.md documents (Data), as counts: a computer's state is the
 * worst status among its visible plugin results whose mute is not in force.
 */
function census(computers: number) {
  const s = seedState({ seed: 1, computers, nowMs: NOW });
  const fleet = s.computers.filter((c) => c.account === 'demo');
  const results = new Map<string, PluginResultRec[]>();
  for (const pr of s.pluginResults) results.set(pr.computer, [...(results.get(pr.computer) ?? []), pr]);
  const count = {
    ok: 0,
    warning: 0,
    alert: 0,
    timed: 0,
    ticket: 0,
    ignored: 0,
    expiredMute: 0,
    missing: 0,
    hidden: 0,
    pendingRemoval: 0,
    agentRemoved: 0,
    rekey: 0,
    serviceWarning: 0,
  };
  for (const c of fleet) {
    const visible = (results.get(c.uid) ?? []).filter((pr) => pr.visible);
    const unmuted = visible.filter((pr) => activeMute(pr, NOW_SEC) === null);
    if (unmuted.some((pr) => pr.status === 'Alert')) count.alert++;
    else if (unmuted.some((pr) => pr.status === 'Warning')) count.warning++;
    else count.ok++;
    for (const pr of visible) {
      const mute = activeMute(pr, NOW_SEC);
      if (mute) count[mute.type]++;
      else if (pr.mute?.type === 'timed') count.expiredMute++;
    }
    if ((results.get(c.uid) ?? []).some((pr) => !pr.visible && pr.status !== 'OK')) count.serviceWarning++;
    if (isMissing(c, NOW_SEC)) count.missing++;
    if (c.hidden) count.hidden++;
    if (c.pending_removal) count.pendingRemoval++;
    if (c.agent_removed) count.agentRemoved++;
    if (c.rekey_requested) count.rekey++;
  }
  const sizes = s.groups.filter((g) => g.account === 'demo').map((g) => fleet.filter((c) => c.group === g.uid).length);
  return { count, sizes };
}

describe('the documented proportions (README, Data)', () => {
  it('hold at 40 computers, with the minimums that keep every case present', () => {
    const { count, sizes } = census(40);
    expect(count).toEqual({
      ok: 34,
      warning: 4,
      alert: 2,
      timed: 2,
      ticket: 2,
      ignored: 2,
      expiredMute: 1,
      missing: 3,
      hidden: 4,
      pendingRemoval: 1,
      agentRemoved: 1,
      rekey: 1,
      serviceWarning: 1,
    });
    expect(sizes).toEqual([13, 8, 6, 4, 3, 2, 1, 3, 0]);
  });

  it('hold at 10 000 computers', () => {
    const { count, sizes } = census(10_000);
    expect(count).toEqual({
      ok: 8800,
      warning: 800,
      alert: 400,
      timed: 300,
      ticket: 200,
      ignored: 200,
      expiredMute: 100,
      missing: 500,
      hidden: 789,
      pendingRemoval: 200,
      agentRemoved: 50,
      rekey: 150,
      serviceWarning: 300,
    });
    expect(sizes).toEqual([3300, 2100, 1500, 1000, 700, 500, 300, 600, 0]);
  });

  it('are kept for every seed', () => {
    for (const seed of [2, 7, 12345]) {
      const s = seedState({ seed, computers: 40, nowMs: NOW });
      expect(s.computers.filter((c) => c.account === 'demo' && isMissing(c, NOW_SEC))).toHaveLength(3);
    }
  });
});

describe('a 10 000-computer sandbox', () => {
  // How fast it seeds and serves is the benchmark's to measure (npm run bench runs 10,000 and
  // 50,000); here, that it pages a large account right.
  it('pages 10 000 computers: x-total, a full last page, and no x-next-page after it', async () => {
    const { sandbox, api } = await start({ computers: 10_000 });
    try {
      const first = await api.get('/v2.5/computers', { page: 1, per_page: 100 });
      expect(first.headers.get('x-total')).toBe('10000');
      expect(first.headers.get('x-total-pages')).toBe('100');
      expect(first.headers.get('x-next-page')).toBe('2');
      const last = await api.get('/v2.5/computers', { page: 100, per_page: 100 });
      expect(last.body).toHaveLength(100);
      expect(last.headers.get('x-next-page')).toBe('');
      const uids = new Set([...first.body, ...last.body].map((c: { uid: string }) => c.uid));
      expect(uids.size).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
