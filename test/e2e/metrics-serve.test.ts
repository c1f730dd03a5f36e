/**
 * `mon metrics serve` as a process: against two sandbox accounts (one whose server is down),
 * scraped over HTTP. Its values are those of `status -o json`, a scrape sends nothing to the
 * API, a down account is mon_up 0, the token and the loopback rule hold, SIGTERM ends it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { hasProgram } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';
import { runMon, tempDir } from '../helpers/run-mon.js';
import { samplesOf, startExporter, until, type Exporter } from '../helpers/exporter.js';

const PROMTOOL = hasProgram('promtool', ['promtool', '--version']);

const total = (text: string, name: string, label = '') =>
  samplesOf(text)
    .filter((s) => s.name === name && s.labels.includes(label))
    .reduce((sum, s) => sum + s.value, 0);

describe('mon metrics serve', () => {
  let north: RunningSandbox;
  let dir: string;
  let env: Record<string, string>;
  let exporter: Exporter;
  const token = 'b5d0c3e9a7f14e2c8d6b';

  beforeAll(async () => {
    north = await startSandbox({ port: 0, recordRequests: true });
    dir = tempDir('mon-exporter-');
    env = { MON_CONFIG_DIR: join(dir, 'config'), MON_RETRIES: '0' };
    expect(
      (
        await runMain(['profile', 'add', 'north', '--base-url', north.url, '--api-key-stdin'], {
          env,
          input: north.apiKey,
        })
      ).code,
    ).toBe(0);
    // south's server is down from the start: nothing listens on port 9.
    expect(
      (
        await runMain(['profile', 'add', 'south', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
          env,
          input: 'sbx_live_south_0123456789ab',
        })
      ).code,
    ).toBe(0);
    writeFileSync(join(dir, 'token'), `${token}\n`);
    exporter = await startExporter(
      ['--all-profiles', 'metrics', 'serve', '--listen', '127.0.0.1:0', '--auth-token-file', join(dir, 'token')],
      env,
    );
  });

  afterAll(async () => {
    exporter?.child.kill('SIGKILL');
    await north?.close();
  });

  const auth = { headers: { authorization: `Bearer ${token}` } };

  it('serves every account once read: values equal status -o json, the down account mon_up 0', async () => {
    await until(`${exporter.url}/-/ready`, auth, (status) => status === 200);
    const text = await until(`${exporter.url}/metrics`, auth, (status) => status === 200);
    const json = JSON.parse((await runMon(['-p', 'north', 'status', '-o', 'json'], { env })).stdout);
    expect(total(text, 'mon_up', 'account="north"')).toBe(1);
    expect(samplesOf(text).filter((s) => s.name === 'mon_up' && s.labels === '{account="south"}')).toEqual([
      { name: 'mon_up', labels: '{account="south"}', value: 0 },
    ]);
    expect(total(text, 'mon_computers', 'account="north"')).toBe(json.computers.total);
    expect(total(text, 'mon_computers_missing', 'account="north"')).toBe(json.computers.missing);
    expect(total(text, 'mon_plugin_results', 'status="Alert",muted="false"')).toBe(json.plugin_results.alerts);
    expect(total(text, 'mon_expirations', 'window="30d"')).toBe(json.expirations.expiring);
    expect(
      samplesOf(text).some((s) => s.name === 'mon_last_success_timestamp_seconds' && s.labels === '{account="north"}'),
    ).toBe(true);
    expect(samplesOf(text).some((s) => s.name === 'mon_build_info')).toBe(true);
    // The Prometheus text format by default: no # EOF, no # UNIT.
    expect(text).not.toContain('# EOF');
    expect(text).not.toContain('# UNIT');
  });

  it('a scrape never calls the API: 50 scrapes at once, no request at the sandbox', async () => {
    await until(`${exporter.url}/-/ready`, auth, (status) => status === 200);
    const before = north.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${exporter.url}/metrics`, auth).then((response) => response.status)),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    expect(north.requests.length).toBe(before);
  });

  it('OpenMetrics when Accept asks for it; /probe?profile=NAME serves one account', async () => {
    const response = await fetch(`${exporter.url}/probe?profile=north`, {
      headers: {
        ...auth.headers,
        accept: 'application/openmetrics-text; version=1.0.0,text/plain;version=0.0.4;q=0.5',
      },
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    const text = await response.text();
    expect(text.endsWith('# EOF\n')).toBe(true);
    expect(text).toContain('mon_up{account="north"} 1');
    expect(text).not.toContain('account="south"');
    expect((await fetch(`${exporter.url}/probe?profile=nobody`, auth)).status).toBe(404);
    expect((await fetch(`${exporter.url}/probe`, auth)).status).toBe(400);
    expect((await fetch(`${exporter.url}/-/healthy`, auth)).status).toBe(200);
  });

  it.runIf(PROMTOOL)('promtool check metrics passes on what it serves', async () => {
    const text = await until(`${exporter.url}/metrics`, auth, (status) => status === 200);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toBe('');
    expect(check.status).toBe(0);
  });

  it('without the bearer token, or with another: 401, and no figure', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Basic ${token}` }] as Record<
      string,
      string
    >[]) {
      const response = await fetch(`${exporter.url}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain('mon_');
    }
  });

  it('says nothing of keys, tokens or account URLs on stderr', () => {
    const stderr = exporter.stderr();
    expect(stderr).toMatch(/south: read failed \(exit code 8\)/);
    for (const secret of [north.apiKey, token, north.url, '127.0.0.1:9 ', 'sbx_live_south'])
      expect(stderr).not.toContain(secret);
  });

  it.each([
    [['--listen', '0.0.0.0:0'], /^mon: --listen 0\.0\.0\.0:0 is not a loopback address: it needs --auth-token-file/],
    [
      ['--listen', '0.0.0.0:0', '--auth-token-file', 'TOKEN'],
      /^mon: --listen 0\.0\.0\.0:0 is not a loopback address: give --tls-cert and --tls-key, or --insecure/,
    ],
    [['--refresh', '30s'], /^mon: --refresh: must be from 1m to 24h/],
    [['--auth-token-file', '/nonexistent/token'], /^mon: --auth-token-file: cannot read /],
  ])('%j is refused with exit 2 before anything is read', async (args, message) => {
    const before = north.requests.length;
    const run = await runMon(
      ['-p', 'north', 'metrics', 'serve', ...args.map((arg) => (arg === 'TOKEN' ? join(dir, 'token') : arg))],
      { env },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(north.requests.length).toBe(before);
  });

  it('--basic-auth-file: user:password, as Prometheus basic_auth sends it; one of it and a token', async () => {
    writeFileSync(join(dir, 'basic'), 'prometheus:s3cret-9f2\n');
    const served = await startExporter(
      ['-p', 'north', 'metrics', 'serve', '--listen', '127.0.0.1:0', '--basic-auth-file', join(dir, 'basic')],
      env,
    );
    try {
      const basic = (pair: string) => ({ headers: { authorization: `Basic ${Buffer.from(pair).toString('base64')}` } });
      expect((await fetch(`${served.url}/-/healthy`, basic('prometheus:s3cret-9f2'))).status).toBe(200);
      for (const init of [basic('prometheus:wrong'), basic('other:s3cret-9f2'), {}]) {
        const response = await fetch(`${served.url}/metrics`, init);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      }
    } finally {
      served.child.kill('SIGTERM');
      await served.ended;
    }
    const both = await runMon(
      [
        '-p',
        'north',
        'metrics',
        'serve',
        '--basic-auth-file',
        join(dir, 'basic'),
        '--auth-token-file',
        join(dir, 'token'),
      ],
      { env },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^mon: --auth-token-file and --basic-auth-file: give one of them/);
  });

  it('SIGHUP reads the profiles again: an account added is served, one removed is dropped', async () => {
    const own = { ...env, MON_CONFIG_DIR: join(tempDir('mon-hup-'), 'config') };
    expect(
      (
        await runMain(['profile', 'add', 'north', '--base-url', north.url, '--api-key-stdin'], {
          env: own,
          input: north.apiKey,
        })
      ).code,
    ).toBe(0);
    const served = await startExporter(['--all-profiles', 'metrics', 'serve', '--listen', '127.0.0.1:0'], own);
    try {
      await until(`${served.url}/-/ready`, {}, (status) => status === 200);
      expect(
        (
          await runMain(['profile', 'add', 'west', '--base-url', north.url, '--api-key-stdin'], {
            env: own,
            input: north.apiKey,
          })
        ).code,
      ).toBe(0);
      expect((await runMain(['profile', 'remove', 'north', '--yes'], { env: own })).code).toBe(0);
      served.child.kill('SIGHUP');
      const text = await until(`${served.url}/metrics`, {}, (_status, body) =>
        body.includes('mon_up{account="west"} 1'),
      );
      expect(text).not.toContain('account="north"');
      expect(served.stderr()).toMatch(/profiles read again: west/);
    } finally {
      served.child.kill('SIGTERM');
      await served.ended;
    }
  });

  it('each read that succeeds records the day as status does (the last read wins); a failed read, or MON_HISTORY=0, records none', async () => {
    const own = { ...env, MON_CONFIG_DIR: join(tempDir('mon-exporter-history-'), 'config') };
    for (const [name, url, key] of [
      ['north', north.url, north.apiKey],
      ['south', 'http://127.0.0.1:9', 'sbx_live_south_0123456789ab'],
    ]) {
      expect(
        (await runMain(['profile', 'add', name!, '--base-url', url!, '--api-key-stdin'], { env: own, input: key }))
          .code,
      ).toBe(0);
    }
    const history = join(own.MON_CONFIG_DIR, 'history');
    const snapshotOf = () => {
      const days = readdirSync(join(history, 'north'));
      expect(days).toHaveLength(1);
      return { day: days[0]!, text: readFileSync(join(history, 'north', days[0]!), 'utf8') };
    };
    const serveOnce = async (extra: Record<string, string> = {}) => {
      const served = await startExporter(['--all-profiles', 'metrics', 'serve', '--listen', '127.0.0.1:0'], {
        ...own,
        ...extra,
      });
      try {
        // Ready once every account's first read has ended, its day recorded with it.
        await until(`${served.url}/-/ready`, {}, (status) => status === 200);
      } finally {
        served.child.kill('SIGTERM');
        await served.ended;
      }
    };

    await serveOnce({ MON_HISTORY: '0' });
    expect(existsSync(history)).toBe(false);

    await serveOnce();
    const first = snapshotOf();
    // south's read failed: nothing of it is kept.
    expect(readdirSync(history)).toEqual(['north']);
    expect(first.text).not.toContain(north.apiKey);
    const snapshot = JSON.parse(first.text);
    expect(snapshot.account).toBe('north');
    const json = JSON.parse(
      (await runMon(['-p', 'north', 'status', '-o', 'json'], { env: { ...own, MON_HISTORY: '0' } })).stdout,
    );
    expect(snapshotOf().text).toBe(first.text);
    expect(snapshot.computers).toMatchObject({
      total: json.computers.total,
      missing: json.computers.missing,
      hidden: json.computers.hidden,
      platforms: json.computers.platforms,
    });
    expect(snapshot.alerts.total).toBe(json.plugin_results.alerts);
    expect(snapshot.warnings.total).toBe(json.plugin_results.warnings);
    expect(snapshot.alerting).toHaveLength(json.plugin_results.alerts + json.plugin_results.warnings);
    expect(snapshot.expirations).toEqual({
      expired: json.expirations.expired,
      within_30d: json.expirations.windows['30d'],
      within_90d: json.expirations.windows['90d'],
    });

    // A later read of the same day replaces the day: still one file, taken later.
    await serveOnce();
    const second = snapshotOf();
    expect(second.day).toBe(first.day);
    expect(Date.parse(JSON.parse(second.text).taken_at)).toBeGreaterThan(Date.parse(snapshot.taken_at));
  });

  it('started while an account is down: mon_up 0 with the time of its last recorded read', async () => {
    const own = { ...env, MON_CONFIG_DIR: join(tempDir('mon-exporter-down-'), 'config') };
    const gone = await startSandbox({ port: 0 });
    expect(
      (
        await runMain(['profile', 'add', 'east', '--base-url', gone.url, '--api-key-stdin'], {
          env: own,
          input: gone.apiKey,
        })
      ).code,
    ).toBe(0);
    const taken = Date.parse('2026-11-20T09:00:00.750Z');
    expect((await runMain(['-p', 'east', 'status', '-q'], { env: own, now: () => taken })).code).toBe(0);
    await gone.close();
    const served = await startExporter(['-p', 'east', 'metrics', 'serve', '--listen', '127.0.0.1:0'], own);
    try {
      await until(`${served.url}/-/ready`, {}, (status) => status === 200);
      const samples = samplesOf(await until(`${served.url}/metrics`, {}, (status) => status === 200)).filter(
        (s) => s.name !== 'mon_build_info',
      );
      expect(samples).toEqual([
        { name: 'mon_up', labels: '{account="east"}', value: 0 },
        { name: 'mon_last_success_timestamp_seconds', labels: '{account="east"}', value: Math.floor(taken / 1000) },
      ]);
    } finally {
      served.child.kill('SIGTERM');
      await served.ended;
    }
  });

  it('SIGTERM ends it cleanly: the port closes and the exit code is 143', async () => {
    const own = await startExporter(['-p', 'north', 'metrics', 'serve', '--listen', '127.0.0.1:0'], env);
    await until(`${own.url}/-/ready`, {}, (status) => status === 200);
    own.child.kill('SIGTERM');
    expect(await own.ended).toBe(143);
    await expect(fetch(`${own.url}/-/healthy`)).rejects.toThrow();
  });
});
