/**
 * The daily snapshots a whole read leaves behind (src/history): what `status` records, one per
 * account and day, bounded, off with MON_HISTORY=0, and never torn by a writer killed with
 * SIGKILL at any moment; `mon history list|export|forget`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { HISTORY_DAYS } from '../../src/history/store.js';
import { runMain } from '../helpers/run-main.js';
import { tempConfigDir, tempDir } from '../helpers/run-mon.js';

const NOW = Date.parse('2026-11-20T09:00:00Z');
const dayFiles = (config: string, account: string) => readdirSync(join(config, 'history', account)).sort();

describe('mon history', () => {
  let sandbox: RunningSandbox;
  const env = (config: string, extra: Record<string, string> = {}) => ({
    MON_BASE_URL: sandbox.url,
    MON_API_KEY: sandbox.apiKey,
    MON_CONFIG_DIR: config,
    ...extra,
  });
  const account = () => `@${new URL(sandbox.url).host.replace(/[^\w.-]/g, '_')}`;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => NOW });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('status records the day with the counts status -o json gives, once per day (the last read wins), never the key', async () => {
    const config = tempConfigDir();
    const status = await runMain(['status', '-o', 'json'], { env: env(config), now: () => NOW });
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout);
    expect(dayFiles(config, account())).toEqual(['2026-11-20.json']);
    const again = await runMain(['status', '-q'], { env: env(config), now: () => NOW + 3_600_000 });
    expect(again.code).toBe(0);
    expect(dayFiles(config, account())).toEqual(['2026-11-20.json']);
    const text = readFileSync(join(config, 'history', account(), '2026-11-20.json'), 'utf8');
    expect(text).not.toContain(sandbox.apiKey);
    const snapshot = JSON.parse(text);
    expect(snapshot.taken_at).toBe(new Date(NOW + 3_600_000).toISOString());
    expect(snapshot.computers).toMatchObject({
      total: report.computers.total,
      missing: report.computers.missing,
      hidden: report.computers.hidden,
      platforms: report.computers.platforms,
    });
    expect(Object.values(snapshot.computers.os as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      report.computers.total,
    );
    expect(snapshot.alerts.total).toBe(report.plugin_results.alerts);
    expect(snapshot.warnings.total).toBe(report.plugin_results.warnings);
    expect(Object.values(snapshot.alerts.by_plugin as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      report.plugin_results.alerts,
    );
    expect(snapshot.alerting).toHaveLength(report.plugin_results.alerts + report.plugin_results.warnings);
    expect(snapshot.expirations.expired).toBe(report.expirations.expired);

    // A second day is a second file; export gives both, oldest first.
    await runMain(['status', '-q'], { env: env(config), now: () => NOW + 86_400_000 });
    const csv = await runMain(['history', 'export', '-o', 'csv'], { env: env(config) });
    expect(csv.stdout.split('\n')[0]).toBe(
      'day,taken_at,computers,missing,hidden,alerts,warnings,alerting_results,expired,expiring_30d,expiring_90d',
    );
    expect(
      csv.stdout
        .split('\n')
        .slice(1, 3)
        .map((line) => line.split(',').slice(0, 3).join(',')),
    ).toEqual([
      `2026-11-20,${new Date(NOW + 3_600_000).toISOString()},${report.computers.total}`,
      `2026-11-21,${new Date(NOW + 86_400_000).toISOString()},${report.computers.total}`,
    ]);
    const ndjson = (await runMain(['history', 'export', '-o', 'ndjson'], { env: env(config) })).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ndjson.map((s) => s.day)).toEqual(['2026-11-20', '2026-11-21']);
    expect(ndjson[0].alerting).toEqual(snapshot.alerting);
    const list = await runMain(['history', 'list', '-o', 'json'], { env: env(config) });
    expect(JSON.parse(list.stdout)).toMatchObject([
      { profile: account(), days: 2, first: '2026-11-20', last: '2026-11-21' },
    ]);
  });

  it('alerts of the whole account records the day too, keeping the expirations an earlier read of the day found', async () => {
    const config = tempConfigDir();
    const file = join(config, 'history', account(), '2026-11-20.json');
    const alone = await runMain(['alerts', '-o', 'json'], { env: env(config), now: () => NOW });
    expect(alone.code).toBe(0);
    const fromAlerts = JSON.parse(readFileSync(file, 'utf8'));
    expect(fromAlerts.expirations).toBeNull();
    expect(fromAlerts.alerting).toHaveLength(JSON.parse(alone.stdout).length);
    await runMain(['status', '-q'], { env: env(config), now: () => NOW + 1000 });
    const fromStatus = JSON.parse(readFileSync(file, 'utf8'));
    expect(fromStatus.expirations).not.toBeNull();
    await runMain(['alerts', '--count'], { env: env(config), now: () => NOW + 2000 });
    const again = JSON.parse(readFileSync(file, 'utf8'));
    expect(again.taken_at).toBe(new Date(NOW + 2000).toISOString());
    expect({ ...again, taken_at: null }).toEqual({ ...fromStatus, taken_at: null });
    // A part of the account (--status Alert filters results, --group the computers): the whole day's results are still read for --status, not for --group.
    await runMain(['alerts', '--group', 'Acme Design'], { env: env(config), now: () => NOW + 3000 });
    expect(JSON.parse(readFileSync(file, 'utf8')).taken_at).toBe(new Date(NOW + 2000).toISOString());
  });

  it('is kept under the profile name, and profile remove forgets it with the profile', async () => {
    const config = tempConfigDir();
    const profiles = { MON_CONFIG_DIR: config };
    expect(
      (
        await runMain(['profile', 'add', 'acme', '--base-url', sandbox.url, '--api-key-stdin'], {
          env: profiles,
          input: `${sandbox.apiKey}\n`,
        })
      ).code,
    ).toBe(0);
    expect((await runMain(['-p', 'acme', 'status', '-q'], { env: profiles, now: () => NOW })).code).toBe(0);
    expect(dayFiles(config, 'acme')).toEqual(['2026-11-20.json']);
    const removed = await runMain(['profile', 'remove', 'acme', '--yes'], { env: profiles });
    expect(removed.stderr).toContain('Its 1 day of history is forgotten too.');
    expect(existsSync(join(config, 'history', 'acme'))).toBe(false);
  });

  it('records nothing with MON_HISTORY=0, for a part of the account (--group), or under --dry-run', async () => {
    const config = tempConfigDir();
    for (const [args, extra] of [
      [['status', '-q'], { MON_HISTORY: '0' }],
      [['status', '-q', '--group', 'Acme Design'], {}],
      [['--dry-run', 'status'], {}],
    ] as const) {
      const run = await runMain(args, { env: env(config, extra), now: () => NOW });
      expect(run.code).toBe(0);
      expect(existsSync(join(config, 'history'))).toBe(false);
    }
  });

  it('forget asks, needs --yes without a terminal, and --dry-run changes nothing', async () => {
    const config = tempConfigDir();
    await runMain(['status', '-q'], { env: env(config), now: () => NOW });
    const refused = await runMain(['history', 'forget'], { env: env(config) });
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mon: refusing to forget history without --yes: no terminal to confirm on — add --yes (-y) to forget it from a script\n',
    });
    const dry = await runMain(['--dry-run', 'history', 'forget', '--yes'], { env: env(config) });
    expect(dry.code).toBe(0);
    expect(dayFiles(config, account())).toEqual(['2026-11-20.json']);
    const forgot = await runMain(['history', 'forget', '--yes'], { env: env(config) });
    expect(forgot.code).toBe(0);
    expect(existsSync(join(config, 'history', account()))).toBe(false);
    const none = await runMain(['history', 'forget', '--yes'], { env: env(config) });
    expect(none.code).toBe(4);
  });

  it("export and forget --account NAME: a base URL's account as list names it, with no key; an unknown name is exit 2", async () => {
    const config = tempConfigDir();
    await runMain(['status', '-q'], { env: env(config), now: () => NOW });
    const name = JSON.parse(
      (await runMain(['history', 'list', '-o', 'json'], { env: { MON_CONFIG_DIR: config } })).stdout,
    )[0].profile;
    expect(name).toBe(account());
    // No MON_BASE_URL, no key: the history is local.
    const alone = { MON_CONFIG_DIR: config };
    const csv = await runMain(['history', 'export', '--account', name, '-o', 'csv'], { env: alone });
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[1]).toMatch(/^2026-11-20,/);
    for (const wrong of ['nobody', '../history', '']) {
      const refused = await runMain(['history', 'forget', '--account', wrong, '--yes'], { env: alone });
      expect(refused.code, wrong).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(`^mon: --account: no history is kept under .* \\(kept: ${name.replace(/[.]/g, '\\.')}\\)`),
      );
    }
    const dry = await runMain(['--dry-run', 'history', 'forget', '--account', name], { env: alone });
    expect(dry.stdout + dry.stderr).toContain(`forget 1 day of history of ${name} (2026-11-20)`);
    const forgot = await runMain(['history', 'forget', '--account', name, '--yes'], { env: alone });
    expect(forgot.code).toBe(0);
    expect(existsSync(join(config, 'history', name))).toBe(false);
  });

  it('with none kept, says why: MON_HISTORY=0 named when it is set', async () => {
    const config = tempConfigDir();
    const on = await runMain(['history', 'list'], { env: { MON_CONFIG_DIR: config } });
    expect(on.stderr).toContain('each refresh of `mon metrics serve`');
    const off = await runMain(['history', 'export'], { env: env(config, { MON_HISTORY: '0' }) });
    expect(off.code).toBe(0);
    expect(off.stderr).toMatch(/^No history of .*: MON_HISTORY turns the recording off/);
  });

  it(`never keeps more than ${HISTORY_DAYS} days: the oldest go`, async () => {
    const config = tempConfigDir();
    await runMain(['status', '-q'], { env: env(config), now: () => NOW });
    const folder = join(config, 'history', account());
    const today = JSON.parse(readFileSync(join(folder, '2026-11-20.json'), 'utf8'));
    // HISTORY_DAYS + 5 earlier days already kept (a store left over its bound by hand).
    for (let i = 1; i <= HISTORY_DAYS + 5; i++) {
      const day = new Date(NOW - i * 86_400_000).toISOString().slice(0, 10);
      writeFileSync(join(folder, `${day}.json`), JSON.stringify({ ...today, day }), { mode: 0o600 });
    }
    await runMain(['status', '-q'], { env: env(config), now: () => NOW + 86_400_000 });
    const days = dayFiles(config, account());
    expect(days).toHaveLength(HISTORY_DAYS);
    expect(days.at(-1)).toBe('2026-11-21.json');
    expect(days[0]).toBe(`${new Date(NOW - (HISTORY_DAYS - 2) * 86_400_000).toISOString().slice(0, 10)}.json`);
  });

  it('a writer killed with SIGKILL at any moment leaves every day whole (the old snapshot or the new one)', async () => {
    // A writer process of its own: the store bundled alone, writing a large snapshot again and
    // again, killed after a random number of writes have begun.
    const dir = tempDir('mon-history-kill-');
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const writer = join(dir, 'writer.cjs');
    const entry = join(dir, 'writer.ts');
    writeFileSync(
      entry,
      `import { recordSnapshot } from ${JSON.stringify(join(root, 'src/history/store.ts'))};
const [config, size] = process.argv.slice(2);
const base = { format: 'mon-history', version: 1, taken_at: '', account: 'kill', computers: { total: 1, missing: 0, hidden: 0, platforms: {}, os: {}, boot: {} }, alerts: { total: 0, by_plugin: {}, by_group: {} }, warnings: { total: 0, by_plugin: {}, by_group: {} }, expirations: null };
for (let n = 0; ; n++) {
  const alerting = Array.from({ length: Number(size) }, (_, i) => ['c_' + i, 'computer ' + i + ' of write ' + n, 'Disk Space', 'Alert']);
  process.stdout.write('write ' + n + '\\n');
  recordSnapshot(config, { key: 'kill', label: 'kill' }, { ...base, day: '2026-11-' + String(10 + (n % 3)), taken_at: String(n), alerting });
}
`,
    );
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: writer,
      logLevel: 'silent',
      absWorkingDir: root,
    });
    const config = tempConfigDir();
    mkdirSync(config, { recursive: true, mode: 0o700 });
    for (let round = 0; round < 10; round++) {
      const stopAfter = 1 + Math.floor(Math.random() * 6);
      const child = spawn(process.execPath, [writer, config, '20000'], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => {
        let seen = 0;
        child.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString().split('\n').length - 1;
          if (seen >= stopAfter) child.kill('SIGKILL');
        });
        child.on('exit', () => resolve());
      });
      // Killed before its first write began: no folder yet, nothing to tear.
      const folder = join(config, 'history', 'kill');
      for (const name of existsSync(folder) ? readdirSync(folder) : []) {
        if (!name.endsWith('.json')) continue;
        const snapshot = JSON.parse(readFileSync(join(config, 'history', 'kill', name), 'utf8'));
        expect(snapshot.alerting).toHaveLength(20000);
        expect(`${snapshot.day}.json`).toBe(name);
      }
    }
  }, 120_000);
});
