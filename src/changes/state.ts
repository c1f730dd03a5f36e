/**
 * The saved states of `--changes NAME`: one file per account and NAME,
 * `<config folder>/changes/<account>/<NAME>.json`, mode 0600, replaced whole (temporary file,
 * fsync, rename) and only after a whole success; read and written under `<NAME>.json.lock`, so
 * two runs with one NAME take turns. A damaged file is reported (exit 1) and left alone.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, LockTrouble, LONG_LOCK, writeFileAtomic, type HeldLock } from '../config/files.js';
import { checkConfigFile, checkPrivateFolder, ensureConfigDir, readConfigFile } from '../config/trust.js';
import type { Account } from '../context.js';
import { StateFileError, UsageError } from '../errors.js';
import type { Kept } from './compare.js';
import { toJson } from '../text/json.js';

const FORMAT = 'mon-changes';
const VERSION = 1;

/**
 * The largest state read. 10,000 computers take about 250 KB (see save); this leaves room for
 * accounts far larger, and keeps a planted huge file out.
 */
const MAX_STATE_BYTES = 256 * 1024 * 1024;

/** One saved state. */
export interface SavedState {
  account: string;
  name: string;
  /** The command line it was saved by, without `mon`. */
  command: string;
  /** The compared fields, in the order of each item's values. */
  fields: string[];
  /** When it was saved, epoch ms. */
  savedAt: number;
  items: Map<string, Kept[]>;
  /** Each item's row as its columns showed it (to show a gone item); absent in states saved before rows were kept. */
  rows?: { keys: string[]; rows: Map<string, Kept[]> };
}

/** A saved state as `mon changes list` shows it. */
export interface StateSummary {
  account: string;
  name: string;
  command: string;
  savedAt: number;
  count: number;
  file: string;
}

/** The states of one account under one config folder. */
export class ChangeStates {
  constructor(
    private readonly configDir: string,
    readonly account: Account,
  ) {}

  /** The folder of all states. */
  static root(configDir: string): string {
    return join(configDir, 'changes');
  }

  /**
   * Forgets every state of a saved profile (`profile remove`): a profile added again under the
   * name may be another account, whose lists would be compared with this one's. How many went.
   */
  static forgetProfile(configDir: string, profile: string): number {
    const folder = join(ChangeStates.root(configDir), profile);
    let count = 0;
    try {
      count = readdirSync(folder).filter((entry) => entry.endsWith('.json')).length;
    } catch {
      return 0;
    }
    rmSync(folder, { recursive: true, force: true });
    return count;
  }

  /** The file of NAME (the folders are made, 0700, when `create`). */
  file(name: string, options: { create?: boolean } = {}): string {
    const root = ChangeStates.root(this.configDir);
    const folder = join(root, this.account.key);
    if (options.create) {
      ensureConfigDir(this.configDir);
      checkPrivateFolder(root, 'changes folder', { create: true });
      checkPrivateFolder(folder, 'changes folder', { create: true });
    }
    return join(folder, `${name}.json`);
  }

  /**
   * Takes NAME's lock, waiting at most `waitMs` for another run with it to end; past that, a
   * StateFileError (exit 1) naming the run that holds it.
   */
  async lock(name: string, signal: AbortSignal, waitMs: number): Promise<HeldLock> {
    const file = this.file(name, { create: true });
    try {
      // Held for the whole listing, renewed as it goes.
      return await acquireLock(`${file}.lock`, { ...LONG_LOCK, maxWaitMs: waitMs, signal });
    } catch (error) {
      if (!(error instanceof LockTrouble)) throw error;
      if (error.reason === 'busy') {
        throw new StateFileError(
          `another run with --changes ${name}${this.profileText()}${error.holder ? ` (process ${error.holder})` : ''} still holds ${file}.lock after ${Math.round(waitMs / 1000)} s`,
          'let it finish and run again; a lock left by a process that was killed is taken over after 10 s',
        );
      }
      throw new StateFileError(`${error.message}`, `remove ${file}.lock`);
    }
  }

