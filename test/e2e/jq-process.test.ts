// --jq as a process: a filter that never ends is stopped by a signal or MON_DEADLINE, its memory
// is bounded, and its results reach a pipe as jq yields them (issue 24, items 1 and 8).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { MON_BIN, runMon, tempConfigDir } from '../helpers/run-mon.js';

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the signal (or the start, without one) to the exit, in ms: only ever bounded from above. */
  ms: number;
}

/**
 * Spawns bin/mon with `--verbose` and calls `act` on each output until it returns a signal to
 * send; the process is killed outright after 20 s, so a hang fails the test instead of stalling it.
 */
function spawnMon(args: readonly string[], env: Record<string, string>, act: (out: { stdout: string; stderr: string }) => NodeJS.Signals | undefined): Promise<Spawned> {
  const child = spawn(process.execPath, [MON_BIN, '--verbose', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  let start = Date.now();
  let sent = false;
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const check = () => {
    const signal = sent ? undefined : act(out);
    if (!signal) return;
    sent = true;
    start = Date.now();
    child.kill(signal);
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    // Only the start of a never-ending output is kept.
    if (out.stdout.length < 1000) out.stdout += chunk;
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    out.stderr += chunk;
    check();
  });
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, ...out, ms: Date.now() - start });
    }),
  );
}

/** The groups were received (--verbose says so on stderr): the filter is running now. */
const answered = (out: { stderr: string }) => / 200 \(\d+ ms\)/.test(out.stderr);

describe('--jq in a process', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    env = { MON_BASE_URL: sandbox.url, MON_API_KEY: sandbox.apiKey };
  });
  afterAll(() => sandbox.close());

  it.each([
    ['repeat(1)', 'SIGINT', 130],
    ['def f: f; f', 'SIGINT', 130],
    ['last(range(infinite))', 'SIGTERM', 143],
    ['repeat(1)', 'SIGTERM', 143],
  ] as const)('a filter that never ends (%s) is ended by %s: exit %i within a few seconds', async (filter, signal, code) => {
    const result = await spawnMon(['groups', 'list', '--jq', filter], env, (out) => (answered(out) ? signal : undefined));
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(new RegExp(`\\nmon: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}\\n$`));
    expect(result.ms).toBeLessThan(5000);
  });

  it('MON_DEADLINE ends a filter that never ends: exit 8, saying so', async () => {
    const result = await runMon(['groups', 'list', '--jq', 'last(range(infinite))'], { env: { ...env, MON_DEADLINE: '1' }, timeoutMs: 20_000 });
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('mon: the command did not finish within its deadline of 1 s — raise MON_DEADLINE (seconds) if it needs longer\n');
  });

  it('a filter that exhausts jq’s memory ends with exit 1 and says so', async () => {
    // A string that doubles until jq cannot hold it (256 MB).
    const result = await runMon(['groups', 'list', '--jq', '"x" | until(false; . + .)'], { env, timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^mon: --jq: the filter ran out of memory \(jq's limit is 256 MB\) — [^\n]+\n$/);
  });

  it('results reach the pipe as jq yields them: the first lines of `range(infinite)` arrive', async () => {
    const result = await spawnMon(['groups', 'list', '--jq', 'range(infinite)'], env, (out) => (out.stdout.split('\n').length > 100 ? 'SIGTERM' : undefined));
    expect(result.code).toBe(143);
    expect(result.stdout.split('\n').slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => String(i)));
  });

  it('with -o ndjson, the first item’s results arrive while the filter still runs over it', async () => {
    const result = await spawnMon(['groups', 'list', '-o', 'ndjson', '--jq', '.name, (1 | repeat(.))'], env, (out) => (out.stdout.includes('\n1\n') ? 'SIGINT' : undefined));
    expect(result.code).toBe(130);
    expect(result.stdout).toMatch(/^[^\n]+\n1\n/);
  });
});
