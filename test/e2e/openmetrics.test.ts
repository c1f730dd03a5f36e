/**
 * `mon status -o openmetrics` end to end: spawned as a scraper's cron job runs it, parsed with
 * the Prometheus project's own OpenMetrics parser (python3-prometheus-client, which .ci/run
 * installs), and its values held against `status -o json` of the same data.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { hasProgram, prometheusPython } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';
import { runMon, tempConfigDir } from '../helpers/run-mon.js';
import { labelValue, renderOpenMetrics } from '../../src/output/openmetrics.js';
import { startFakeApi } from '../helpers/fake-api.js';
import { computer, fleetHandler, result } from '../helpers/fake-fleet.js';

/** The python3 with the Prometheus parser (Debian's python3-prometheus-client), when there is one. */
const PYTHON = prometheusPython();
const PARSER = PYTHON !== undefined;
const PROMTOOL = hasProgram('promtool', ['promtool', '--version']);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample, as the Prometheus parser reads the text; it throws on anything the format forbids. */
function parse(text: string): { families: { name: string; type: string }[]; samples: Sample[] } {
  const script = [
    'import json, sys',
    'from prometheus_client.openmetrics.parser import text_string_to_metric_families',
    'families = list(text_string_to_metric_families(sys.stdin.read()))',
    'print(json.dumps({"families": [{"name": f.name, "type": f.type} for f in families], "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for f in families for s in f.samples]}))',
  ].join('\n');
  return JSON.parse(execFileSync(PYTHON!, ['-c', script], { input: text, encoding: 'utf8' }));
}

const sum = (samples: Sample[], name: string, where: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(where).every(([key, value]) => s.labels[key] === value))
    .reduce((total, s) => total + s.value, 0);

