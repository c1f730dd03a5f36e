/**
 * The state file's journal, `<file>.journal`: one line for each change since the snapshot,
 * appended (store.ts says when). A line names the snapshot it follows, so lines left from
 * before a compaction are skipped, and replaying a line twice changes nothing.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import type { Owned } from './collection.js';

/** One line of the journal. */
export interface JournalLine {
  /** The token of the snapshot this line follows. */
  base: string;
  /** The writer's clock anchor: report times in `saved` are relative to it (see moveReportTimes). */
  anchor: number;
  rng: number;
  saved: Owned[];
  removed: string[];
}

/** The journal of a state file. */
export const journalOf = (stateFile: string): string => `${stateFile}.journal`;

/**
 * Appends one line to a journal of which `known` bytes were read; false when the file is not
 * that one (it is shorter).
 */
export function appendJournal(journal: string, bytes: Buffer, known: number): boolean {
  const fd = openSync(journal, 'a', 0o600);
  try {
    const size = fstatSync(fd).size;
    if (size < known) return false;
    // Another writer may have left a torn line (killed mid-write): cut it off first. The
    // caller holds the state's lock, so nobody appends meanwhile.
    if (size > known) ftruncateSync(fd, known);
    // Not synced to disk: a process killed after this write keeps it (the kernel holds it); a
    // power cut may lose a demo's last changes, never tear the state (a torn line is cut off).
    writeSync(fd, bytes);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The journal's bytes past the first `from`; undefined when there are none or no journal. */
export function readJournalFrom(journal: string, from: number): Buffer | undefined {
  let text: Buffer;
  try {
    const fd = openSync(journal, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= from) return undefined;
      text = Buffer.alloc(size - from);
      let got = 0;
      while (got < text.length) {
        const n = readSync(fd, text, got, text.length - got, from + got);
        if (n === 0) break;
        got += n;
      }
      return text.subarray(0, got);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** A journal line, or undefined for one that is not (skipped: it names no snapshot it could follow). */
function parseJournalLine(raw: string): JournalLine | undefined {
  let line: unknown;
  try {
    line = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof line !== 'object' || line === null) return undefined;
  const { base, anchor, rng, saved, removed } = line as Record<string, unknown>;
  if (
    typeof base !== 'string' ||
    typeof anchor !== 'number' ||
    typeof rng !== 'number' ||
    !Array.isArray(saved) ||
    !Array.isArray(removed)
  )
    return undefined;
  const owned = (item: unknown) =>
    typeof item === 'object' &&
    item !== null &&
    typeof (item as Owned).uid === 'string' &&
    typeof (item as Owned).account === 'string';
  if (!saved.every(owned) || !removed.every((uid) => typeof uid === 'string')) return undefined;
  return line as JournalLine;
}

/**
 * The lines of `text` that follow the snapshot `base`, and how many bytes of whole lines it
 * holds. A torn last line (a writer killed mid-append) is left for the next writer to cut off.
 */
export function linesFollowing(text: Buffer, base: string): { lines: JournalLine[]; bytes: number } {
  const whole = text.lastIndexOf(0x0a) + 1;
  const lines: JournalLine[] = [];
  for (const raw of text.subarray(0, whole).toString('utf8').split('\n')) {
    if (raw === '') continue;
    const line = parseJournalLine(raw);
    if (line !== undefined && line.base === base) lines.push(line);
  }
  return { lines, bytes: whole };
}
