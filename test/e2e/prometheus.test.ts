/**
 * A real Prometheus (Debian's `prometheus`) scrapes `mon metrics serve` with a bearer token
 * (authorization: credentials_file) against two accounts, one whose server is down; what its
 * HTTP API answers equals `status -o json`, and the down account is mon_up 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { startExporter, type Exporter } from '../helpers/exporter.js';
import { hasProgram } from '../helpers/programs.js';
import { runMain } from '../helpers/run-main.js';
import { runMon, tempDir } from '../helpers/run-mon.js';

const PROMETHEUS = hasProgram('Prometheus', ['prometheus', '--version']);

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.runIf(PROMETHEUS)('a real Prometheus scraping mon metrics serve', () => {
  let north: RunningSandbox;
  let exporter: Exporter;
  let prometheus: ChildProcess;
  let api: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    north = await startSandbox({ port: 0 });
    const dir = tempDir('mon-prometheus-');
    env = { MON_CONFIG_DIR: join(dir, 'config'), MON_RETRIES: '0' };
    expect(
      (
        await runMain(['profile', 'add', 'north', '--base-url', north.url, '--api-key-stdin'], {
          env,
          input: north.apiKey,
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await runMain(['profile', 'add', 'south', '--base-url', 'http://127.0.0.1:9', '--api-key-stdin'], {
          env,
          input: 'sbx_live_south_0123456789ab',
        })
      ).code,
    ).toBe(0);
    const token = join(dir, 'token');
    writeFileSync(token, 'f00dfeedc0ffee0123456789\n');
    exporter = await startExporter(
      ['--all-profiles', 'metrics', 'serve', '--listen', '127.0.0.1:0', '--auth-token-file', token],
      env,
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: mon',
        '    authorization:',
        `      credentials_file: ${token}`,
        '    static_configs:',
        `      - targets: ['${new URL(exporter.url).host}']`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
  }, 30_000);

  afterAll(() => {
    prometheus?.kill('SIGTERM');
    exporter?.child.kill('SIGTERM');
    return north?.close();
  });

  /** The value of an instant query once Prometheus has it (it scrapes each second). */
  async function value(query: string): Promise<number> {
    for (let i = 0; i < 1500; i++) {
      try {
        const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(query)}`);
        const body = (await response.json()) as { data?: { result?: { value: [number, string] }[] } };
        const result = body.data?.result ?? [];
        if (result.length === 1) return Number(result[0]!.value[1]);
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error(`Prometheus never had ${query}`);
  }

  it('scrapes with the token; its values equal status -o json; the down account is mon_up 0', async () => {
    expect(await value('up{job="mon"}')).toBe(1);
    expect(await value('mon_up{account="north"}')).toBe(1);
    expect(await value('mon_up{account="south"}')).toBe(0);
    const json = JSON.parse((await runMon(['-p', 'north', 'status', '-o', 'json'], { env })).stdout);
    expect(await value('sum(mon_computers{account="north"})')).toBe(json.computers.total);
    expect(await value('sum(mon_computers_missing{account="north"})')).toBe(json.computers.missing);
    expect(await value('sum(mon_plugin_results{account="north",status="Alert",muted="false"})')).toBe(
      json.plugin_results.alerts,
    );
    expect(await value('mon_expirations{account="north",window="expired"}')).toBe(json.expirations.expired);
    expect(await value('count(mon_computers{account="south"}) or vector(0)')).toBe(0);
  }, 90_000);
});
