import { spawn, type ChildProcess } from 'node:child_process';
import { MON_BIN, tempConfigDir } from './run-mon.js';

/** `mon metrics serve` spawned for a test (test/e2e/metrics-serve.test.ts, prometheus.test.ts). */
export interface Exporter {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  ended: Promise<number | null>;
}

/** Starts `mon … metrics serve …` and resolves once it says where it listens. */
export function startExporter(args: readonly string[], env: Record<string, string>): Promise<Exporter> {
  const child = spawn(process.execPath, [MON_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: env.MON_CONFIG_DIR ?? tempConfigDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "Listening on" line: ${stderr}`));
    }, 20_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /Listening on (https?:\/\/[^/\s]+)/.exec(stderr)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, stderr: () => stderr, ended });
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`ended with ${code} before listening: ${stderr}`));
    });
  });
}

/** Polls `url` until `ok` says the answer is the one awaited (an event, not a duration). */
export async function until(
  url: string,
  init: RequestInit,
  ok: (status: number, body: string) => boolean,
): Promise<string> {
  for (let i = 0; i < 2000; i++) {
    const response = await fetch(url, init);
    const body = await response.text();
    if (ok(response.status, body)) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} never answered as awaited`);
}

/** The samples of a text exposition: `name{labels} value` lines. */
export function samplesOf(text: string): { name: string; labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-z_]+)(\{.*\})? (\S+)$/.exec(line)!;
      return { name: match[1]!, labels: match[2] ?? '', value: Number(match[3]) };
    });
}
