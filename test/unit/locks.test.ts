import { spawn } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, BRIEF_LOCK, LockTrouble } from '../../src/config/files.js';
import { testClock } from '../helpers/clock.js';
import { tempConfigDir } from '../helpers/run-mon.js';

/**
 * A lock untouched past its bound is broken only when its holder is gone: on a busy machine a
 * holder that still runs may take longer than the bound, and breaking its lock lost a write
 * (eight `profile add` at once kept seven). Waits run on the test clock.
 */
async function processThat(ends: boolean): Promise<number> {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  if (ends) {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  } else {
    child.unref();
    process.once('exit', () => child.kill('SIGKILL'));
  }
  return child.pid!;
}

function oldLock(pid: number): string {
  const file = join(tempConfigDir(), 'config.json.lock');
  writeFileSync(file, String(pid));
  const then = new Date(Date.now() - 2 * BRIEF_LOCK.staleMs);
  utimesSync(file, then, then);
  return file;
}

describe('a lock past its bound', () => {
  it('whose holder has ended is broken and taken', async () => {
    const file = oldLock(await processThat(true));
    const lock = await acquireLock(file, { ...BRIEF_LOCK, signal: new AbortController().signal, clock: testClock() });
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it('whose holder still runs is left alone: the wait ends as busy, naming the holder', async () => {
    const pid = await processThat(false);
    const file = oldLock(pid);
    const failed = await acquireLock(file, {
      ...BRIEF_LOCK,
      signal: new AbortController().signal,
      clock: testClock(),
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(LockTrouble);
    expect(failed).toMatchObject({ holder: pid });
    expect(existsSync(file)).toBe(true);
    process.kill(pid, 'SIGKILL');
  });
});
