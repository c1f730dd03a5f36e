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
import { rmSync } from 'node:fs';
import { DEFAULT_COMPUTERS, DEFAULT_SEED } from '../config/sandbox-identity.js';
import { Collection, type CollectionKey, collectionKeyOf, type Owned } from './collection.js';
import { appendJournal, type JournalLine, journalOf, linesFollowing, readJournalFrom } from './journal.js';
import type {
  AccountId,
  CatalogRec,
  ComputerRec,
  ExpirationRec,
  GroupRec,
  NoteRec,
  PluginResultRec,
  StateData,
  UserRec,
} from './model.js';
import { Prng } from './prng.js';
import { seedState } from './seed.js';
import { fileIdentity, loadStateFile, moveRecordTimes, moveReportTimes, writeSnapshot } from './state-file.js';

/** What one commit changed: the records written (new or updated) and the uids removed. */
export interface Change {
  saved?: readonly Owned[];
  removed?: readonly string[];
}

/** The journal is folded into a new snapshot past this size: a few thousand changes. */
const COMPACT_JOURNAL_BYTES = 2 * 1024 * 1024;

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
    if (!appendJournal(journal, bytes, this.journalBytes)) return false;
    this.journalBytes += bytes.length;
    return true;
  }

  /** Writes the whole state as a new snapshot and empties the journal (a seed, a compaction). */
  save(): void {
    if (this.stateFile === undefined) return;
    this.data.rng = this.rng.state;
    this.seen = writeSnapshot(this.stateFile, this.data);
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
    const text = readJournalFrom(journalOf(this.stateFile), this.journalBytes);
    if (text === undefined) return false;
    const { lines, bytes } = linesFollowing(text, this.seen);
    for (const line of lines) this.apply(line);
    this.journalBytes += bytes;
    return lines.length > 0;
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

/** The state a file and its journal hold together, as a sandbox starting on it would read it (tests, tools). */
export function readState(file: string): StateData | undefined {
  if (loadStateFile(file) === undefined) return undefined;
  const store = Store.open({ stateFile: file, now: Date.now });
  return store.data;
}