  /** The state saved under NAME, or undefined when there is none. A damaged file: StateFileError. */
  read(name: string): SavedState | undefined {
    const file = this.file(name);
    const damaged = (why: string) =>
      new StateFileError(
        `the saved state of --changes ${name}${this.profileText()} is damaged (${why}): ${file}`,
        `look at it, then start again with --changes ${name} --reset (or \`mon changes forget ${name}\`)`,
      );
    let text: string;
    try {
      const read = readConfigFile(file, undefined, { what: 'saved state', maxBytes: MAX_STATE_BYTES });
      if (read === undefined) return undefined;
      text = read;
    } catch (error) {
      // Not a regular file, or too large: damaged as any other, exit 1 as `help exit-codes` says.
      if (error instanceof UsageError)
        throw damaged(error.message.replace(`saved state ${file} `, '').replace(/^is /, ''));
      throw damaged(`cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw damaged('not JSON');
    }
    const state = parseState(data);
    if (typeof state === 'string') throw damaged(state);
    return state;
  }

  /** Saves NAME's state whole, or not at all. */
  save(name: string, state: Omit<SavedState, 'account' | 'name'>): void {
    const file = this.file(name, { create: true });
    // Each distinct set of values once, and each item the index of its set: computers share a
    // few groups and OS versions, so 10,000 of them take about 250 KB rather than 800.
    const values: Kept[][] = [];
    const index = new Map<string, number>();
    const items: Record<string, number> = {};
    for (const [uid, kept] of state.items) {
      const key = toJson(kept);
      let at = index.get(key);
      if (at === undefined) {
        at = values.push(kept) - 1;
        index.set(key, at);
      }
      items[uid] = at;
    }
    const rows = state.rows && { keys: state.rows.keys, cells: Object.fromEntries(state.rows.rows) };
    const text = toJson({
      format: FORMAT,
      version: VERSION,
      account: this.account.label,
      name,
      command: state.command,
      saved_at: new Date(state.savedAt).toISOString(),
      fields: state.fields,
      values,
      items,
      ...(rows ? { rows } : {}),
    });
    writeFileAtomic(file, `${text}\n`, { durable: true });
  }

  /** Deletes NAME's state; false when there was none. */
  forget(name: string): boolean {
    const file = this.file(name);
    if (!checkConfigFile(file, undefined, { what: 'saved state', maxBytes: MAX_STATE_BYTES })) return false;
    rmSync(file, { force: true });
    return true;
  }

  private profileText(): string {
    return this.account.key.startsWith('@') ? ` (${this.account.label})` : ` (profile ${this.account.label})`;
  }
}

/**
 * Every saved state under the config folder, by account and NAME. One that cannot be read is
 * listed with count -1 (`mon changes list` says so).
 */
export function listStates(configDir: string): StateSummary[] {
  const root = ChangeStates.root(configDir);
  if (!checkPrivateFolder(root, 'changes folder')) return [];
  const out: StateSummary[] = [];
  for (const key of readdirSync(root).sort()) {
    const folder = join(root, key);
    if (!checkPrivateFolder(folder, 'changes folder')) continue;
    for (const entry of readdirSync(folder).sort()) {
      if (!entry.endsWith('.json')) continue;
      const name = entry.slice(0, -'.json'.length);
      const file = join(folder, entry);
      let state: SavedState | string;
      try {
        // As read() reads it: only a regular file of a sane size (a FIFO would hold the listing
        // for good, a link to /dev/zero fill the memory).
        const text = readConfigFile(file, undefined, { what: 'saved state', maxBytes: MAX_STATE_BYTES });
        state = text !== undefined ? parseState(JSON.parse(text)) : 'gone';
      } catch {
        state = 'not JSON';
      }
      out.push(
        typeof state === 'string'
          ? { account: key, name, command: '', savedAt: Number.NaN, count: -1, file }
          : { account: key, name, command: state.command, savedAt: state.savedAt, count: state.items.size, file },
      );
    }
  }
  return out;
}

/** The state in a file's JSON, or what is wrong with it. */
function parseState(data: unknown): SavedState | string {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'not an object';
  const record = data as Record<string, unknown>;
  if (record.format !== FORMAT) return `format is not ${FORMAT}`;
  if (record.version !== VERSION) return `version ${String(record.version)} is not ${VERSION}`;
  const { fields, values, items } = record;
  if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string'))
    return 'fields is not a list of names';
  if (!Array.isArray(values) || !values.every((set) => Array.isArray(set) && set.length === fields.length))
    return 'values is not a list of one value per field';
  if (typeof items !== 'object' || items === null || Array.isArray(items)) return 'items is not an object';
  const savedAt = Date.parse(String(record.saved_at));
  if (Number.isNaN(savedAt)) return 'saved_at is not a time';
  const map = new Map<string, Kept[]>();
  for (const [uid, at] of Object.entries(items)) {
    const kept = typeof at === 'number' ? (values[at] as Kept[] | undefined) : undefined;
    if (!kept) return `item ${uid} names no set of values`;
    map.set(uid, kept);
  }
  return {
    rows: parseRows(record.rows),
    account: typeof record.account === 'string' ? record.account : '',
    name: typeof record.name === 'string' ? record.name : '',
    command: typeof record.command === 'string' ? record.command : '',
    fields: fields as string[],
    savedAt,
    items: map,
  };
}

/** The rows a state kept, when they are whole; anything else is ignored (they only name gone items). */
function parseRows(data: unknown): SavedState['rows'] {
  if (typeof data !== 'object' || data === null) return undefined;
  const { keys, cells } = data as Record<string, unknown>;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) return undefined;
  if (typeof cells !== 'object' || cells === null || Array.isArray(cells)) return undefined;
  const rows = new Map<string, Kept[]>();
  for (const [uid, row] of Object.entries(cells))
    if (Array.isArray(row) && row.length === keys.length) rows.set(uid, row as Kept[]);
  return { keys: keys as string[], rows };
}
