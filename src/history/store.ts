/**
 * Where mon keeps the daily snapshots of each account (`mon history`): one file per account and
 * UTC day, `<config folder>/history/<account>/<YYYY-MM-DD>.json`, mode 0600, in folders 0700.
 * A file is replaced whole (temporary file, fsync, rename), so a process killed at any moment
 * leaves the day's old snapshot or its new one, never part of one; the last read of a day wins.
 * At most HISTORY_DAYS files are kept per account: the oldest go when a new day is written.
 * The folder is named by the account's key (a profile name or `@host`), never an API key.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/files.js';
import { checkConfigFile, checkPrivateFolder, ensureConfigDir, removeStaleTemps } from '../config/trust.js';
import type { Account } from '../context.js';
import { isSnapshot, type Snapshot } from './snapshot.js';

/** About two years of days. */
export const HISTORY_DAYS = 731;

/** The largest snapshot file read: one names at most MAX_ALERTING results, a few MB at most. */
const MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024;

const DAY_FILE = /^(\d{4}-\d\d-\d\d)\.json$/;

/** MON_HISTORY=0 (or off, false, no): reads leave nothing behind. */
export function historyEnabled(env: Record<string, string | undefined>): boolean {
  const value = env.MON_HISTORY?.trim().toLowerCase();
  return !(value === '0' || value === 'off' || value === 'false' || value === 'no');
}

/** The folder of all accounts' history. */
export const historyRoot = (configDir: string): string => join(configDir, 'history');

/** One account's folder; made (0700) when `create`. */
export function accountFolder(configDir: string, accountKey: string, options: { create?: boolean } = {}): string {
  const root = historyRoot(configDir);
  const folder = join(root, accountKey);
  if (options.create) {
    ensureConfigDir(configDir);
    checkPrivateFolder(root, 'history folder', { create: true });
    checkPrivateFolder(folder, 'history folder', { create: true });
  }
  return folder;
}

/** The days kept for an account, oldest first. */
export function daysKept(configDir: string, accountKey: string): string[] {
  const folder = accountFolder(configDir, accountKey);
  if (!checkPrivateFolder(historyRoot(configDir), 'history folder') || !checkPrivateFolder(folder, 'history folder'))
    return [];
  return readdirSync(folder)
    .map((name) => DAY_FILE.exec(name)?.[1])
    .filter((day): day is string => day !== undefined)
    .sort();
}

/** One day's snapshot, or undefined when there is none or it cannot be read. */
function readDay(folder: string, day: string): Snapshot | undefined {
  const file = join(folder, `${day}.json`);
  try {
    if (!checkConfigFile(file, undefined, { what: 'snapshot', maxBytes: MAX_SNAPSHOT_BYTES })) return undefined;
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isSnapshot(parsed) && parsed.day === day ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records the day's snapshot of an account: replaces that day's file whole, then drops the
 * oldest days past HISTORY_DAYS. A snapshot without expirations (a read that did not list them)
 * keeps those of the day's earlier snapshot. Called after a whole read succeeded; nothing is
 * written when MON_HISTORY=0 (the caller checks historyEnabled).
 */
export function recordSnapshot(configDir: string, account: Account, snapshot: Snapshot): string {
  const folder = accountFolder(configDir, account.key, { create: true });
  const file = join(folder, `${snapshot.day}.json`);
  let kept = snapshot;
  if (snapshot.expirations === null) {
    const earlier = readDay(folder, snapshot.day);
    if (earlier?.expirations) kept = { ...snapshot, expirations: earlier.expirations };
  }
  writeFileAtomic(file, `${JSON.stringify(kept)}\n`, { durable: true });
  // Temporaries of other days left by a writer that was killed (writeFileAtomic tidies its own file's).
  removeStaleTemps(join(folder, '.'), { test: (name) => /\.json\.\d+\.\w+\.tmp$/.test(name) });
  const days = daysKept(configDir, account.key);
  for (const day of days.slice(0, Math.max(0, days.length - HISTORY_DAYS)))
    rmSync(join(folder, `${day}.json`), { force: true });
  return file;
}

/**
 * The snapshots of an account from `fromDay` to `toDay` (inclusive, YYYY-MM-DD), oldest first;
 * damaged days are skipped and counted. `alertingAtEndsOnly`: the days between the first and
 * the last drop their alerting results as they are read (a month of a large account's sets).
 */
export function readHistory(
  configDir: string,
  accountKey: string,
  range: { fromDay?: string; toDay?: string; alertingAtEndsOnly?: boolean } = {},
): { snapshots: Snapshot[]; damaged: string[] } {
  const folder = accountFolder(configDir, accountKey);
  const snapshots: Snapshot[] = [];
  const damaged: string[] = [];
  for (const day of daysKept(configDir, accountKey)) {
    if ((range.fromDay !== undefined && day < range.fromDay) || (range.toDay !== undefined && day > range.toDay))
      continue;
    const snapshot = readDay(folder, day);
    if (!snapshot) {
      damaged.push(day);
      continue;
    }
    // A report compares only the first and last day's results: the days between keep their counts alone.
    if (range.alertingAtEndsOnly && snapshots.length > 1) snapshots.at(-1)!.alerting = [];
    snapshots.push(snapshot);
  }
  return { snapshots, damaged };
}

/**
 * When the newest snapshot kept for an account was taken (ms since the epoch): the start of the
 * last whole read that succeeded and was recorded, as the last day's file holds the day's last
 * read. Undefined with no readable snapshot (a damaged newest day gives way to the one before).
 */
export function lastTaken(configDir: string, accountKey: string): number | undefined {
  const folder = accountFolder(configDir, accountKey);
  let days: string[];
  try {
    days = daysKept(configDir, accountKey);
  } catch {
    return undefined;
  }
  for (const day of days.reverse()) {
    const at = Date.parse(readDay(folder, day)?.taken_at ?? '');
    if (Number.isFinite(at)) return at;
  }
  return undefined;
}

/** Every account with history: its key, days kept, first and last day, bytes. */
export function listAccounts(
  configDir: string,
): { account: string; days: number; first: string | null; last: string | null; bytes: number; folder: string }[] {
  const root = historyRoot(configDir);
  if (!checkPrivateFolder(root, 'history folder')) return [];
  return readdirSync(root)
    .sort()
    .flatMap((key) => {
      const folder = join(root, key);
      let days: string[];
      try {
        days = daysKept(configDir, key);
      } catch {
        return [];
      }
      const bytes = days.reduce(
        (sum, day) => sum + statSync(join(folder, `${day}.json`), { throwIfNoEntry: false })!.size,
        0,
      );
      return [{ account: key, days: days.length, first: days[0] ?? null, last: days.at(-1) ?? null, bytes, folder }];
    });
}

/** Forgets an account's days before `beforeDay`, or all of them; how many went. */
export function forgetHistory(configDir: string, accountKey: string, beforeDay?: string): number {
  const folder = accountFolder(configDir, accountKey);
  const days = daysKept(configDir, accountKey).filter((day) => beforeDay === undefined || day < beforeDay);
  if (beforeDay === undefined) {
    rmSync(folder, { recursive: true, force: true });
    return days.length;
  }
  for (const day of days) rmSync(join(folder, `${day}.json`), { force: true });
  return days.length;
}