describe('mon status -o openmetrics', () => {
  let sandbox: RunningSandbox;
  let other: RunningSandbox;
  const env = (url: string, key: string) => ({ MON_BASE_URL: url, MON_API_KEY: key });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, recordRequests: true });
    other = await startSandbox({ port: 0, seed: 7, computers: 12, apiKey: 'sbx_live_second_0123456789ab' });
  });
  afterAll(async () => {
    await sandbox.close();
    await other.close();
  });

  it.runIf(PARSER)('parses with the Prometheus parser, and its values are those of status -o json', async () => {
    const metrics = await runMon(['status', '-o', 'openmetrics'], { env: env(sandbox.url, sandbox.apiKey) });
    expect(metrics.stderr).toBe('');
    expect(metrics.code).toBe(0);
    expect(metrics.stdout.endsWith('# EOF\n')).toBe(true);
    const { families, samples } = parse(metrics.stdout);
    expect(families.map((f) => [f.name, f.type])).toEqual([
      ['mon_computers', 'gauge'],
      ['mon_computers_missing', 'gauge'],
      ['mon_computers_hidden', 'gauge'],
      ['mon_plugin_results', 'gauge'],
      ['mon_top_plugin_alerts', 'gauge'],
      ['mon_expirations', 'gauge'],
      ['mon_up', 'gauge'],
      ['mon_read_duration_seconds', 'gauge'],
      ['mon_last_success_timestamp_seconds', 'gauge'],
      ['mon_build_info', 'gauge'],
    ]);
    const json = await runMon(['status', '-o', 'json'], { env: env(sandbox.url, sandbox.apiKey) });
    const report = JSON.parse(json.stdout);
    const account = new URL(sandbox.url).host.replace(/[^\w.-]/g, '_');
    expect(sum(samples, 'mon_up', { account })).toBe(1);
    expect(sum(samples, 'mon_computers')).toBe(report.computers.total);
    for (const [platform, n] of Object.entries(report.computers.platforms))
      expect(sum(samples, 'mon_computers', { platform })).toBe(n);
    expect(sum(samples, 'mon_computers_missing')).toBe(report.computers.missing);
    expect(sum(samples, 'mon_computers_hidden')).toBe(report.computers.hidden);
    expect(sum(samples, 'mon_plugin_results', { status: 'Alert', muted: 'false' })).toBe(report.plugin_results.alerts);
    expect(sum(samples, 'mon_plugin_results', { status: 'Warning', muted: 'false' })).toBe(
      report.plugin_results.warnings,
    );
    expect(sum(samples, 'mon_plugin_results', { muted: 'true' })).toBe(report.plugin_results.muted);
    expect(sum(samples, 'mon_plugin_results')).toBe(report.plugin_results.total - report.plugin_results.hidden);
    expect(sum(samples, 'mon_expirations', { window: 'expired' })).toBe(report.expirations.expired);
    expect(sum(samples, 'mon_expirations', { window: '30d' })).toBe(report.expirations.expiring);
    expect(sum(samples, 'mon_expirations', { window: '90d' })).toBeGreaterThanOrEqual(report.expirations.expiring);
    for (const group of report.groups) {
      expect(sum(samples, 'mon_computers', { group: group.name })).toBe(group.computers);
      expect(sum(samples, 'mon_plugin_results', { group: group.name, status: 'Alert', muted: 'false' })).toBe(
        group.alerts,
      );
    }
    expect(sum(samples, 'mon_read_duration_seconds')).toBeGreaterThan(0);
    for (const group of report.groups)
      expect(sum(samples, 'mon_computers_missing', { group_uid: group.uid ?? '' })).toBe(group.missing);
    expect(
      samples
        .filter((s) => s.name === 'mon_top_plugin_alerts')
        .map((s) => ({ name: s.labels.plugin, alerts: s.value })),
    ).toEqual(report.top_plugins);
    const version = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    expect(samples.filter((s) => s.name === 'mon_build_info')).toEqual([
      { name: 'mon_build_info', labels: { version }, value: 1 },
    ]);
    const [last] = samples.filter((s) => s.name === 'mon_last_success_timestamp_seconds');
    expect(last!.labels).toEqual({ account });
    expect(Math.abs(last!.value - Date.now() / 1000)).toBeLessThan(600);
  });

  it.runIf(PROMTOOL)('promtool check metrics passes on the exposition', async () => {
    const metrics = await runMon(['status', '-o', 'openmetrics'], { env: env(sandbox.url, sandbox.apiKey) });
    const check = spawnSync('promtool', ['check', 'metrics'], { input: metrics.stdout, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toBe('');
    expect(check.status).toBe(0);
  });

  it.runIf(PARSER)('two groups of one name are two label sets, told apart by group_uid', async () => {
    const plugin = [result('r_1', 'Disk', 'Alert')];
    const fleet = {
      groups: [
        { uid: 'g_one', name: 'Acme', slug: 'acme' },
        { uid: 'g_two', name: 'Acme', slug: 'acme-2' },
      ],
      computers: [computer(1, 'g_one', plugin), computer(2, 'g_two', plugin), computer(3, 'g_two', [])],
      expirations: [],
    };
    const api = await startFakeApi(fleetHandler(fleet));
    try {
      const run = await runMain(['status', '-o', 'openmetrics'], { env: env(api.url, 'sbx_live_fake_0123456789ab') });
      expect(run.stderr).toBe('');
      const { samples } = parse(run.stdout);
      const sets = samples.map((s) => `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}`);
      expect(new Set(sets).size).toBe(sets.length);
      expect(sum(samples, 'mon_computers', { group: 'Acme', group_uid: 'g_one' })).toBe(1);
      expect(sum(samples, 'mon_computers', { group: 'Acme', group_uid: 'g_two' })).toBe(2);
      expect(sum(samples, 'mon_plugin_results', { group_uid: 'g_two', status: 'Alert', muted: 'false' })).toBe(1);
    } finally {
      await api.close();
    }
  });

  it.runIf(PARSER)('one account that cannot be read prints mon_up 0 for it, and the exit code says why', async () => {
    const dir = tempConfigDir();
    const profiles = { MON_CONFIG_DIR: dir, HOME: dir, MON_RETRIES: '0' };
    expect(
      (
        await runMain(['profile', 'add', 'south', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
          env: profiles,
          input: 'sbx_live_gone_0000\n',
        })
      ).code,
    ).toBe(0);
    for (const args of [['-p', 'south'], ['--profiles', 'south'], []]) {
      const run = await runMon([...args, 'status', '-o', 'openmetrics'], { env: profiles });
      expect(run.code, args.join(' ')).toBe(8);
      expect(run.stderr).toMatch(/^mon: (south: )?cannot reach 127\.0\.0\.1:9/);
      const { samples } = parse(run.stdout);
      expect(samples.filter((s) => s.name !== 'mon_build_info')).toEqual([
        { name: 'mon_up', labels: { account: 'south' }, value: 0 },
      ]);
    }
    // A key the server refuses (exit 3) is a failure of the account too.
    const refused = await runMain(['status', '-o', 'openmetrics'], {
      env: env(sandbox.url, 'sbx_live_wrong_0123456789ab'),
    });
    expect(refused.code).toBe(3);
    expect(parse(refused.stdout).samples.find((s) => s.name === 'mon_up')!.value).toBe(0);
  });

  it.runIf(PARSER)(
    'an account that cannot be read has the time of its last recorded read as mon_last_success_timestamp_seconds',
    async () => {
      const own = await startSandbox({ port: 0 });
      const dir = tempConfigDir();
      const profiles = { MON_CONFIG_DIR: dir, HOME: dir, MON_RETRIES: '0' };
      expect(
        (
          await runMain(['profile', 'add', 'north', '--base-url', own.url, '--api-key-stdin'], {
            env: profiles,
            input: `${own.apiKey}\n`,
          })
        ).code,
      ).toBe(0);
      const taken = Date.parse('2026-11-20T09:00:00.750Z');
      expect((await runMain(['-p', 'north', 'status', '-q'], { env: profiles, now: () => taken })).code).toBe(0);
      await own.close();
      const figures = async (args: string[], extra: Record<string, string> = {}, scope: string[] = []) => {
        const run = await runMain([...args, 'status', '-o', 'openmetrics', ...scope], {
          env: { ...profiles, ...extra },
        });
        expect(run.code, args.join(' ')).toBe(8);
        return parse(run.stdout).samples.filter((s) => s.name !== 'mon_build_info');
      };
      for (const args of [
        ['-p', 'north'],
        ['--profiles', 'north'],
      ]) {
        expect(await figures(args)).toEqual([
          { name: 'mon_up', labels: { account: 'north' }, value: 0 },
          { name: 'mon_last_success_timestamp_seconds', labels: { account: 'north' }, value: Math.floor(taken / 1000) },
        ]);
      }
      // MON_HISTORY=0 (the history may be old), or a part of the account: no time is claimed.
      expect(await figures(['-p', 'north'], { MON_HISTORY: '0' })).toEqual([
        { name: 'mon_up', labels: { account: 'north' }, value: 0 },
      ]);
      expect(await figures(['-p', 'north'], {}, ['--group', 'Acme Design'])).toEqual([
        { name: 'mon_up', labels: { account: 'north' }, value: 0 },
      ]);
    },
  );

  it('sends what status sends, no more', async () => {
    const before = sandbox.requests.length;
    // In-process: the requests are under test, not the process.
    await runMain(['status', '-o', 'json'], { env: env(sandbox.url, sandbox.apiKey) });
    const json = sandbox.requests
      .slice(before)
      .map((r) => `${r.method} ${r.path} ${JSON.stringify({ ...r.query, api_key: undefined })}`);
    const middle = sandbox.requests.length;
    await runMain(['status', '-o', 'openmetrics'], { env: env(sandbox.url, sandbox.apiKey) });
    const metrics = sandbox.requests
      .slice(middle)
      .map((r) => `${r.method} ${r.path} ${JSON.stringify({ ...r.query, api_key: undefined })}`);
    expect(metrics).toEqual(json);
  });

  it.runIf(PARSER)(
    'across accounts: each account labelled; one that fails has mon_up 0 and no other sample, exit 9',
    async () => {
      const dir = tempConfigDir();
      const profiles = { MON_CONFIG_DIR: dir, HOME: dir };
      for (const [name, one] of [
        ['north', sandbox],
        ['south', other],
      ] as const) {
        expect(
          (
            await runMain(['profile', 'add', name, '--base-url', one.url, '--api-key-stdin'], {
              env: profiles,
              input: `${one.apiKey}\n`,
            })
          ).code,
        ).toBe(0);
      }
      expect(
        (
          await runMain(['profile', 'add', 'gone', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
            env: profiles,
            input: 'sbx_live_gone_0000\n',
          })
        ).code,
      ).toBe(0);
      const run = await runMon(['--all-profiles', 'status', '-o', 'openmetrics'], {
        env: { ...profiles, MON_RETRIES: '0' },
      });
      expect(run.code).toBe(9);
      expect(run.stderr).toMatch(/^mon: gone: /m);
      const { samples } = parse(run.stdout);
      expect(
        samples
          .filter((s) => s.name === 'mon_up')
          .map((s) => [s.labels.account, s.value])
          .sort(),
      ).toEqual([
        ['gone', 0],
        ['north', 1],
        ['south', 1],
      ]);
      expect(samples.filter((s) => s.labels.account === 'gone' && s.name !== 'mon_up')).toEqual([]);
      expect(
        samples
          .filter((s) => s.name === 'mon_last_success_timestamp_seconds')
          .map((s) => s.labels.account)
          .sort(),
      ).toEqual(['north', 'south']);
      expect(sum(samples, 'mon_computers', { account: 'south' })).toBe(12);
      expect(sum(samples, 'mon_computers', { account: 'north' })).toBe(40);
    },
  );

  it.runIf(PARSER)(
    'escapes label values as the format requires: a group named with quotes, a backslash and a new line parses back whole',
    () => {
      const name = 'Ops "Prod" \\ a\nb';
      const report = {
        scope: { groups: null },
        computers: { total: 1, missing: 0, hidden: 0, pending_removal: 0, platforms: { mac: 1 } },
        plugin_results: { total: 0, alerts: 0, warnings: 0, muted: 0, hidden: 0 },
        top_plugins: [],
        groups: [
          {
            uid: 'g_1',
            name,
            computers: 1,
            missing: 0,
            alerts: 0,
            warnings: 0,
            hidden: 0,
            platforms: { mac: 1 },
            results: { unmuted: {}, muted: {} },
          },
        ],
        expirations: { expired: 0, expiring: 0, within_days: 30, windows: { '30d': 0, '90d': 0 } },
      };
      const text = renderOpenMetrics([{ account: 'a"b', report, readSeconds: 0.5 }]);
      expect(text).toContain(`group="${labelValue(name)}"`);
      expect(text.split('\n').filter((line) => line.startsWith('mon_computers{'))).toHaveLength(1);
      const { samples } = parse(text);
      expect(samples.find((s) => s.name === 'mon_computers')!.labels).toEqual({
        account: 'a"b',
        group: name,
        group_uid: 'g_1',
        platform: 'mac',
      });
    },
  );

  it.each([
    [['computers', 'list', '-o', 'openmetrics'], /^mon: -o openmetrics: `mon computers list` prints no metrics/],
    [
      ['status', '--check', '-o', 'openmetrics'],
      /^MON UNKNOWN - --check: prints one Nagios line, -o openmetrics the metrics: choose one/,
    ],
    [['status', '-o', 'openmetrics', '--jq', '.'], /^mon: --jq: filters JSON, so it takes/],
  ])('%j is refused before anything is sent', async (args, message) => {
    const before = sandbox.requests.length;
    const run = await runMon(args, { env: env(sandbox.url, sandbox.apiKey) });
    expect(run.code === 2 || run.code === 3).toBe(true);
    expect(`${run.stdout}${run.stderr}`).toMatch(message);
    expect(sandbox.requests.length).toBe(before);
  });
});
