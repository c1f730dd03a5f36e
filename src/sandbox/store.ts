/**
 * The sandbox state: the records, their indexes and persistence to an optional state file.
 * Reads work on the live records (no cloning per request); every mutation goes through
 * `commit()`, which bumps the version (invalidating cached orderings) and saves.
 *
 * Persistence is a snapshot and a journal: `<file>` holds the whole state (written atomically,
 * with a token at its head), `<file>.journal` one line for each change since (the records
 * written and the uids removed), appended. A write therefore costs what it changed,
 * not the size of the account; the journal is folded into a new snapshot once it has grown
 * (compaction). A journal line names the snapshot it follows, so lines left from before a
 * compaction are skipped, and replaying a line twice changes nothing.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import {
  STATE_FORMAT,
  STATE_VERSION,
  type AccountId,
  type CatalogRec,
  type ComputerRec,
  type ExpirationRec,
  type GroupRec,
  type NoteRec,
  type PluginResultRec,
  type StateData,
  type UserRec,
} from './model.js';
import { acquireLock, BRIEF_LOCK, isTempOf, writeFileAtomic } from '../config/files.js';
import { Prng } from './prng.js';
import { seedState } from './seed.js';

import { DEFAULT_COMPUTERS, DEFAULT_SEED } from '../config/sandbox-identity.js';

export { DEFAULT_COMPUTERS, DEFAULT_SEED };

/** Records that carry a uid and an owner. */
interface Owned {
  uid: string;
  account: AccountId;
}

/** An array of records plus a uid index; order of the array is insertion order. */
export class Collection<T extends Owned> {
  readonly items: T[];
  private readonly byUid = new Map<string, T>();

  constructor(items: T[]) {
    this.items = items;
    for (const item of items) this.byUid.set(item.uid, item);
  }

  get(uid: string): T | undefined {
    return this.byUid.get(uid);
  }

  has(uid: string): boolean {
    return this.byUid.has(uid);
  }

  insert(item: T): void {
    this.items.push(item);
    this.byUid.set(item.uid, item);
  }

  remove(uid: string): void {
    const item = this.byUid.get(uid);
    if (!item) return;
    this.byUid.delete(uid);
    const i = this.items.indexOf(item);
    if (i >= 0) this.items.splice(i, 1);
  }

  ofAccount(account: AccountId): T[] {
    return this.items.filter((item) => item.account === account);
  }
}

/** What one commit changed: the records written (new or updated) and the uids removed. */
export interface Change {
  saved?: readonly Owned[];
  removed?: readonly string[];
}

/** One line of the journal. */
interface JournalLine {
  /** The token of the snapshot this line follows. */
  base: string;
  /** The writer's clock anchor: report times in `saved` are relative to it (see moveReportTimes). */
  anchor: number;
  rng: number;
  saved: Owned[];
  removed: string[];
}

/** The journal is folded into a new snapshot past this size: a few thousand changes. */
const COMPACT_JOURNAL_BYTES = 2 * 1024 * 1024;

/** The journal of a state file. */
export const journalOf = (stateFile: string): string => `${stateFile}.journal`;

/** Which collection a uid belongs to, by its prefix (em_ and ep_ before e_). */
const COLLECTION_OF_PREFIX: readonly [string, CollectionKey][] = [
  ['em_', 'expirationManufacturers'],
  ['ep_', 'expirationProducts'],
  ['pr_', 'pluginResults'],
  ['g_', 'groups'],
  ['c_', 'computers'],
  ['e_', 'expirations'],
  ['n_', 'notes'],
  ['u_', 'users'],
];

function collectionKeyOf(uid: string): CollectionKey {
  const key = COLLECTION_OF_PREFIX.find(([prefix]) => uid.startsWith(prefix))?.[1];
  if (!key) throw new Error(`no collection holds uid ${uid}`);
  return key;
}

export interface OpenStoreOptions {
  stateFile?: string;
  /** Fold the journal into a new snapshot past this many bytes (default 2 MiB). */
  compactJournalBytes?: number;
  seed?: number;
  computers?: number;
  now: () => number;
  onNotice?: (message: string) => void;
}

export class Store {
  readonly data: StateData;
  readonly groups: Collection<GroupRec>;
  readonly computers: Collection<ComputerRec>;
  readonly pluginResults: Collection<PluginResultRec>;
  readonly expirations: Collection<ExpirationRec>;
  readonly expirationManufacturers: Collection<CatalogRec>;
  readonly expirationProducts: Collection<CatalogRec>;
  readonly notes: Collection<NoteRec>;
  readonly users: Collection<UserRec>;
  /** bumped by every commit; caches keyed on it stay valid until the next mutation */
  version = 0;
  private readonly byClientId = new Map<string, ComputerRec>();
  private readonly resultsByComputer = new Map<string, PluginResultRec[]>();
  private readonly rng: Prng;
  private readonly stateFile: string | undefined;

