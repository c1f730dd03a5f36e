/**
 * A living sandbox seen through mon (#43): `status --check` and `--changes` see transitions the
 * sandbox made (in this process, and as processes against `mon sandbox serve --live`), `mon
 * sandbox trigger` reaches the sandbox MON_BASE_URL names or the one serving the config folder's
 * data, and `serve --live` says what it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { Clock } from '../sandbox/helpers.js';
import { runMain } from '../helpers/run-main.js';
import { MON_BIN, runMon, tempConfigDir } from '../helpers/run-mon.js';

const open: RunningSandbox[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGINT');
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function liveSandbox(): Promise<{
  sandbox: RunningSandbox;
  mon: (...args: string[]) => ReturnType<typeof runMain>;
}> {
  const sandbox = await startSandbox({ port: 0, now: new Clock().now, live: { speed: 60 } });
  open.push(sandbox);
  const dir = tempConfigDir();
  const mon = (...args: string[]) =>
    runMain(args, { env: { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey, MON_CONFIG_DIR: dir } });
  return { sandbox, mon };
}

describe('a living sandbox through mon', () => {
  it('status --check goes CRITICAL when the sandbox turns a result Alert', async () => {
    const { mon } = await liveSandbox();
    const check = [
      'status',
      '--check',
      '--critical-alerts',
      '2',
      '--warning-warnings',
      '100',
      '--warning-missing',
      '100',
    ];
    const before = await mon(...check);
    expect(before).toMatchObject({ code: 0, stdout: expect.stringMatching(/^MON OK - 2 alerts/) });
    const forced = await mon('sandbox', 'trigger', 'alert');
    expect(forced).toMatchObject({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}\S+ {2}[^:]+: OK -> Alert\n$/),
    });
    const after = await mon(...check);
    expect(after).toMatchObject({ code: 2, stdout: expect.stringMatching(/^MON CRITICAL - 3 alerts/) });
  });

  it('--changes sees the computers the simulation made missing, after trigger tick', async () => {
    const { sandbox, mon } = await liveSandbox();
    const base = await mon('computers', 'list', '--status', 'missing', '--changes', 'missing');
    expect(base).toMatchObject({ code: 0, stdout: '', stderr: "recorded 3 computers as the baseline of 'missing'\n" });
    const ticked = await mon('sandbox', 'trigger', 'tick', '20d');
    expect(ticked.code).toBe(0);
    expect(ticked.stdout).toMatch(/^simulated clock now \d{4}-\d\d-\d\d \d\d:\d\d UTC; \d+ changes of state\n/);
    // what the API lists as missing now, read directly
    const res = await fetch(`${sandbox.url}/v2.5/computers?status=missing&per_page=100&api_key=${sandbox.apiKey}`);
    const missingNow = ((await res.json()) as { client_id: string }[]).map((c) => c.client_id);
    expect(missingNow.length).toBeGreaterThan(3);
    const changes = await mon('computers', 'list', '--status', 'missing', '--changes', 'missing', '-o', 'json');
    expect(changes.code).toBe(0);
    const listed = JSON.parse(changes.stdout) as { change: string; client_id?: string; item?: { client_id: string } }[];
    const fresh = listed.filter((c) => c.change === 'new').map((c) => c.client_id ?? c.item?.client_id);
    expect(fresh.length).toBeGreaterThan(0);
    for (const id of fresh) expect(missingNow).toContain(id);
  });

  it('trigger refuses what it cannot do: tick on a still sandbox, a bad duration, no sandbox serving', async () => {
    const still = await startSandbox({ port: 0 });
    open.push(still);
    const env = { MON_BASE_URL: still.url, MON_API_KEY: still.apiKey };
    expect(await runMain(['sandbox', 'trigger', 'tick', '1d'], { env })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mon: this sandbox is not live: start it with `mon sandbox serve --live`.*\n$/),
    });
    const bad = await runMain(['sandbox', 'trigger', 'tick', '5x'], { env });
    expect(bad).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        "mon: tick: give how far the clock jumps, a duration from 1s to 366d (90m, 6h, 3d), not '5x' — mon sandbox trigger tick 1d\n",
    });
    expect(still.requests.filter((r) => r.path.startsWith('/_sandbox/'))).toHaveLength(1);
    const none = await runMain(['sandbox', 'trigger', 'test']);
    expect(none).toMatchObject({
      code: 2,
      stderr:
        "mon: no sandbox serves this config folder's data — start one with `mon sandbox serve` (in another terminal), or set MON_BASE_URL to the one to use\n",
    });
  });
});

describe('mon sandbox serve --live as a process', () => {
  it('prints the living fleet line; trigger finds it through the config folder; stopping removes its address', async () => {
    const dir = tempConfigDir();
    const child = spawn(process.execPath, [MON_BIN, 'sandbox', 'serve', '--live', '--speed', '3600', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, MON_CONFIG_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const banner = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('export MON_API_KEY=')) resolve(out);
      });
      child.on('exit', (code) => reject(new Error(`mon sandbox exited with ${code}`)));
    });
    expect(banner).toContain(
      '# living fleet: simulated time runs 3600× (1 hour a second) from now, seed 1; kept in memory',
    );
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
    const env = { MON_CONFIG_DIR: dir, HOME: dir };
    const tick = await runMon(['sandbox', 'trigger', 'tick', '2d'], { env });
    expect(tick).toMatchObject({ code: 0, stdout: expect.stringMatching(/^simulated clock now /) });
    const test = await runMon(['sandbox', 'trigger', 'test'], { env });
    expect(test).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^test delivery svc_test_[0-9a-f]{16}\nno webhook address/),
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
    expect(existsSync(join(dir, 'sandbox.json.serving'))).toBe(false);
    expect(await runMon(['sandbox', 'trigger', 'test'], { env })).toMatchObject({ code: 2 });
  });

  it('status --check and --changes, run as processes, see what `mon sandbox trigger` made the served fleet do', async () => {
    const dir = tempConfigDir();
    const child = spawn(process.execPath, [MON_BIN, 'sandbox', 'serve', '--live', '--speed', '1', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, MON_CONFIG_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const banner = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (/^export MON_API_KEY=.*\n/m.test(out)) resolve(out);
      });
      child.on('exit', (code) => reject(new Error(`mon sandbox exited with ${code}`)));
    });
    // Its export lines, as a user pastes them; the client keeps its own config folder (the baseline).
    const env = {
      MON_BASE_URL: /^export MON_BASE_URL=(\S+)$/m.exec(banner)![1]!,
      MON_API_KEY: /^export MON_API_KEY=(\S+)$/m.exec(banner)![1]!,
      MON_CONFIG_DIR: tempConfigDir(),
    };
    const check = [
      'status',
      '--check',
      '--critical-alerts',
      '2',
      '--warning-warnings',
      '100',
      '--warning-missing',
      '100',
    ];
    expect(await runMon(check, { env })).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^MON OK - 2 alerts/),
    });
    expect(await runMon(['computers', 'list', '--status', 'missing', '--changes', 'missing'], { env })).toMatchObject({
      code: 0,
      stderr: "recorded 3 computers as the baseline of 'missing'\n",
    });

    const alert = await runMon(['sandbox', 'trigger', 'alert'], { env });
    expect(alert).toMatchObject({ code: 0, stdout: expect.stringMatching(/: OK -> Alert\n$/) });
    expect(await runMon(check, { env })).toMatchObject({
      code: 2,
      stdout: expect.stringMatching(/^MON CRITICAL - 3 alerts/),
    });

    const missing = await runMon(['sandbox', 'trigger', 'missing'], { env });
    expect(missing.code).toBe(0);
    const clientId = /^(\S+) stopped reporting/.exec(missing.stdout)![1]!;
    const changes = await runMon(['computers', 'list', '--status', 'missing', '--changes', 'missing', '-o', 'json'], {
      env,
    });
    expect(changes.code).toBe(0);
    const listed = JSON.parse(changes.stdout) as { change: string; client_id?: string; item?: { client_id: string } }[];
    expect(listed.filter((c) => c.change === 'new').map((c) => c.client_id ?? c.item?.client_id)).toEqual([clientId]);
  });

  it('--speed without --live is refused, exit 2', async () => {
    expect(await runMain(['sandbox', 'serve', '--speed', '60'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mon: --speed: sets how fast a living fleet moves, so it goes with --live — add --live, or leave out --speed\n',
    });
  });
});
