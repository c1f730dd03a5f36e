import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * The config folder holds keys, and what it names (a base URL) decides where a key is sent; the
 * rate ledger is written into it. So, as ssh does for ~/.ssh, it is used only when it is this
 * user's own and nobody else can write to it, and only regular files of a sane size are read
 * from it (a FIFO would block a read forever, /dev/zero would exhaust memory).
 */

/**
 * A file read whole, but never more than `maxBytes` + 1 bytes, whatever its size says: stat's
 * size is no bound (a /proc file says 0 and holds gigabytes; a file grows after it was looked
 * at). The bytes, or undefined when the file holds more than `maxBytes`. Every file mon reads
 * with a limit on its size is read through this: the config folder's files (readConfigFile),
 * --logo, and, as a stream, --body-file and --from (io/user-input.ts counts as it reads).
 */
export function readAtMost(path: string, maxBytes: number): Buffer | undefined {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    while (length <= maxBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - length));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
    }
    return length > maxBytes ? undefined : Buffer.concat(chunks, length);
  } finally {
    closeSync(fd);
  }
}

const READ_CHUNK_BYTES = 64 * 1024;

/**
 * A file of the config folder, checked (checkConfigFile) and read within its limit: its text, or
 * undefined when there is none. More than the limit, whatever stat said, is the same UsageError.
 */
export function readConfigFile(
  file: string,
  warn?: (message: string) => void,
  limits: { what?: string; maxBytes?: number } = {},
): string | undefined {
  if (!checkConfigFile(file, warn, limits)) return undefined;
  const bytes = readAtMost(file, limits.maxBytes ?? MAX_CONFIG_FILE_BYTES);
  if (bytes === undefined) throw tooLarge(file, limits);
  return bytes.toString('utf8');
}

/** A file over its limit: its size when stat told it, else only that it holds more (a /proc file says 0). */
function tooLarge(file: string, limits: { what?: string; maxBytes?: number }, size?: number): UsageError {
  const maxBytes = limits.maxBytes ?? MAX_CONFIG_FILE_BYTES;
  return new UsageError(
    `${limits.what ?? 'config file'} ${file} is ${size === undefined ? '' : `${size} bytes, `}more than the ${maxBytes} ${limits.what ? 'it' : 'a config file'} may be`,
    limits.what ? 'move it away' : 'move it away and add your profiles again',
  );
}

/** Largest config.json read: profiles take a few hundred bytes each. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** A temporary file of our own this old was left by a process killed while writing. */
export const STALE_TEMP_MS = 10_000;

const checked = new Set<string>();

/** A new run checks its folders afresh (runtime.ts beginRun). */
export function forgetTrustedFolders(): void {
  checked.clear();
}

/**
 * The user's home folder: HOME of `env` (the user's profile folder on Windows), or, when it is
 * empty or relative (a cron job or a service may run so), the one the system names for this user
 * ('' when it names none). `systemHome` is the system's answer (a test hands one in).
 */
export function homeFolder(
  env: Record<string, string | undefined> = process.env,
  systemHome: () => string = () => userInfo().homedir,
): string {
  const home = process.platform === 'win32' ? homedir() : (env.HOME ?? '');
  if (isAbsolute(home)) return home;
  try {
    return systemHome();
  } catch {
    return '';
  }
}

function myUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'error';
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a link';
  return 'a file';
}

function writers(mode: number): string | undefined {
  const group = (mode & 0o020) !== 0;
  const others = (mode & 0o002) !== 0;
  return group && others ? 'group and others' : group ? 'its group' : others ? 'others' : undefined;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Ownership and write permission, as ssh's StrictModes checks them. */
function checkOwner(what: string, path: string, stats: Stats, fix: string): void {
  const uid = myUid();
  if (uid !== undefined && stats.uid !== uid) {
    throw new UsageError(
      `${what} ${path} belongs to another user (uid ${stats.uid}), so it is not used`,
      `use a folder of your own (MON_CONFIG_DIR), or make it yours: chown ${uid} ${path}`,
    );
  }
  const who = uid === undefined ? undefined : writers(stats.mode);
  if (who)
    throw new UsageError(
      `${what} ${path} can be written by ${who} (mode ${octal(stats.mode)}), so it is not used`,
      `run \`${fix}\``,
    );
}

/** stat() that tells a missing path from a link to a missing one. */
function statOf(path: string, what: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if (code(error) !== 'ENOENT' && code(error) !== 'ENOTDIR')
      throw new UsageError(`${what} ${path} cannot be read (${code(error)})`);
    let link: string | undefined;
    try {
      link = lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
    } catch {
      link = undefined;
    }
    if (link !== undefined)
      throw new UsageError(
        `${what} ${path} is a link to ${link}, which does not exist`,
        'remove the link or point MON_CONFIG_DIR at a folder',
      );
    if (code(error) === 'ENOTDIR')
      throw new UsageError(
        `${what} ${path} is inside something that is not a folder`,
        'point MON_CONFIG_DIR at a folder',
      );
    return undefined;
  }
}

