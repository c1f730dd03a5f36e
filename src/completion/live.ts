/**
 * Live names for Tab: the account's groups, computers (client ids), plugins, notes and
 * expirations, from a cache in the config folder (`completion/<account>.json`, 0600: names and
 * ids, never the key) that lives MON_COMPLETION_TTL seconds (default 300). A Tab never waits on
 * the API: it prints what the cache holds, stale or nothing, and when the cache is old starts
 * `mon __complete refresh` in the background, detached, to read the account afresh.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { acquireLock, LONG_LOCK, writeFileAtomic } from '../config/files.js';
import { checkPrivateFolder, ensureConfigDir, readConfigFile } from '../config/trust.js';
import { join } from 'node:path';
import type { Context } from '../context.js';

export const NAME_KINDS = ['groups', 'computers', 'plugins', 'notes', 'expirations'] as const;
export type NameKind = (typeof NAME_KINDS)[number];

type Names = Record<NameKind, string[]>;

interface CacheFile extends Names {
  saved_at: number;
}

const DEFAULT_TTL_S = 300;
/** A cache larger than this is not one mon wrote: it is ignored. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** MON_COMPLETION_TTL in seconds (0 refreshes on every Tab); a bad value is the default. */
export function completionTtlMs(env: Record<string, string | undefined>): number {
  const text = env.MON_COMPLETION_TTL?.trim();
  if (text && /^\d{1,7}$/.test(text)) return Number(text) * 1000;
  return DEFAULT_TTL_S * 1000;
}

function cacheFile(configDir: string, accountKey: string): string {
  return join(configDir, 'completion', `${accountKey}.json`);
}

/** The account a Tab completes for, without failing: none (no profile, no key) completes nothing. */
async function accountKey(ctx: Context): Promise<string | undefined> {
  try {
    return (await ctx.target()).account.key;
  } catch {
    return undefined;
  }
}

/**
 * `mon __complete <kind>`: the cached names of the account, one a line. Reads one small file and
 * may start a refresh; never sends a request itself.
 */
export async function printLiveNames(ctx: Context, kind: NameKind): Promise<void> {
  const key = await accountKey(ctx);
  if (key === undefined) return;
  const file = cacheFile(ctx.configDir, key);
  const cache = readCache(file);
  const age = cache ? ctx.now() - cache.saved_at : Number.POSITIVE_INFINITY;
  // A cache dated ahead of the clock (a clock set back, a file copied in) is stale too.
  if (age > completionTtlMs(ctx.env) || age < 0) startRefresh(ctx);
  const names = cache?.[kind] ?? [];
  if (names.length) ctx.io.stdout.write(`${names.join('\n')}\n`);
}

/**
 * A name a shell may be offered: no control character (a tab splits fish's name from its
 * description, a NUL ends a C string, a line break ends the line mon prints it on).
 */
function offerable(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !/[\x00-\x1f\x7f]/.test(value);
}

/**
 * The cache, or undefined. Read only as what the config folder's other files must be, a regular
 * file of this user's of a sane size (checkConfigFile): a FIFO put at its path held every Tab
 * for good.
 */
function readCache(file: string): CacheFile | undefined {
  try {
    const text = readConfigFile(file, undefined, { what: 'completion cache', maxBytes: MAX_CACHE_BYTES });
    if (text === undefined) return undefined;
    const data = JSON.parse(text) as Partial<CacheFile>;
    if (typeof data.saved_at !== 'number') return undefined;
    const list = (value: unknown) => (Array.isArray(value) ? value.filter(offerable) : []);
    return {
      saved_at: data.saved_at,
      ...(Object.fromEntries(NAME_KINDS.map((kind) => [kind, list(data[kind])])) as Names),
    };
  } catch {
    return undefined;
  }
}

/** A saved profile's cache, gone with it (`profile remove`): a profile added again under its name is another account. */
export function forgetLiveNames(configDir: string, accountKey: string): void {
  rmSync(cacheFile(configDir, accountKey), { force: true });
}

/** `mon __complete refresh`, detached: the Tab that started it has already answered. */
function startRefresh(ctx: Context): void {
  try {
    const bin = process.argv[1];
    if (!bin) return;
    // The same account: the refresh reads the same environment (MON_PROFILE, MON_CONFIG_DIR…),
    // and ends within two minutes whatever the API does (MON_DEADLINE), freeing its lock.
    // The account options of the Tab's line too (-p south): the refresh reads that account.
    const { profile, baseUrl, sandbox } = ctx.globals;
    const account = [
      ...(sandbox ? ['--sandbox'] : []),
      ...(profile ? ['--profile', profile] : []),
      ...(baseUrl ? ['--base-url', baseUrl] : []),
    ];
    const child = spawn(process.execPath, [bin, ...account, '__complete', 'refresh'], {
      detached: true,
      stdio: 'ignore',
      env: { ...ctx.env, MON_DEADLINE: ctx.env.MON_DEADLINE ?? '120' },
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No refresh: the next Tab tries again.
  }
}

/**
 * `mon __complete refresh`: reads the account's names and replaces the cache whole (one refresh
 * at a time per account: a second one finding the lock taken leaves it to the first).
 */
export async function refreshLiveNames(ctx: Context): Promise<void> {
  const key = await accountKey(ctx);
  if (key === undefined) return;
  const file = cacheFile(ctx.configDir, key);
  ensureConfigDir(ctx.configDir);
  checkPrivateFolder(join(ctx.configDir, 'completion'), 'completion cache folder', { create: true });
  let lock;
  try {
    lock = await acquireLock(`${file}.lock`, { ...LONG_LOCK, maxWaitMs: 0, signal: ctx.signal });
  } catch {
    return;
  }
  try {
    const client = await ctx.client();
    const names: Names = { groups: [], computers: [], plugins: [], notes: [], expirations: [] };
    const plugins = new Set<string>();
    const text = (value: unknown) => (offerable(value) ? value : undefined);
    for await (const page of client.pages('groups.list', {}, { all: true }))
      for (const group of page.items)
        names.groups.push(...[text(group.name)].filter((one): one is string => one !== undefined));
    for await (const page of client.pages(
      'computers.list',
      { query: { 'expand[]': 'plugin_results' } },
      { all: true, anyOrder: true },
    )) {
      for (const computer of page.items) {
        const id = text(computer.client_id) ?? text(computer.uid);
        if (id) names.computers.push(id);
        for (const result of Array.isArray(computer.plugin_results)
          ? (computer.plugin_results as Record<string, unknown>[])
          : []) {
          const name = text(result.name);
          if (name) plugins.add(name);
        }
      }
    }
    names.plugins = [...plugins];
    for await (const page of client.pages('notes.list', {}, { all: true }))
      for (const note of page.items) if (text(note.uid)) names.notes.push(note.uid as string);
    for await (const page of client.pages('expirations.list', {}, { all: true }))
      for (const expiration of page.items) if (text(expiration.uid)) names.expirations.push(expiration.uid as string);
    for (const kind of NAME_KINDS) names[kind] = [...new Set(names[kind])].sort();
    writeFileAtomic(file, `${JSON.stringify({ saved_at: ctx.now(), ...names })}\n`);
  } finally {
    lock.release();
  }
}
