/**
 * A full read held to be sorted (client.ts, STABLE_ORDERS): computers are read in the order a
 * report does not move them in, and only the whole list can be sorted into the order asked.
 * Held as parsed records, 50,000 computers took 230–410 MB; so a read holds at most
 * HELD_IN_MEMORY records in memory, and past that keeps each record's JSON text in a temporary
 * file and only its sort key and place in memory. Its pages are then handed out one at a time,
 * parsed again as they go, so the memory of a sorted read stays about flat whatever its size.
 * Writing the text and parsing it again costs about a fifth more CPU on a loopback read of 10,000
 * computers (0.84 → 1.01 s on Node 22), which the API's own pace hides: its 400 requests a minute
 * make 10,000 computers a read of 15 s.
 *
 * The file is made in the system's temporary folder (TMPDIR), readable by its owner alone, and
 * unlinked as soon as it is open: it goes with the process however the process ends. Where it
 * cannot be made or written (a full disk, a folder without rights), the records stay in memory
 * and the read goes on: more memory, never a failed command.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from './page-headers.js';
import { parseTime } from '../time/parse.js';

/** Records held parsed before the rest go to the file: a few MB, and no file for most accounts. */
export const HELD_IN_MEMORY = 1_000;

/** One record of the read: its sort key, and the record itself or where its text is in the file. */
interface Held {
  when: number;
  uid: string;
  record?: Record<string, unknown>;
  at: number;
  bytes: number;
}

/** Newest first by `when`, ties by uid (as the sandbox and the API sort). */
function newestFirst(a: Held, b: Held): number {
  return b.when - a.when || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
}

export class SortedRead {
  private readonly held: Held[] = [];
  /** The pages as read, without their records: they are handed out again in the same sizes. */
  private readonly shapes: { page: Page; count: number }[] = [];
  /** The first record not in the file: every one before it is. */
  private unwritten = 0;
  /** The file, once made. */
  private spool: Spool | undefined;
  /** The file could not be made or written: the rest of the read stays in memory. */
  private inMemoryOnly = false;

  /** `field`: the time field the order asked for sorts on, newest first. */
  constructor(
    private readonly field: string,
    private readonly log?: (line: string) => void,
  ) {}

  add(page: Page): void {
    this.shapes.push({ page: { ...page, items: [], data: [] }, count: page.items.length });
    for (const record of page.items) {
      const when = parseTime(record[this.field]) ?? Number.NEGATIVE_INFINITY;
      const uid = typeof record.uid === 'string' ? record.uid : '';
      this.held.push({ when, uid, record, at: 0, bytes: 0 });
    }
    // Once the file is made, each page goes to it as it comes: records held for long survive the
    // young generation's collections, which makes V8 grow it (Node 24, 50,000 computers: 290 MB
    // when they went in batches of 1,000, 200 MB a page at a time).
    if (this.spool || this.held.length > HELD_IN_MEMORY) this.moveToFile();
  }

  /**
   * The records sorted, in pages of the sizes read. Each page waits for the event loop's turn:
   * read from a file, the pages would otherwise come in one run of microtasks, where neither
   * Ctrl-C nor the deadline is heard and V8's collection tasks never run (Node 24: +20 MB at
   * 50,000 computers).
   */
  async *pages(): AsyncGenerator<Page> {
    this.held.sort(newestFirst);
    let next = 0;
    for (const { page, count } of this.shapes) {
      const items = this.held.slice(next, (next += count)).map((held) => held.record ?? this.spool!.read(held));
      yield { ...page, items, data: items };
      await new Promise((turn) => setImmediate(turn));
    }
  }

  /** Closes the file (already unlinked where the system allows; removed here otherwise). */
  discard(): void {
    this.spool?.close();
    this.spool = undefined;
  }

  private moveToFile(): void {
    if (this.inMemoryOnly) return;
    try {
      this.spool ??= Spool.open();
      this.spool.write(this.held.slice(this.unwritten));
      this.unwritten = this.held.length;
    } catch (error) {
      // What was written stays readable; the rest keeps its records.
      this.inMemoryOnly = true;
      this.log?.(`the sorted read stays in memory: ${(error as Error).message}`);
    }
  }
}

/** The temporary file: records' JSON text, each read back by its place and length. */
class Spool {
  private end = 0;
  private buffer = Buffer.alloc(64 * 1024);

  private constructor(
    private readonly fd: number,
    private readonly folder: string,
  ) {}

  static open(): Spool {
    const folder = mkdtempSync(join(tmpdir(), 'mon-sort-'));
    const file = join(folder, 'records');
    let fd: number;
    try {
      fd = openSync(file, 'w+', 0o600);
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    try {
      unlinkSync(file);
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // A system that keeps an open file's folder (Windows): close() removes it.
    }
    return new Spool(fd, folder);
  }

  /**
   * Writes the records' text in one write and lets go of the records. A string, not a Buffer:
   * no memory outside V8's heap for it to account for.
   */
  write(records: Held[]): void {
    const texts = records.map((held) => JSON.stringify(held.record));
    const lengths = texts.map((text) => Buffer.byteLength(text));
    const expected = lengths.reduce((sum, bytes) => sum + bytes, 0);
    const written = writeSync(this.fd, texts.join(''), this.end);
    if (written !== expected) throw new Error(`a short write to the temporary file (${written} of ${expected} bytes)`);
    for (const [i, held] of records.entries()) {
      held.at = this.end;
      held.bytes = lengths[i]!;
      held.record = undefined;
      this.end += held.bytes;
    }
  }

  /**
   * One record, read and parsed by itself: decoding a page at once would take UTF-8's slow path
   * for the whole page when one record holds a non-ASCII character (1.5× slower on the sandbox's
   * computers).
   */
  read(held: Held): Record<string, unknown> {
    if (this.buffer.length < held.bytes) this.buffer = Buffer.alloc(held.bytes * 2);
    for (let got = 0; got < held.bytes; ) {
      const n = readSync(this.fd, this.buffer, got, held.bytes - got, held.at + got);
      if (n === 0) throw new Error('the sorted read lost its temporary file');
      got += n;
    }
    return JSON.parse(this.buffer.toString('utf8', 0, held.bytes)) as Record<string, unknown>;
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.folder, { recursive: true, force: true });
  }
}
