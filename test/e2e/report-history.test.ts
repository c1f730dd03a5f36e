/**
 * `mon report` over a period: the trends drawn from the days mon recorded (src/history), what was
 * resolved and what is new, the one line when there are no days yet, and what needs a decision
 * with the counts the API's own lists give. Rendered in headless Chromium where it is installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import type { AlertingResult, Snapshot } from '../../src/history/snapshot.js';
import { END_OF_SUPPORT, supportState } from '../../src/report/end-of-support.js';
import { VERSION } from '../../src/version.js';
import { hasProgram } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir, tempDir } from '../helpers/run-mon.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = hasProgram('chromium', [CHROMIUM, '--version']);
const NOW = Date.parse('2026-11-20T09:00:00Z');
const DAY = 86_400_000;
const EXPECTED = fileURLToPath(new URL('./fixtures/report-60-days.html', import.meta.url));

/** The DOM as Chromium holds it once it has laid the page out. */
function domInChromium(file: string): string {
  const profile = tempDir('mon-chromium-');
  return execFileSync(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--dump-dom',
      '--virtual-time-budget=2000',
      `file://${file}`,
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 60_000,
    },
  );
}

/** 60 daily snapshots ending on NOW's day, each figure a known function of the day. */
function fixture(): Snapshot[] {
  const first: AlertingResult[] = [
    ['c_1', 'ACME-LT-001', 'Disk Space', 'Alert'],
    ['c_2', 'ACME Mac Studio 002', 'FileVault', 'Alert'],
    ['c_3', 'NWC-WS-003', 'Windows Update', 'Warning'],
  ];
  const last: AlertingResult[] = [
    ['c_2', 'ACME Mac Studio 002', 'FileVault', 'Alert'],
    ['c_4', 'SUM-SRV-004', 'RAID Status', 'Alert'],
  ];
  return Array.from({ length: 60 }, (_, i) => {
    const day = new Date(NOW - (59 - i) * DAY).toISOString().slice(0, 10);
    const total = 30 + Math.floor(i / 10);
    return {
      format: 'mon-history',
      version: 1,
      day,
      taken_at: `${day}T07:30:00.000Z`,
      account: 'fixture',
      computers: {
        total,
        missing: i % 5,
        hidden: 1,
        platforms: { mac: total - 10, windows: 10 },
        os: { 'macOS Sequoia 15.1.1': total },
        boot: { 'under 50%': total },
      },
      alerts: { total: (i * 7) % 11, by_plugin: {}, by_group: {} },
      warnings: { total: (i * 3) % 8, by_plugin: {}, by_group: {} },
      expirations: { expired: 12, within_30d: 1, within_90d: 3 },
      alerting: i === 59 ? last : first,
    };
  });
}

