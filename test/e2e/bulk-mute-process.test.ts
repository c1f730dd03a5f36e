import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { MON_BIN, runMon, tempConfigDir } from '../helpers/run-mon.js';
import { readAll } from '../helpers/sandbox-http.js';
import { onTerminal } from '../helpers/terminal.js';

/**
 * What only a real process shows about `plugin mute` with selectors: Ctrl-C in the middle and a
 * second run that finishes the work, and the question and the meter on a terminal.
 */

type Item = Record<string, unknown>;

describe('plugin mute with selectors, as a process', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  /** The uids PUT to, in order. */
  const puts = () => sandbox.requests.filter((r) => r.method === 'PUT').map((r) => r.path.replace('/v2.5/plugin_results/', ''));
  const unmutedOk = async () => {
    const computers = await readAll(sandbox, '/v2.5/computers?expand[]=plugin_results');
    return computers
      .flatMap((c) => c.plugin_results as Item[])
      .filter((r) => r.status === 'OK' && r.muted !== true && r.visible !== false)
      .map((r) => String(r.uid))
      .sort();
  };

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  afterEach(() => sandbox.close());

  it('Ctrl-C stops sending, says how many were muted, exits 130; the same command again mutes only the rest, none twice', async () => {
    const want = await unmutedOk();
    expect(want.length).toBeGreaterThan(40);
    const args = ['plugin', 'mute', '--status', 'OK', '--timed', '2h', '--yes', '-o', 'ndjson'];
    // 10 requests a second: the run takes seconds, so the signal lands while it sends.
    const first = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [MON_BIN, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env, MON_RATE_LIMIT: '10/1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const watch = setInterval(() => {
        if (puts().length >= 15) {
          clearInterval(watch);
          child.kill('SIGINT');
        }
      }, 20);
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearInterval(watch);
        clearTimeout(killer);
        resolve({ code, stdout, stderr });
      });
    });
    expect(first.code).toBe(130);
    const sentFirst = puts();
    expect(sentFirst.length).toBeLessThan(want.length);
    const lines = first.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^mute ${want.length} plugin results on \\d+ computers in \\d+ groups for 2h \\(until .+\\)`));
    const done = /^mon: (\d+) of (\d+) muted; run the same command again to finish$/.exec(lines.at(-1)!);
    expect(done).not.toBeNull();
    expect(Number(done![2])).toBe(want.length);
    // What it counts is what it printed, each a whole row; requests cut off in flight are not counted.
    const rows = first.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Item);
    expect(rows).toHaveLength(Number(done![1]));
    expect(rows.every((row) => row.outcome === 'muted')).toBe(true);
    expect(Number(done![1])).toBeLessThanOrEqual(sentFirst.length);
    expect(Number(done![1])).toBeGreaterThanOrEqual(sentFirst.length - 4);

    sandbox.requests.length = 0;
    const second = await runMon(args, { env });
    expect(second.code).toBe(0);
    const sentSecond = puts();
    // Together every selected result exactly once: the second run found only what was left.
    expect([...sentFirst, ...sentSecond].sort()).toEqual(want);
    // In a pipe, stderr has the plan and the summary only: no progress.
    const already = sentFirst.length;
    expect(second.stderr).toBe(
      `${second.stderr.split('\n')[0]}\nmuted ${sentSecond.length} plugin results\n`,
    );
    expect(second.stderr.split('\n')[0]).toMatch(new RegExp(`^mute ${sentSecond.length} plugin results .*; ${already} more are muted already$`));
    expect(await unmutedOk()).toEqual([]);
  }, 30_000);

  it('on a terminal: the plan, a y/N question, a meter with done/total, rate and time left; N sends nothing', async () => {
    const uids = (await unmutedOk()).slice(0, 12);
    const file = join(tempConfigDir(), 'uids.txt');
    writeFileSync(file, `${uids.join('\n')}\n`);
    sandbox.requests.length = 0;
    const declined = await onTerminal(['plugin', 'mute', '--from', file, '--ignore'], env, 'n\r');
    expect(declined.code).toBe(2);
    expect(declined.screen).toContain('mute 12 plugin results on');
    expect(declined.screen).toContain('Mute these 12 plugin results? [y/N]');
    expect(declined.screen).toContain('mon: nothing muted: not confirmed');
    expect(puts()).toEqual([]);

    // 4 requests a second: long enough for the meter, which shows after a second.
    const accepted = await onTerminal(['plugin', 'mute', '--from', file, '--ignore'], { ...env, MON_RATE_LIMIT: '4/1' }, 'y\r');
    expect(accepted.code).toBe(0);
    expect(puts().sort()).toEqual(uids);
    expect(accepted.screen).toMatch(/muting \[[#-]{20}\] \d+\/12 {2}\d+\.\d\/s {2}(\d+:\d\d left|time left unknown)/);
    expect(accepted.screen).toContain('muted 12 plugin results');
  }, 30_000);
});