  /** token of the snapshot this store last read or wrote (see fileIdentity): another one means another writer compacted */
  private seen: string | undefined;
  /** bytes of the journal this store has applied or written: more on disk means another writer's changes */
  private journalBytes = 0;
  /** past this the journal is folded into a new snapshot */
  private compactJournalBytes = COMPACT_JOURNAL_BYTES;

  constructor(data: StateData, stateFile?: string, anchorMs?: number) {
    // The file's write token is the file's, not the data's: save() writes a new one each time.
    delete (data as { writeId?: unknown }).writeId;
    if (anchorMs !== undefined) moveReportTimes(data, anchorMs);
    this.data = data;
    this.stateFile = stateFile;
    this.rng = new Prng(data.rng);
    this.groups = new Collection(data.groups);
    this.computers = new Collection(data.computers);
    this.pluginResults = new Collection(data.pluginResults);
    this.expirations = new Collection(data.expirations);
    this.expirationManufacturers = new Collection(data.expirationManufacturers);
    this.expirationProducts = new Collection(data.expirationProducts);
    this.notes = new Collection(data.notes);
    this.users = new Collection(data.users);
    for (const c of data.computers) this.byClientId.set(c.client_id, c);
    for (const pr of data.pluginResults) {
      const list = this.resultsByComputer.get(pr.computer);
      if (list) list.push(pr);
      else this.resultsByComputer.set(pr.computer, [pr]);
    }
  }

  /** Loads the state file, or seeds (and saves when a file is configured). */
  static open(opts: OpenStoreOptions): Store {
    const seed = opts.seed ?? DEFAULT_SEED;
    const computers = opts.computers ?? DEFAULT_COMPUTERS;
    const startMs = opts.now();
    const fresh = (): StateData => ({ ...seedState({ seed, computers, nowMs: startMs }), anchorMs: startMs });
    if (opts.stateFile === undefined) return new Store(fresh());

    const file = opts.stateFile;
    const read = loadStateFile(file);
    const loaded = read?.data;
    if (loaded) {
      const seedDiffers = opts.seed !== undefined && opts.seed !== loaded.seed;
      const countDiffers = opts.computers !== undefined && opts.computers !== loaded.computerCount;
      if (!seedDiffers && !countDiffers) {
        const store = new Store(loaded, file, startMs);
        // The identity of what was read, not of the file a moment later: another sandbox may
        // write in between, and this one would then never read that write.
        store.seen = read.identity;
        store.compactJournalBytes = opts.compactJournalBytes ?? COMPACT_JOURNAL_BYTES;
        store.replayJournal();
        return store;
      }
      opts.onNotice?.(
        `sandbox: ${file} holds data seeded with seed ${loaded.seed} and ${loaded.computerCount} computers; ` +
          `re-seeding with seed ${seed} and ${computers} computers (changes made to the old data are discarded)`,
      );
    }
    const store = new Store(fresh(), file);
    store.compactJournalBytes = opts.compactJournalBytes ?? COMPACT_JOURNAL_BYTES;
    store.save();
    return store;
  }

  /** A new uid from the persisted PRNG, so runs with the same history produce the same uids. */
  newUid(prefix: string): string {
    for (;;) {
      const uid = this.rng.uid(prefix);
      if (!this.uidTaken(uid)) return uid;
    }
  }

  private uidTaken(uid: string): boolean {
    return (
      this.groups.has(uid) ||
      this.computers.has(uid) ||
      this.pluginResults.has(uid) ||
      this.expirations.has(uid) ||
      this.expirationManufacturers.has(uid) ||
      this.expirationProducts.has(uid) ||
      this.notes.has(uid) ||
      this.users.has(uid)
    );
  }

  computerByClientId(clientId: string): ComputerRec | undefined {
    return this.byClientId.get(clientId);
  }

  resultsOf(computerUid: string): readonly PluginResultRec[] {
    return this.resultsByComputer.get(computerUid) ?? [];
  }

  /** Group of the account by uid or slug. */
  groupByUidOrSlug(account: AccountId, key: string): GroupRec | undefined {
    const byUid = this.groups.get(key);
    if (byUid) return byUid.account === account ? byUid : undefined;
    return this.groups.items.find((g) => g.account === account && g.slug === key);
  }

