import { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Clock } from '../../src/api/clock.js';
import { main } from '../../src/main.js';
import type { MonResult } from './run-mon.js';
import { tempConfigDir } from './run-mon.js';

/**
 * Runs a command line through main() in the test process, with buffers for stdout and stderr
 * and no terminal: the same path as bin/mon minus the process, for the many cases (usage
 * errors above all) where spawning node for each would only make the suite slow.
 */
export async function runMain(
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string; clock?: Clock } = {},
): Promise<Omit<MonResult, 'signal'>> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (chunk: string) => (stdout += chunk), isTTY: false },
    stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
    stdin: Object.assign(Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]), { isTTY: false }),
  };
  const code = await main(args, { io, env: { MON_CONFIG_DIR: tempConfigDir(), ...options.env }, clock: options.clock });
  return { code, stdout, stderr };
}

/**
 * Asserts a usage error as the contract wants it: exit 2, nothing on stdout, exactly one line
 * `mon: <message>` on stderr, and no request received by the server.
 */
export function expectRefusedBeforeSending(result: { code: number | null; stdout: string; stderr: string }, message: string, requests: readonly unknown[]): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(`mon: ${message}\n`);
  expect(requests).toEqual([]);
}
