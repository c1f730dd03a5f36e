import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bound } from './slow.js';

export const MON_BIN = fileURLToPath(new URL('../../bin/mon', import.meta.url));

export interface MonResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed. Without it stdin is closed at once (like cron). */
  input?: string;
  timeoutMs?: number;
  /**
   * Run as this user and group (the test runs as root: a user whom permissions bind). That run
   * starts a copy of bin/ and dist/ in a folder anyone may read, as the checkout may sit in one
   * only its owner can enter (a clone in a `mktemp -d` folder).
   */
  uid?: number;
  gid?: number;
  /** The folder mon runs in (this process's own unless given). */
  cwd?: string;
}

/** The folders tempDir() made and nobody removed yet. */
const made: string[] = [];
/** bin/mon in a copy anyone may read (readableCopy), in one of them. */
let copy: string | undefined;

/** A fresh, empty folder in the temporary folder, removed once the test file is done. */
export function tempDir(prefix = 'mon-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh, empty config folder, so no test ever touches the real home. */
export function tempConfigDir(): string {
  return tempDir();
}

/** Removes every folder tempDir() made: after each test file (test/helpers/cleanup.ts), so that runs leave none behind. */
export function removeTempConfigDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  copy = undefined;
}

/** bin/mon of a copy of bin/, dist/ and package.json that every user may read (made once). */
function readableCopy(): string {
  if (copy === undefined) {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const dir = tempConfigDir();
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(root, part), join(dir, part), { recursive: true });
    chmodSync(dir, 0o755);
    copy = join(dir, 'bin', 'mon');
  }
  return copy;
}

/**
 * Spawns bin/mon exactly as a shell script would, with a clean environment: only PATH, HOME
 * and what the test passes (MON_* from the developer's shell must not leak in).
 */
export function runMon(args: readonly string[], options: RunOptions = {}): Promise<MonResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: tempConfigDir(),
    MON_CONFIG_DIR: tempConfigDir(),
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return new Promise((resolve, reject) => {
    const bin = options.uid === undefined ? MON_BIN : readableCopy();
    const child = spawn(process.execPath, [bin, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      uid: options.uid,
      gid: options.gid,
      cwd: options.cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), bound(Math.max(options.timeoutMs ?? 30_000, 30_000)));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A signal to send to a spawned mon once `when` holds (checked on each output chunk and every 10 ms). */
export interface SignalStep {
  signal: NodeJS.Signals;
  /** Whether to send it now: what the process printed so far, and its id (see {@link delivered}). */
  when: (stdout: string, pid: number) => boolean;
}

/**
 * Whether every `signal` sent to process `pid` has been delivered to it (none pending in
 * /proc/PID/status): a second signal sent after that is seen as a second one, never merged
 * with the first, however busy the machine. Needs Linux's /proc.
 */
export function delivered(pid: number, signal: NodeJS.Signals): boolean {
  const bit = 1n << BigInt(osConstants.signals[signal] - 1);
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return false; // gone: there is nobody to send another signal to
  }
  return ['SigPnd', 'ShdPnd'].every(
    (field) => (BigInt(`0x${new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status)![1]}`) & bit) === 0n,
  );
}

/**
 * Spawns bin/mon as {@link runMon} does (stdin closed) and sends it `steps` in turn, each once
 * its condition holds; resolves with how it ended and when each signal went (Date.now()).
 * Killed after `timeoutMs`, so a hang fails the test instead of stalling it.
 */
export function signalMon(
  args: readonly string[],
  env: Record<string, string>,
  steps: readonly SignalStep[],
  timeoutMs = 30_000,
): Promise<MonResult & { sentAt: number[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MON_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const sentAt: number[] = [];
    const check = () => {
      const step = steps[sentAt.length];
      if (step?.when(stdout, child.pid!)) {
        sentAt.push(Date.now());
        child.kill(step.signal);
      }
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      check();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const poll = setInterval(check, 10);
    const killer = setTimeout(() => child.kill('SIGKILL'), bound(timeoutMs));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, sentAt });
    });
  });
}