  /**
   * Call after every mutation, naming what it wrote and removed: invalidates caches and appends
   * the change to the journal (compacting it into a new snapshot once it has grown).
   */
  commit(change: Change): void {
    this.version++;
    this.data.rng = this.rng.state;
    const file = this.stateFile;
    if (file === undefined) return;
    if (this.seen === undefined) {
      this.save();
      return;
    }
    const line: JournalLine = {
      base: this.seen,
      anchor: this.data.anchorMs ?? this.data.seededAtMs,
      rng: this.rng.state,
      saved: [...(change.saved ?? [])],
      removed: [...(change.removed ?? [])],
    };
    if (!this.append(journalOf(file), Buffer.from(`${JSON.stringify(line)}\n`))) {
      // Not the journal this store read: write the whole state instead.
      this.save();
      return;
    }
    if (this.journalBytes > this.compactJournalBytes) this.save();
  }

  /** Appends one line to the journal this store has read; false when the file is not that one (it is shorter). */
  private append(journal: string, bytes: Buffer): boolean {
    const fd = openSync(journal, 'a', 0o600);
    try {
      const size = fstatSync(fd).size;
      if (size < this.journalBytes) return false;
      // Another writer may have left a torn line (killed mid-write): cut it off first. The
      // caller holds the state's lock, so nobody appends meanwhile.
      if (size > this.journalBytes) ftruncateSync(fd, this.journalBytes);
      // Not synced to disk: a process killed after this write keeps it (the kernel holds it); a
      // power cut may lose a demo's last changes, never tear the state (a torn line is cut off).
      writeSync(fd, bytes);
      this.journalBytes += bytes.length;
      return true;
    } finally {
      closeSync(fd);
    }
  }

  /** Writes the whole state as a new snapshot and empties the journal (a seed, a compaction). */
  save(): void {
    if (this.stateFile === undefined) return;
    this.data.rng = this.rng.state;
    // A fresh token at the head of the file marks this write (see fileIdentity).
    const token = randomBytes(8).toString('hex');
    // The config folder: it also holds profiles and keys.
    mkdirSync(dirname(this.stateFile), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.stateFile, `{"writeId":"${token}",${JSON.stringify(this.data).slice(1)}`, { durable: true });
    this.seen = token;
    // Lines of the journal name the snapshot before: they are skipped from now on, and removed.
    rmSync(journalOf(this.stateFile), { force: true });
    this.journalBytes = 0;
  }

