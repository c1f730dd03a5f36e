import { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { main } from '../../src/main.js';
import type { MonResult, RunOptions } from './run-mon.js';
import { tempConfigDir } from './run-mon.js';

/**
 * Runs a command line through main() in the test process, with buffers for stdout and stderr
 * and no terminal: the same path as bin/mon minus the process, and a drop-in for runMon (same
 * options, same environment, the same result but for the signal) wherever the process itself is not what is tested.
 * Spawning node for each case would only make the suite slow; what only a real process shows
 * (signals, exit status, stdout flushing, a terminal, the saved root help and --version, the
 * time zone) stays with runMon. A test clock makes waits instant; `now` is the time commands
 * see (today, 24h ago).
 */
export async function runMain(
  args: readonly string[],
  options: RunOptions & { clock?: Clock; now?: () => number } = {},
): Promise<Omit<MonResult, 'signal'>> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (chunk: string) => (stdout += chunk), isTTY: false },
    stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
    stdin: Object.assign(Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]), {
      isTTY: false,
    }),
  };
  // As runMon: a clean environment with a fresh HOME and config folder, plus what the test passes.
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: tempConfigDir(),
    MON_CONFIG_DIR: tempConfigDir(),
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const code = await main(args, { io, env, clock: options.clock, ...(options.now && { now: options.now }) });
  return { code, stdout, stderr };
}

/**
 * Asserts a usage error as the contract wants it: exit 2, nothing on stdout, exactly one line
 * `mon: <message> — <hint>` on stderr (the hint says what to type next), and no request
 * received by the server.
 */
export function expectRefusedBeforeSending(
  result: { code: number | null; stdout: string; stderr: string },
  message: string,
  requests: readonly unknown[],
): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^mon: [^\n]+ — [^\n]+\n$/);
  // The message may carry its own hint after a dash; otherwise one follows it.
  const line = result.stderr.slice(0, -1);
  if (line !== `mon: ${message}`) expect(line.slice(0, `mon: ${message} — `.length)).toBe(`mon: ${message} — `);
  expect(requests).toEqual([]);
}