describe('mon report over a period', () => {
  let sandbox: RunningSandbox;
  const account = () => `@${new URL(sandbox.url).host.replace(/[^\w.-]/g, '_')}`;
  const env = (config: string, extra: Record<string, string> = {}) => ({
    MON_BASE_URL: sandbox.url,
    MON_API_KEY: sandbox.apiKey,
    MON_CONFIG_DIR: config,
    TZ: 'Europe/Paris',
    ...extra,
  });
  /** A config folder holding the fixture's days for the sandbox's account. */
  const withFixture = () => {
    const config = tempConfigDir();
    const folder = join(config, 'history', account());
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const snapshot of fixture())
      writeFileSync(join(folder, `${snapshot.day}.json`), JSON.stringify(snapshot), { mode: 0o600 });
    return config;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => NOW });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('a report of 60 recorded days equals the stored expected file (fixed clock and time zone)', async () => {
    // MON_HISTORY=0: the run reads the days kept and records none of its own.
    const run = await runMain(['report', '--since', '59d', '--title', 'Monthly report'], {
      env: env(withFixture(), { MON_HISTORY: '0' }),
      now: () => NOW,
    });
    expect(run.code).toBe(0);
    const html = run.stdout.replace(`mon ${VERSION} `, 'mon VERSION ');
    // MON_WRITE_EXPECTED=1 rewrites it after a change to the report that is meant.
    if (process.env.MON_WRITE_EXPECTED === '1') writeFileSync(EXPECTED, html);
    expect(html).toBe(readFileSync(EXPECTED, 'utf8'));
    expect(html).toContain('<h1>Monthly report — 22 Sep – 20 Nov 2026</h1>');
    expect(html).toContain('times in Europe/Paris');
  });

  it.runIf(HAS_CHROMIUM)(
    'in Chromium: each trend chart drew the recorded values day by day; resolved and new are those of the first and last day',
    async () => {
      const file = join(tempDir('mon-report-'), 'report.html');
      const run = await runMain(['report', '--since', '59d'], {
        env: env(withFixture(), { MON_HISTORY: '0' }),
        now: () => NOW,
      });
      writeFileSync(file, run.stdout);
      const dom = domInChromium(file);
      const days = fixture();
      const expected: Record<string, number[]> = {
        computers: days.map((s) => s.computers.total),
        missing: days.map((s) => s.computers.missing),
        alerts: days.map((s) => s.alerts.total),
        warnings: days.map((s) => s.warnings.total),
      };
      for (const [series, values] of Object.entries(expected)) {
        const figure = new RegExp(`<figure data-series="${series}">([\\s\\S]*?)</figure>`).exec(dom)?.[1];
        expect(figure, series).toBeDefined();
        const points = [...figure!.matchAll(/<circle[^>]*data-day="([\d-]+)"[^>]*data-value="(\d+)"/g)].map(
          ([, day, value]) => [day, Number(value)],
        );
        expect(points).toEqual(days.map((s, i) => [s.day, values[i]]));
        // Drawn: the line's points rise and fall with the values (a higher value is higher up).
        const ys = [...figure!.matchAll(/<circle[^>]*cy="(\d+)"/g)].map(([, y]) => Number(y));
        for (let i = 1; i < values.length; i++)
          expect(Math.sign(ys[i - 1]! - ys[i]!)).toBe(Math.sign(values[i]! - values[i - 1]!));
      }
      const section = /<section id="period">([\s\S]*?)<\/section>/.exec(dom)![1]!;
      expect(section).toMatch(/Resolved since 22 Sep 2026 \(2\)/);
      expect(section).toMatch(/New since 22 Sep 2026 \(1\)/);
      expect(section).toContain('ACME-LT-001');
      expect(section).toContain('NWC-WS-003');
      expect(section).toContain('SUM-SRV-004');
      expect(section).not.toContain('ACME Mac Studio 002');
    },
    60_000,
  );

  it('with no recorded day, one plain line says trends start with the first recorded day; the first day recorded says so too', async () => {
    const none = await runMain(['report', '--period', '2026-11'], {
      env: env(tempConfigDir(), { MON_HISTORY: '0' }),
      now: () => NOW,
    });
    expect(none.code).toBe(0);
    const period = /<section id="period">([\s\S]*?)<\/section>/.exec(none.stdout)![1]!;
    expect(period.match(/<p[^>]*>/g)).toHaveLength(2);
    expect(period).toContain(
      '<p class="none" id="no-trends">No day of this period was recorded: trends start with the first recorded day.</p>',
    );
    expect(none.stdout).not.toContain('<figure data-series');
    expect(none.stdout).toContain('<h1>Fleet report — Nov 2026</h1>');

    const config = tempConfigDir();
    const first = await runMain(['report', '--period', '2026-11'], { env: env(config), now: () => NOW });
    expect(first.stdout).toContain(
      '<p class="none" id="no-trends">Trends start with the first recorded day, 20 Nov 2026: the next days recorded will draw them.</p>',
    );
    // The report recorded the day: the next day draws a trend of two points.
    const next = await runMain(['report', '--period', '2026-11'], { env: env(config), now: () => NOW + DAY });
    expect(
      [...next.stdout.matchAll(/<figure data-series="computers">[\s\S]*?<\/figure>/g)][0]![0].match(/<circle/g),
    ).toHaveLength(2);
  });

  it('what needs a decision: expired items, end-of-support systems and full volumes with the counts the API lists give', async () => {
    const config = tempConfigDir();
    const html = (await runMain(['report'], { env: env(config), now: () => NOW })).stdout;
    const status = JSON.parse((await runMain(['status', '-o', 'json'], { env: env(config), now: () => NOW })).stdout);
    const computers = JSON.parse(
      (await runMain(['computers', 'list', '--all', '-o', 'json'], { env: env(config), now: () => NOW })).stdout,
    ) as Record<string, unknown>[];
    expect(html).toContain(`Expired warranties and licences (${status.expirations.expired})`);
    expect(status.expirations.expired).toBeGreaterThan(0);
    const decisions = /<section id="decisions">([\s\S]*?)<\/section>/.exec(html)![1]!;
    const expiredRows = /Expired warranties[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(decisions)![1]!.match(/<tr>/g)!;
    expect(expiredRows).toHaveLength(status.expirations.expired);
    expect(decisions).toMatch(/<td>[^<]+ ago<\/td>/);

    const eos = computers.filter((c) => {
      const row = END_OF_SUPPORT.find((r) => r.match.test(String(c.os_version ?? '')));
      return row && supportState(row, NOW);
    });
    expect(eos.length).toBeGreaterThan(0);
    expect(decisions).toContain(`Operating systems past or near their end of support (${eos.length})`);
    const windows10 = computers.filter((c) => /Windows 10/.test(String(c.os_version)));
    expect(decisions).toMatch(
      new RegExp(
        `<td>Windows 10</td><td><span class="past">past end of support</span><br>14 Oct 2025</td><td>${windows10.length}: `,
      ),
    );

    const full = computers.filter((c) => Number(c.boot_volume_usage_percent) >= 90);
    expect(full.length).toBeGreaterThan(0);
    expect(decisions).toContain(`Boot volumes 90% full or more (${full.length})`);
    // Security: the sandbox's FileVault, BitLocker, Defender and update checks.
    expect(html).toContain('<section id="security">');
    expect(html).toMatch(/<td>Disk encryption<\/td><td class="num">\d+<\/td>/);
  });
});