/**
 * Creates the config folder (0700, one level at a time: Node's recursive mkdir spins for ever
 * under /proc) or checks the one there: a folder, this user's, not writable by group or others.
 * Refusals are UsageErrors (exit 2) that say why and how to fix it. Checked once per process.
 * With `optional`, a folder that cannot be created is no error: false (the rate ledger then
 * keeps the budget in the process).
 */
export function ensureConfigDir(dir: string, options: { optional?: boolean; home?: string } = {}): boolean {
  if (checked.has(dir)) return true;
  const what = 'config folder';
  let stats = statOf(dir, what);
  if (!stats) {
    const missing: string[] = [];
    let at = dir;
    while (!statOf(at, what)) {
      missing.unshift(at);
      const up = dirname(at);
      if (up === at) break;
      at = up;
    }
    for (const level of missing) {
      // A home folder that does not exist is not mon's to create (HOME pointing at a folder
      // not mounted yet, or a service user's): the ledger then stays in memory (`optional`).
      if (level === (options.home ?? homeFolder())) {
        if (options.optional) return false;
        throw new UsageError(
          `cannot create ${what} ${dir}: the home folder ${level} does not exist, and mon does not create it`,
          'set MON_CONFIG_DIR to a folder you can write',
        );
      }
      try {
        mkdirSync(level, { mode: 0o700 });
      } catch (error) {
        if (code(error) === 'EEXIST') continue;
        if (options.optional) return false;
        throw new UsageError(
          `cannot create ${what} ${dir} (${code(error)} at ${level})`,
          'set MON_CONFIG_DIR to a folder you can write',
        );
      }
    }
    stats = statOf(dir, what)!;
  }
  if (!stats.isDirectory())
    throw new UsageError(
      `${what} ${dir} is not a folder (it is ${kindOf(stats)})`,
      'point MON_CONFIG_DIR at a folder, or move that file away',
    );
  checkOwner(what, dir, stats, `chmod 700 ${dir}`);
  // A link or another user's folder planted where mon keeps the rate ledger would take its writes elsewhere.
  checkPrivateFolder(join(dir, 'rate'), 'rate ledger folder');
  checked.add(dir);
  return true;
}

/**
 * A folder mon keeps its own files in, inside the config folder (rate/, changes/…): when it
 * exists, a real folder (not a link), this user's, not writable by group or others; with
 * `create`, made (0700, one level) when missing. Returns whether it exists.
 */
export function checkPrivateFolder(path: string, what: string, options: { create?: boolean } = {}): boolean {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path);
  } catch {
    stats = undefined;
  }
  if (!stats) {
    if (!options.create) return false;
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if (code(error) !== 'EEXIST')
        throw new UsageError(
          `cannot create ${what} ${path} (${code(error)})`,
          'set MON_CONFIG_DIR to a folder you can write',
        );
    }
    stats = lstatSync(path);
  }
  if (!stats.isDirectory())
    throw new UsageError(`${what} ${path} is not a folder (it is ${kindOf(stats)})`, `remove it: mon makes it again`);
  checkOwner(what, path, stats, `chmod 700 ${path}`);
  return true;
}

/**
 * Checks a file of the config folder before it is read: false when there is none; a UsageError
 * when it is not a regular file of this user's, is writable by others or is too large. A file
 * others can read (a key in it) is tightened to 0600 at once, with one warning through `warn`.
 */
export function checkConfigFile(
  file: string,
  warn?: (message: string) => void,
  limits: { what?: string; maxBytes?: number } = {},
): boolean {
  const what = limits.what ?? 'config file';
  const maxBytes = limits.maxBytes ?? MAX_CONFIG_FILE_BYTES;
  const stats = statOf(file, what);
  if (!stats) return false;
  if (!stats.isFile())
    throw new UsageError(
      `${what} ${file} is not a regular file (it is ${kindOf(stats)})`,
      'move it away; mon writes that file itself',
    );
  checkOwner(what, file, stats, `chmod 600 ${file}`);
  if (stats.size > maxBytes) throw tooLarge(file, limits, stats.size);
  if (myUid() !== undefined && (stats.mode & 0o077) !== 0) {
    try {
      chmodSync(file, 0o600);
      warn?.(
        `mon: warning: ${what} ${file} was readable by others (mode ${octal(stats.mode)}); it is now 0600 — if others could read it, replace the keys it holds`,
      );
    } catch (error) {
      warn?.(
        `mon: warning: ${what} ${file} is readable by others (mode ${octal(stats.mode)}) and could not be tightened (${code(error)}): run \`chmod 600 ${file}\``,
      );
    }
  }
  return true;
}

/**
 * Removes temporary files of our own left beside `file` by a process killed while writing it:
 * names in the same folder that `temp` accepts (a RegExp will do), older than {@link STALE_TEMP_MS}, so a write in
 * progress in another process is left alone. Best effort.
 */
export function removeStaleTemps(file: string, temp: { test(name: string): boolean }, now = Date.now()): void {
  const dir = dirname(file);
  try {
    for (const name of readdirSync(dir)) {
      if (!temp.test(name)) continue;
      const path = join(dir, name);
      const stats = lstatSync(path);
      if (stats.isFile() && now - stats.mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
    }
  } catch {
    // the folder went away or cannot be listed: nothing to tidy
  }
}
