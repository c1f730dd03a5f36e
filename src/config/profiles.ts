import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { ensureConfigDir, readConfigFile } from './trust.js';

/** One saved account: where the API lives and the key that opens it. */
export interface Profile {
  baseUrl: string;
  apiKey: string;
  subdomain?: string;
  domain?: string;
  /** The customer's name as the report shows it (`--display-name`). */
  displayName?: string;
}

export interface StoreShape {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

export const FIX_BY_HAND = 'fix the file by hand, or move it away and add your profiles again';

/**
 * The error for a config file that is not JSON. V8's message can quote the text around the fault
 * (`Unexpected token 'k', ..."apiKey":k3yS3C"... is not valid JSON`), and the file holds the
 * keys, which no redaction knows yet: only the part before the first quote is kept, with the
 * position when V8 gives one.
 */
export function notJson(file: string, error: unknown): UsageError {
  const said = (error as Error).message
    .split('\n')[0]!
    .split('"')[0]!
    .replace(/[,\s]+$/, '');
  return new UsageError(`config file ${file} is not valid JSON (${said})`, FIX_BY_HAND);
}

/** What a command that only reads the saved profiles needs of them. */
export interface ProfileReader {
  readonly path: string;
  readonly defaultName: string | undefined;
  list(): Record<string, Profile>;
  get(name: string): Profile | undefined;
}

/**
 * The saved profiles, read from config.json directly. conf (src/config/store.ts) stays the only
 * writer; constructing it costs a command more than reading the file (it loads its schema
 * validator and serialiser: about 90 M instructions on Node 22, a third of a one-request
 * command), so commands that only read use this. The same checks as the store's: the folder and
 * the file (trust.ts), then the shape.
 */
export function readProfiles(dir: string, warn?: (message: string) => void): ProfileReader {
  ensureConfigDir(dir);
  const path = join(dir, 'config.json');
  let store: StoreShape = { profiles: {} };
  let text: string | undefined;
  try {
    text = readConfigFile(path, warn);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') text = '{}';
    else
      throw new UsageError(
        `cannot read config file ${path} (${code})`,
        `check that you can read ${dir} (ls -ld ${dir})`,
      );
  }
  if (text !== undefined) {
    try {
      // conf reads an empty file as no settings at all.
      const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
      // Checked as it is: spread, `[1,2]` would pass for an object and null for none.
      checkShape(path, { profiles: {}, ...(parsed as object) }, parsed);
      store = { profiles: {}, ...(parsed as Partial<StoreShape>) };
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw notJson(path, error);
    }
  }
  checkShape(path, store);
  const profiles = store.profiles;
  return {
    path,
    defaultName: store.defaultProfile,
    list: () => profiles,
    get: (name) => (Object.hasOwn(profiles, name) ? profiles[name] : undefined),
  };
}

/** What the rest of mon takes for granted about the file, checked once: else exit 2 naming what is wrong. */
export function checkShape(file: string, store: unknown, asParsed: unknown = store): void {
  const wrong = (what: string) => new UsageError(`config file ${file}: ${what}`, FIX_BY_HAND);
  if (typeof asParsed !== 'object' || asParsed === null || Array.isArray(asParsed)) throw wrong('not an object');
  if (typeof store !== 'object' || store === null || Array.isArray(store)) throw wrong('not an object');
  const { profiles, defaultProfile } = store as Record<string, unknown>;
  if (defaultProfile !== undefined && typeof defaultProfile !== 'string') throw wrong('defaultProfile is not a string');
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))
    throw wrong('profiles is not an object');
  for (const [name, profile] of Object.entries(profiles)) {
    if (typeof profile !== 'object' || profile === null || Array.isArray(profile))
      throw wrong(`profile ${JSON.stringify(name)} is not an object`);
    const fields = profile as Record<string, unknown>;
    for (const key of ['baseUrl', 'apiKey']) {
      if (typeof fields[key] !== 'string' || fields[key] === '')
        throw wrong(`${key} of profile ${JSON.stringify(name)} is not a non-empty string`);
    }
    for (const key of ['subdomain', 'domain', 'displayName']) {
      if (fields[key] !== undefined && typeof fields[key] !== 'string')
        throw wrong(`${key} of profile ${JSON.stringify(name)} is not a string`);
    }
  }
}
