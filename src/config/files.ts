import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import { type Clock, sleep } from '../clock.js';
import { removeStaleTemps } from './trust.js';

/**
 * The two ways mon writes a file of its own folder that other mon processes also use (the rate
 * ledger, the saved --changes states): an exclusive lock file, and a replace by temporary file
 * and rename, so that a reader never sees half a file whatever kills the writer.
 */

/** The lock cannot be had: another process holds it past the wait, or something else is in its place. */
export class LockTrouble extends Error {
  constructor(
    message: string,
    /** `busy`: a live holder kept it past the wait; `broken`: not a file, or it cannot be removed. */
    readonly reason: 'busy' | 'broken',
    /** The holder's process id as its lock file says, when readable. */
    readonly holder?: number,
  ) {
    super(message);
  }
}

export interface LockOptions {
  /** A lock whose file has not been touched for this long was left by a process that died. */
  staleMs: number;
  /** The longest wait for a lock that is held. */
  maxWaitMs: number;
  signal: AbortSignal;
  /**
   * For a lock held longer than `staleMs` (a whole listing): its file's time is renewed this
   * often while held, so that it never looks abandoned. Without it, the holder must finish
   * well within `staleMs` (the rate ledger holds its lock for milliseconds).
   */
  heartbeatMs?: number;
  /** Says when a stale lock is broken (--verbose). */
  log?: (line: string) => void;
  /**
   * What the wait is measured and slept in: the system's clock unless a test moves it. Whether
   * a lock is stale is read from its file's time, which is always real.
   */
  clock?: Clock;
}

/**
 * The two ways a lock is held, and so its timings, for every lock mon takes. A brief lock is
 * held for the milliseconds of one read and write (the rate ledger, a sandbox change): one
 * untouched for 5 s whose holder no longer runs was left by a process that died, and a wait of
 * 10 s without the lock changing hands means it is not being taken in turns. A long lock is held through a whole listing (--changes): its file is renewed
 * every second, so one untouched for 10 s was left behind; how long to wait is the caller's.
 */
export const BRIEF_LOCK = { staleMs: 5_000, maxWaitMs: 10_000 } as const;
export const LONG_LOCK = { staleMs: 10_000, heartbeatMs: 1_000 } as const;

/** A lock held: release() removes it (once). */
export interface HeldLock {
  release(): void;
}

/**
 * Takes `<lockFile>` exclusively (created with O_EXCL, holding the process id), waiting in short
 * steps while another process holds it. A lock older than `staleMs`, or dated in the future (a
 * clock set back: it would never grow old), is broken: lock files carry real times (their
 * mtime). The folder is made, one level only, when missing.
 */
export async function acquireLock(lockFile: string, options: LockOptions): Promise<HeldLock> {
  // The system's time by default, without importing src/api: the sandbox takes this lock too.
  const clock: Clock = options.clock ?? { now: Date.now, sleep };
  // The wait is measured from the last time the lock changed hands: a queue of live holders
  // taking it in turns on a busy machine is not one holder keeping it.
  let started = clock.now();
  let lastHolder: number | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      try {
        writeFileSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      return held(lockFile, options.heartbeatMs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // One level only: the config folder exists (trust.ts made it), and Node's recursive
        // mkdir spins for ever where a folder cannot be made (under /proc).
        mkdirSync(dirname(lockFile), { mode: 0o700 });
        continue;
      }
      if (code !== 'EEXIST') throw error;
    }
    breakIfStale(lockFile, options);
    const holder = holderOf(lockFile);
    if (holder !== undefined && holder !== lastHolder) {
      lastHolder = holder;
      started = clock.now();
    }
    if (options.signal.aborted) throw options.signal.reason;
    if (clock.now() - started > options.maxWaitMs) {
      throw new LockTrouble(
        `the lock ${lockFile} was not free within ${Math.round(options.maxWaitMs / 1000)} s`,
        'busy',
        holder,
      );
    }
    // The holder keeps it for milliseconds (the ledger) or a listing (--changes): short steps
    // first, then at most 50 ms apart.
    try {
      await clock.sleep(Math.min(50, 2 + attempt) + Math.floor(Math.random() * 5), options.signal);
    } catch {
      throw options.signal.reason;
    }
  }
}

