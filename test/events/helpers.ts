import { spawn, type ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { main } from '../../src/main.js';
import { MON_BIN, tempConfigDir } from '../helpers/run-mon.js';

/** Text that grows, and a way to wait until it holds what a test expects. */
class Growing {
  text = '';
  private waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];
  add(chunk: string): void {
    this.text += chunk;
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test(this.text)) return true;
      waiter.resolve();
      return false;
    });
  }
  until(test: (text: string) => boolean): Promise<void> {
    if (test(this.text)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
}

/** A listener that runs: where it listens, what it printed so far, and how it ended. */
export interface RunningListener {
  /** The URL it printed, `Listening on …`. */
  url: string;
  stdout: Growing;
  stderr: Growing;
  /** Resolves with the exit code once it ended. */
  ended: Promise<{ code: number | null; signal?: NodeJS.Signals | null }>;
  stop(signal: NodeJS.Signals): void;
}

const LISTENING = /^Listening on (\S+)$/m;

/** Resolves once `text` says where it listens, or rejects with all it said if it ended first. */
async function urlOf(stderr: Growing, ended: Promise<unknown>, stdout: Growing): Promise<string> {
  const found = stderr.until((text) => LISTENING.test(text)).then(() => 'listening' as const);
  if ((await Promise.race([found, ended.then(() => 'ended' as const)])) === 'ended' && !LISTENING.test(stderr.text)) {
    throw new Error(`the listener ended before listening:\n${stderr.text}${stdout.text}`);
  }
  return LISTENING.exec(stderr.text)![1]!;
}

/** `mon [BEFORE] events listen ARGS` through main() in this process (--listen 127.0.0.1:0 unless given). */
export async function listenInProcess(
  args: readonly string[],
  env: Record<string, string> = {},
  tty = false,
  before: readonly string[] = [],
): Promise<RunningListener> {
  const stdout = new Growing();
  const stderr = new Growing();
  const controller = new AbortController();
  const io = {
    stdout: { write: (chunk: string) => stdout.add(chunk), isTTY: tty },
    stderr: { write: (chunk: string) => stderr.add(chunk), isTTY: tty },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
  };
  const withPort = args.includes('--listen') ? args : [...args, '--listen', '127.0.0.1:0'];
  const ended = main([...before, 'events', 'listen', ...withPort], {
    io,
    env: { PATH: process.env.PATH, HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env },
    signal: controller.signal,
  }).then((code) => ({ code }));
  const url = await urlOf(stderr, ended, stdout);
  return { url, stdout, stderr, ended, stop: (signal) => controller.abort(signal) };
}

/** `mon events listen ARGS` as a process of its own (bin/mon). */
export async function listenProcess(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<RunningListener & { child: ChildProcess }> {
  const stdout = new Growing();
  const stderr = new Growing();
  const withPort = args.includes('--listen') ? args : [...args, '--listen', '127.0.0.1:0'];
  const child = spawn(process.execPath, [MON_BIN, 'events', 'listen', ...withPort], {
    env: { PATH: process.env.PATH ?? '', HOME: tempConfigDir(), MON_CONFIG_DIR: tempConfigDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => stdout.add(chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.add(chunk));
  // A hang fails the test instead of stalling it.
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal });
    }),
  );
  const url = await urlOf(stderr, ended, stdout);
  return { url, stdout, stderr, ended, child, stop: (signal) => child.kill(signal) };
}

/** One POST; resolves with the status and the answer's text. */
export async function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; text: string }> {
  const response = await request(url, { method: 'POST', body, headers });
  return { status: response.statusCode, text: await response.body.text() };
}

/**
 * Delivers as the service does: POSTs until it gets a 2xx, again after an error, a 5xx or a
 * dropped connection, to wherever `target()` says the receiver is now. Gives up (rejects) after
 * `attempts`.
 */
export async function deliver(target: () => string, body: string, attempts = 200): Promise<number> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const { status } = await post(target(), body);
      if (status >= 200 && status < 300) return attempt;
      lastError = new Error(`status ${status}`);
    } catch (error) {
      lastError = error;
    }
    // The service backs off between retries; a short pause keeps a dead receiver from being hammered.
    await new Promise((resolve) => setTimeout(resolve, Math.min(200, 10 * attempt)));
  }
  throw new Error(`not delivered after ${attempts} attempts: ${String(lastError)}`);
}

/** A plugin transition as the reference describes one (api-v2.5, Events), with names where a payload may carry them. */
export function pluginEvent(
  id: string | undefined,
  severity = 'alert',
  previous = 'ok',
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    ...(id === undefined ? {} : { event_id: id }),
    severity,
    previous_severity: previous,
    status_code: severity === 'alert' ? 2 : severity === 'warning' ? 1 : 0,
    previous_status: 0,
    new_status: severity === 'alert' ? 2 : 1,
    mute_type: null,
    is_hidden: false,
    computer: { client_id: 'WEB-01', name: 'web-01' },
    group: { name: 'Servers' },
    plugin_result: { name: 'Disk Usage' },
    ...extra,
  });
}

/** The ndjson lines printed so far, parsed. */
export function lines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
