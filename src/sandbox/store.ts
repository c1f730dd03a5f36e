/**
 * The sandbox state: the records, their indexes and persistence to an optional state file.
 * Reads work on the live records (no cloning per request); every mutation goes through
 * `commit()`, which bumps the version (invalidating cached orderings) and saves.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
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
import { acquireLock, isTempOf, writeFileAtomic } from '../config/files.js';
import { Prng } from './prng.js';
import { seedState } from './seed.js';

import { DEFAULT_COMPUTERS, DEFAULT_SEED } from './identity.js';

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

export interface OpenStoreOptions {
  stateFile?: string;
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

  /** identity of the state file as this store last read or wrote it: a change means another writer */
  private seen: string | undefined;

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
        return store;
      }
      opts.onNotice?.(
        `sandbox: ${file} holds data seeded with seed ${loaded.seed} and ${loaded.computerCount} computers; ` +
          `re-seeding with seed ${seed} and ${computers} computers (changes made to the old data are discarded)`,
      );
    }
    const store = new Store(fresh(), file);
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

  /** Call after every mutation: invalidates caches and writes the state file. */
  commit(): void {
    this.version++;
    this.data.rng = this.rng.state;
    this.save();
  }

  save(): void {
    if (this.stateFile === undefined) return;
    this.data.rng = this.rng.state;
    // A fresh token at the head of the file marks this write (see fileIdentity).
    const token = randomBytes(8).toString('hex');
    // The config folder: it also holds profiles and keys.
    mkdirSync(dirname(this.stateFile), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.stateFile, `{"writeId":"${token}",${JSON.stringify(this.data).slice(1)}`, { durable: true });
    this.seen = token;
  }

  /**
   * This store, or a new one read from the state file when another sandbox has written it
   * since this one last read or wrote it (README, Two sandboxes on one state). Report times
   * are moved to this sandbox's own anchor, so every process shows the same clock.
   */
  refresh(): Store {
    const file = this.stateFile;
    if (file === undefined) return this;
    const now = fileIdentity(file);
    if (now === this.seen || now === undefined) return this;
    const read = loadStateFile(file);
    if (!read) return this;
    const store = new Store(read.data, file, this.data.anchorMs ?? this.data.seededAtMs);
    store.seen = read.identity;
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

/**
 * One writer at a time on a state file, across processes: `<file>.lock`, taken as mon takes its
 * other locks (src/config/files.ts). A sandbox holds it for the milliseconds of one change, so
 * one untouched for 5 s was left by a process that died; a wait past 10 s is an error (500).
 */
export async function withStateLock<T>(file: string, work: () => T): Promise<T> {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const held = await acquireLock(`${file}.lock`, { staleMs: 5_000, maxWaitMs: 10_000, signal: new AbortController().signal });
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
      if (typeof item !== 'object' || item === null || typeof (item as Owned).uid !== 'string' || typeof (item as Owned).account !== 'string') {
        throw corrupt(file, `${key} holds a record without uid or account`);
      }
    }
  }
  return { data: parsed as StateData, identity: WRITE_ID.exec(text)?.[1] ?? before };
}