function held(lockFile: string, heartbeatMs: number | undefined): HeldLock {
  let released = false;
  const timer =
    heartbeatMs === undefined
      ? undefined
      : setInterval(() => {
          try {
            const now = new Date();
            utimesSync(lockFile, now, now);
          } catch {
            // gone or not ours any more: the next write finds out
          }
        }, heartbeatMs);
  timer?.unref();
  return {
    release() {
      if (released) return;
      released = true;
      if (timer) clearInterval(timer);
      removeFile(lockFile);
    },
  };
}

/**
 * Removes a file that may be gone already. unlink rather than rm: Node 20 and 22 implement
 * rmSync in a module of their own (rimraf), loaded at the first call, and a lock is released at
 * every request.
 */
function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The process id written into a lock, or undefined. */
/** How many times staleMs a lock whose holder still runs is left alone. */
const STALE_EVEN_IF_ALIVE = 12;

/** Whether the process the lock file names still runs on this machine. */
function holderRuns(lockFile: string): boolean {
  const pid = holderOf(lockFile);
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes a lock left by a process that ended (untouched for `staleMs`) or dated in the future.
 * Something else in its place (a folder) cannot be broken: LockTrouble.
 */
function breakIfStale(lockFile: string, options: LockOptions): void {
  let age: number;
  try {
    const stats = lstatSync(lockFile);
    if (!stats.isFile()) throw new LockTrouble(`the lock ${lockFile} is not a file`, 'broken');
    age = Date.now() - stats.mtimeMs;
  } catch (error) {
    if (error instanceof LockTrouble) throw error;
    return; // gone meanwhile: the next attempt takes it
  }
  // A second of grace for clocks of processes that read it a moment apart.
  const future = age < -1_000;
  if (age <= options.staleMs && !future) return;
  // A holder that still runs is slow (a busy machine), not gone: its lock stands, up to twelve
  // times the bound (a process id reused by another program, or a holder on another host).
  if (!future && age <= STALE_EVEN_IF_ALIVE * options.staleMs && holderRuns(lockFile)) return;
  try {
    removeFile(lockFile);
  } catch (error) {
    throw new LockTrouble(
      `the lock ${lockFile} could not be removed (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'broken',
    );
  }
  options.log?.(
    `broke the lock ${lockFile}, ${future ? `dated ${Math.round(-age / 1000)} s in the future (was the clock set back?)` : `left ${Math.round(age / 1000)} s ago by a process that ended`}`,
  );
}

/** The temporaries {@link writeFileAtomic} makes beside `file`: `<name>.<pid>.<stamp>.tmp`. */
export function isTempOf(file: string): RegExp {
  return new RegExp(`^${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+\\.\\w+\\.tmp$`);
}

/**
 * Replaces `file` with `text`, mode 0600: written to a temporary file beside it, then renamed
 * over it, so a process killed at any moment leaves the old file or the new one, never half
 * of one. `durable` also flushes the temporary to disk before the rename (fsync), so that a
 * power cut cannot leave an empty file under the new name; the rate ledger, rewritten at every
 * request and holding only a minute, does without. Temporaries a killed writer left are
 * removed first (call it under the file's lock, so none of them is being written).
 */
export function writeFileAtomic(file: string, text: string, options: { durable?: boolean; mode?: number } = {}): void {
  removeStaleTemps(file, isTempOf(file));
  // Unique enough: the process id, and the caller's lock keeps this process's writes one at a time.
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    // 0600 for the config folder's files; what the user hands on (a report) passes 0o666,
    // which the umask then narrows as for any file the user makes.
    const fd = openSync(tmp, 'w', options.mode ?? 0o600);
    try {
      writeFileSync(fd, text);
      if (options.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    removeFile(tmp);
    throw error;
  }
}
