import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/html.js';
import type { ReportData } from '../../src/report/collect.js';

/** Names come from the API and from customers: whatever they hold stays text. */
describe('the report escapes what it shows', () => {
  const hostile = `<script>alert("x")</script> & 'quotes' <img src=x onerror=alert(1)>`;
  const data: ReportData = {
    account: hostile,
    nowMs: Date.parse('2026-11-20T09:00:00Z'),
    status: {
      scope: { groups: null },
      computers: { total: 1, missing: 1, hidden: 0, pending_removal: 0, platforms: { [hostile]: 1 } },
      plugin_results: { total: 1, alerts: 1, warnings: 0, muted: 0, hidden: 0 },
      top_plugins: [],
      groups: [
        {
          uid: 'g_1',
          name: hostile,
          computers: 1,
          missing: 1,
          alerts: 1,
          warnings: 0,
          hidden: 0,
          platforms: { mac: 1 },
          results: { unmuted: { Alert: 1 }, muted: {} },
        },
      ],
      expirations: { expired: 0, expiring: 0, within_days: 30, windows: { '30d': 0, '90d': 0 } },
    },
    inventory: [
      {
        name: hostile,
        url: 'javascript:alert(1)' as never,
        group: hostile,
        platform: 'mac',
        os: hostile,
        ram: '8 GB',
        bootCapacityBytes: 5e11,
        bootUsedPercent: 50,
        lastReportMs: undefined,
        registeredMs: undefined,
        missing: true,
        model: hostile,
        serial: hostile,
        manufacturedMs: undefined,
        warranty: hostile,
        lastUser: hostile,
      },
    ],
    missing: [],
    attention: [
      {
        computer: hostile,
        url: undefined,
        group: hostile,
        plugin: hostile,
        status: 'Alert',
        details: hostile,
        lastRunMs: undefined,
      },
    ],
    due: [{ what: hostile, computer: hostile, group: hostile, expiresMs: Date.parse('2026-12-01T00:00:00Z') }],
    expired: [{ what: hostile, computer: hostile, group: hostile, expiresMs: Date.parse('2026-10-01T00:00:00Z') }],
    fullVolumes: [],
    endOfSupport: [],
    security: [
      {
        kind: 'Disk encryption',
        checked: 1,
        ok: 0,
        failing: [
          {
            computer: hostile,
            url: undefined,
            group: hostile,
            plugin: hostile,
            status: 'Alert',
            details: hostile,
            muted: false,
          },
        ],
      },
    ],
    osVersions: [[hostile, 1]],
    bootUse: [['under 50%', 0]],
    expiringByMonth: [['2026-11', 0]],
  };

  it('shows every name as text: no element, attribute or script comes from the data', () => {
    const html = renderReport(data, { title: hostile, footer: hostile, version: '1.0.0' }, { customer: hostile });
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
  });
});

describe("the report in the reader's words", () => {
  it('wraps a long operating system name in a chart instead of cutting it', async () => {
    const { barChart } = await import('../../src/report/html.js');
    const name = 'Microsoft Windows Server 2022 Datacenter: Azure Edition';
    const svg = barChart('OS', [
      [name, 3],
      ['macOS Sequoia 15.1.1', 5],
    ]);
    const lines = [...svg.matchAll(/<tspan[^>]*>([^<]+)<\/tspan>/g)].map(([, line]) => line);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe(name);
    expect(svg).not.toContain('…');
  });

  it("says times in the reader's zone, dates as 20 Nov 2026 and months as Nov 2026", async () => {
    const { ReaderTime, readerZone, monthLabel, dayLabel, periodLabel } = await import('../../src/report/html.js');
    const at = Date.parse('2026-11-20T23:30:00Z');
    expect(new ReaderTime('Europe/Paris').minute(at)).toBe('21 Nov 2026 00:30');
    expect(new ReaderTime('America/New_York').minute(at)).toBe('20 Nov 2026 18:30');
    expect(readerZone('Europe/Paris')).toBe('Europe/Paris');
    expect(readerZone(':Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(readerZone('Not/AZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(monthLabel('2026-09')).toBe('Sep 2026');
    expect(dayLabel('2026-11-05')).toBe('5 Nov 2026');
    expect(periodLabel({ fromDay: '2026-11-01', toDay: '2026-11-30', kind: 'month' })).toBe('Nov 2026');
    expect(periodLabel({ fromDay: '2025-12-15', toDay: '2026-01-14', kind: 'since' })).toBe(
      '15 Dec 2025 – 14 Jan 2026',
    );
  });
});