  /**
   * Applies the journal's lines past what this store has applied; returns whether any was new.
   * Only whole lines that follow this store's snapshot count: a torn last line (a writer
   * killed mid-append) is left for the next writer to cut off.
   */
  private replayJournal(): boolean {
    if (this.stateFile === undefined || this.seen === undefined) return false;
    let text: Buffer;
    try {
      const fd = openSync(journalOf(this.stateFile), 'r');
      try {
        const size = fstatSync(fd).size;
        if (size <= this.journalBytes) return false;
        text = Buffer.alloc(size - this.journalBytes);
        let got = 0;
        while (got < text.length) {
          const n = readSync(fd, text, got, text.length - got, this.journalBytes + got);
          if (n === 0) break;
          got += n;
        }
        text = text.subarray(0, got);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    const whole = text.lastIndexOf(0x0a) + 1;
    let applied = false;
    for (const raw of text.subarray(0, whole).toString('utf8').split('\n')) {
      if (raw === '') continue;
      const line = parseJournalLine(raw);
      if (line === undefined || line.base !== this.seen) continue;
      this.apply(line);
      applied = true;
    }
    this.journalBytes += whole;
    return applied;
  }

  /** One journal line: its records in place (or added), its uids removed, times moved to this store's clock. */
  private apply(line: JournalLine): void {
    const delta = Math.round(((this.data.anchorMs ?? this.data.seededAtMs) - line.anchor) / 1000);
    for (const record of line.saved) {
      const key = collectionKeyOf(record.uid);
      if (delta !== 0) moveRecordTimes(key, record, delta);
      this.upsert(key, record);
    }
    for (const uid of line.removed) this.removeRecord(collectionKeyOf(uid), uid);
    this.rng.state = line.rng;
    this.data.rng = line.rng;
    this.version++;
  }

  /** Adds a record, or replaces the one of its uid, with the indexes kept (the living fleet enrols computers this way); commit() after. */
  put(record: Owned): void {
    this.upsert(collectionKeyOf(record.uid), record);
  }

  private upsert(key: CollectionKey, record: Owned): void {
    const collection = this[key] as unknown as Collection<Owned>;
    const old = collection.get(record.uid);
    if (old) Object.assign(old, record);
    else {
      collection.insert(record);
      if (key === 'computers') this.byClientId.set((record as ComputerRec).client_id, record as ComputerRec);
      if (key === 'pluginResults') {
        const result = record as PluginResultRec;
        const list = this.resultsByComputer.get(result.computer);
        if (list) list.push(result);
        else this.resultsByComputer.set(result.computer, [result]);
      }
    }
  }

  private removeRecord(key: CollectionKey, uid: string): void {
    const collection = this[key] as unknown as Collection<Owned>;
    const old = collection.get(uid);
    if (!old) return;
    collection.remove(uid);
    if (key === 'computers') this.byClientId.delete((old as ComputerRec).client_id);
    if (key === 'pluginResults') {
      const list = this.resultsByComputer.get((old as PluginResultRec).computer);
      if (list) list.splice(list.indexOf(old as PluginResultRec), 1);
    }
  }

  /**
   * This store, or a new one read from the state file when another sandbox has written it
   * since this one last read or wrote it (README, Two sandboxes on one state). Report times
   * are moved to this sandbox's own anchor, so every process shows the same clock.
   */
  refresh(nowMs: number): Store {
    const file = this.stateFile;
    if (file === undefined) return this;
    const now = fileIdentity(file);
    if (now === undefined) return this.seen === undefined ? this : this.reseeded(file, nowMs);
    // The same snapshot: only the journal's new lines are read.
    if (now === this.seen) {
      this.replayJournal();
      return this;
    }
    const read = loadStateFile(file);
    if (!read) return this;
    const store = new Store(read.data, file, this.data.anchorMs ?? this.data.seededAtMs);
    store.seen = read.identity;
    store.compactJournalBytes = this.compactJournalBytes;
    store.replayJournal();
    return store;
  }
  /**
   * The state file this store read is gone: `mon sandbox reset` removed it. The demo data is
   * seeded anew at once (same seed and size) and saved, so the reset holds for a running
   * sandbox too instead of being undone by its next write. Another sandbox on the same file
   * that re-seeds at the same moment writes the same records; the last save wins and the
   * other reads it on its next request.
   */
  private reseeded(file: string, nowMs: number): Store {
    const store = new Store(
      { ...seedState({ seed: this.data.seed, computers: this.data.computerCount, nowMs }), anchorMs: nowMs },
      file,
    );
    store.compactJournalBytes = this.compactJournalBytes;
    rmSync(journalOf(file), { force: true });
    store.save();
    return store;
  }
}

/** The `"writeId"` every save() puts first in the file. */
const WRITE_ID = /^\{"writeId":"([0-9a-f]{16})",/;

/**
 * What tells one write of the state file from another: the token save() puts at its head
 * (read from its first bytes, not the whole file). inode, size and modification time can
 * repeat: the kernel's file times move in steps of milliseconds and a freed inode may be taken
 * again, so two quick writes by two sandboxes could look like one. A file written before
 * tokens (an older mon) falls back to inode, size and time.
 */
function fileIdentity(file: string): string | undefined {
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

/**
 * Time moves (README, Data): reports and plugin runs keep their distance to the clock they
 * were saved against, so they read the same "3 hours ago" on any day the sandbox starts. Mute
 * ends, expirations and creation times are dates, not distances: they stay.
 */
function moveReportTimes(data: StateData, anchorMs: number): void {
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
function moveRecordTimes(key: CollectionKey, record: Owned, delta: number): void {
  if (key === 'computers') {
    const computer = record as ComputerRec;
    computer.last_report += delta;
    computer.last_update += delta;
  }
  if (key === 'pluginResults') (record as PluginResultRec).last_run += delta;
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

function corrupt(file: string, why: string): Error {
  return new Error(
    `The sandbox state file ${file} is corrupt (${why}). Run \`mon sandbox reset\` to start again with fresh demo data.`,
  );
}

type CollectionKey = (typeof COLLECTION_KEYS)[number];

const COLLECTION_KEYS = [
  'groups',
  'computers',
  'pluginResults',
  'expirations',
  'expirationManufacturers',
  'expirationProducts',
  'notes',
  'users',
] as const;

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

/** The state a file and its journal hold together, as a sandbox starting on it would read it (tests, tools). */
export function readState(file: string): StateData | undefined {
  if (loadStateFile(file) === undefined) return undefined;
  const store = Store.open({ stateFile: file, now: Date.now });
  return store.data;
}
