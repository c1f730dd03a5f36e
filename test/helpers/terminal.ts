import { spawn } from 'node:child_process';
import { MON_BIN, tempConfigDir } from './run-mon.js';
import { bound } from './slow.js';

/**
 * Runs bin/mon on a pseudo-terminal (`script`), as a person at a shell would, and types
 * `answer` once `prompt` (a `[y/N]` question by default) shows: a line ended by '\r', or a key
 * alone ('\x03' is Ctrl-C, '\x04' Ctrl-D). Asynchronous, so a sandbox started in the test
 * process keeps answering while mon runs.
 */
export function onTerminal(
  args: readonly string[],
  env: Record<string, string>,
  answer: string,
  prompt = '[y/N]',
): Promise<{ code: number | null; screen: string }> {
  const dir = tempConfigDir();
  const child = spawn('script', ['-qec', [process.execPath, MON_BIN, ...args].join(' '), '/dev/null'], {
    env: { PATH: process.env.PATH, HOME: dir, MON_CONFIG_DIR: dir, TERM: 'dumb', ...env },
  });
  let screen = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    if (!answered && screen.includes(prompt)) {
      answered = true;
      child.stdin.write(answer);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), bound(30_000));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}
