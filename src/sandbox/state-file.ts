/**
 * The state file: a snapshot of the whole state, written atomically with a token at its head
 * that tells one write from another; read back with the checks that name `mon sandbox reset`
 * when it cannot be used; one writer at a time under its lock. Report times move with the clock
 * a file is read against.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { acquireLock, BRIEF_LOCK, isTempOf, writeFileAtomic } from '../config/files.js';
import { COLLECTION_KEYS, type CollectionKey, type Owned } from './collection.js';
import { type ComputerRec, type PluginResultRec, STATE_FORMAT, STATE_VERSION, type StateData } from './model.js';

/** The `"writeId"` every save() puts first in the file. */
const WRITE_ID = /^\{"writeId":"([0-9a-f]{16})",/;

/**
 * What tells one write of the state file from another: the token save() puts at its head
 * (read from its first bytes, not the whole file). inode, size and modification time can
 * repeat: the kernel's file times move in steps of milliseconds and a freed inode may be taken
 * again, so two quick writes by two sandboxes could look like one. A file written before
 * tokens (an older mon) falls back to inode, size and time.
 */
export function fileIdentity(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(32);
    const token = WRITE_ID.exec(head.toString('utf8', 0, readSync(fd, head, 0, head.length, 0)))?.[1];
    if (token !== undefined) return token;
    const st = fstatSync(fd, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` as the whole state file with a fresh token at its head (see fileIdentity); returns the token. */
export function writeSnapshot(file: string, data: StateData): string {
  const token = randomBytes(8).toString('hex');
  // The config folder: it also holds profiles and keys.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `{"writeId":"${token}",${JSON.stringify(data).slice(1)}`, { durable: true });
  return token;
}

function corrupt(file: string, why: string): Error {
  return new Error(
    `The sandbox state file ${file} is corrupt (${why}). Run \`mon sandbox reset\` to start again with fresh demo data.`,
  );
}

/**
 * The state file's data and the identity of that very content (see fileIdentity); undefined
 * when the file does not exist; throws a reset hint when it cannot be used.
 */
export function loadStateFile(file: string): { data: StateData; identity: string | undefined } | undefined {
  // A file without a token (written by an older mon): its inode, size and time, taken before
  // the read, so that a write in between is seen as a change on the next look.
  const before = fileIdentity(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read the sandbox state file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw corrupt(file, `not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw corrupt(file, 'not a JSON object');
  const obj = parsed as Record<string, unknown>;
  if (obj.format !== STATE_FORMAT) throw corrupt(file, `format is not ${STATE_FORMAT}`);
  if (obj.version !== STATE_VERSION) throw corrupt(file, `unsupported version ${String(obj.version)}`);
  for (const key of ['seed', 'computerCount', 'seededAtMs', 'rng'] as const) {
    if (typeof obj[key] !== 'number') throw corrupt(file, `${key} is not a number`);
  }
  for (const key of COLLECTION_KEYS) {
    const list = obj[key];
    if (!Array.isArray(list)) throw corrupt(file, `${key} is not an array`);
    for (const item of list) {
      if (
        typeof item !== 'object' ||
        item === null ||
        typeof (item as Owned).uid !== 'string' ||
        typeof (item as Owned).account !== 'string'
      ) {
        throw corrupt(file, `${key} holds a record without uid or account`);
      }
    }
  }
  return { data: parsed as StateData, identity: WRITE_ID.exec(text)?.[1] ?? before };
}

/**
 * Time moves (README, Data): reports and plugin runs keep their distance to the clock they
 * were saved against, so they read the same "3 hours ago" on any day the sandbox starts. Mute
 * ends, expirations and creation times are dates, not distances: they stay.
 */
export function moveReportTimes(data: StateData, anchorMs: number): void {
  const from = data.anchorMs ?? data.seededAtMs;
  const delta = Math.round((anchorMs - from) / 1000);
  data.anchorMs = anchorMs;
  if (delta === 0) return;
  for (const c of data.computers) {
    c.last_report += delta;
    c.last_update += delta;
  }
  for (const pr of data.pluginResults) pr.last_run += delta;
}

/** Moves one record's report times by `delta` seconds (a journal line written against another clock). */
export function moveRecordTimes(key: CollectionKey, record: Owned, delta: number): void {
  if (key === 'computers') {
    const computer = record as ComputerRec;
    computer.last_report += delta;
    computer.last_update += delta;
  }
  if (key === 'pluginResults') (record as PluginResultRec).last_run += delta;
}

/**
 * One writer at a time on a state file, across processes: `<file>.lock`, a brief lock as mon
 * takes its other locks (src/config/files.ts): held for the milliseconds of one change; a wait
 * past its bound is an error (500).
 */
export async function withStateLock<T>(file: string, work: () => T): Promise<T> {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const held = await acquireLock(`${file}.lock`, { ...BRIEF_LOCK, signal: new AbortController().signal });
  try {
    return work();
  } finally {
    held.release();
  }
}

/** Temporaries of writeFileAtomic for `file` (`mon sandbox reset` removes them too). */
export function isTempFileOf(file: string, candidate: string): boolean {
  return isTempOf(file).test(candidate);
}
