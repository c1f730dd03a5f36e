import { accessSync, constants, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { UsageError } from '../errors.js';
import { acquireLock, BRIEF_LOCK, writeFileAtomic } from './files.js';
import { checkShape, notJson, readProfiles, type Profile, type ProfileReader, type StoreShape } from './profiles.js';
import { readConfigFile } from './trust.js';

export type { Profile } from './profiles.js';

/** What of conf's class its every write goes through: `_write` and `_serialize` are declared private in its types. */
interface ConfWriting {
  _write(value: unknown): void;
  _serialize(value: unknown): string;
  readonly path: string;
}

/**
 * conf, with its file written by mon's one atomic writer (writeFileAtomic, config/files.ts)
 * instead of conf's own: a profile write killed half-way then leaves the temporary that every
 * state file of mon leaves, which that writer clears on its next write, and nothing of conf's.
 * conf changes its file only through `_write` (set, delete, and the defaults it writes on first
 * use): checked here, and test/resilience/config-trust.test.ts fails if a write bypasses it.
 */
class ProfileConf extends Conf<StoreShape> {}
if (typeof (Conf.prototype as unknown as Partial<ConfWriting>)._write !== 'function') {
  throw new Error('conf no longer writes through _write: this version of conf is not supported (see src/config/store.ts)');
}
Object.defineProperty(ProfileConf.prototype, '_write', {
  value(this: ConfWriting, value: unknown) {
    // Durable (fsync before the rename): a power cut must not leave an empty profile file.
    writeFileAtomic(this.path, this._serialize(value), { durable: true });
  },
});

/**
 * The only code that touches conf. Files 0600, folder 0700 (cli-contract.md, Behaviour); the
 * folder and the file are checked before use (see trust.ts), and every problem with them is a
 * UsageError naming the path and what is wrong (exit 2).
 */
export class ProfileStore implements ProfileReader {
  private readonly conf: ProfileConf;
  private readonly file: string;

  /** `warn` takes the one-time warning about a file others could read (silent with -q). */
  constructor(
    readonly dir: string,
    warn?: (message: string) => void,
  ) {
    // The file checked as a command that only reads it checks it (conf would take `[1,2]` for
    // the object {0: 1, 1: 2} and write that back).
    readProfiles(dir, warn);
    this.file = join(dir, 'config.json');
    // An empty file holds no settings, as readProfiles reads it; conf would call it broken JSON.
    if (existsSync(this.file) && readConfigFile(this.file)?.trim() === '') rmSync(this.file);
    try {
      this.conf = new ProfileConf({
        cwd: dir,
        configName: 'config',
        projectName: 'mon',
        configFileMode: 0o600,
        defaults: { profiles: {} },
        // Dots are legal in profile names; never read them as paths.
        accessPropertiesByDotNotation: false,
      });
    } catch (error) {
      if (error instanceof SyntaxError) {
        throw notJson(this.file, error);
      }
      // conf writes the file when it finds none: only a file that is there and cannot be read
      // failed the read.
      throw this.fsError(unreadable(this.file) ? 'read' : 'write', error);
    }
    checkShape(this.file, this.conf.store);
  }

  get path(): string {
    return this.conf.path;
  }

  list(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }

  get(name: string): Profile | undefined {
    return Object.hasOwn(this.list(), name) ? this.list()[name] : undefined;
  }

  get defaultName(): string | undefined {
    return this.conf.get('defaultProfile');
  }

  /**
   * Saves a profile. Only the first profile of an empty store becomes the default by itself:
   * once the default has been removed, the next one saved must not take its place unasked (a
   * cron job without -p would go on against another customer's account).
   */
  save(name: string, profile: Profile): Promise<void> {
    return this.write(() => {
      const first = Object.keys(this.list()).length === 0;
      this.conf.set('profiles', { ...this.list(), [name]: profile });
      if (first) this.conf.set('defaultProfile', name);
    });
  }

  use(name: string): Promise<void> {
    return this.write(() => this.conf.set('defaultProfile', name));
  }

  /**
   * Forgets a profile. The default one leaves no default behind: a cron job without -p then
   * stops at "no profile" rather than going on against another customer's account.
   */
  remove(name: string): Promise<void> {
    return this.write(() => {
      const { [name]: _removed, ...rest } = this.list();
      this.conf.set('profiles', rest);
      if (this.defaultName === name) this.conf.delete('defaultProfile');
    });
  }

  /**
   * Every write, under a lock of the file: conf reads, changes and writes it whole, so two
   * `profile add` at once each wrote the file without the other's profile. A folder that cannot
   * be written is exit 2.
   */
  private async write(change: () => void): Promise<void> {
    let lock;
    try {
      // Bounded by BRIEF_LOCK (10 s); Ctrl-C ends the process after its grace meanwhile.
      lock = await acquireLock(`${this.file}.lock`, { ...BRIEF_LOCK, signal: new AbortController().signal });
    } catch (error) {
      throw this.fsError('write', error);
    }
    try {
      change();
    } catch (error) {
      throw this.fsError('write', error);
    } finally {
      lock.release();
    }
  }

  /** An error of the file system (EACCES, EROFS, ENOSPC…) as exit 2 naming the file; anything else as it is. */
  private fsError(verb: 'read' | 'write', error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
    return new UsageError(`cannot ${verb} config file ${this.file} (${code})`, `check that you can ${verb} ${this.dir} (ls -ld ${this.dir})`);
  }
}

/** Whether `file` is there and this user may not read it. */
function unreadable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
