import { accessSync, constants, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { UsageError } from '../errors.js';
import { acquireLock, BRIEF_LOCK } from './files.js';
import { checkShape, notJson, readProfiles, type Profile, type ProfileReader, type StoreShape } from './profiles.js';
import { readConfigFile } from './trust.js';

export type { Profile } from './profiles.js';

/**
 * The only code that touches conf, through its published API: conf writes the file atomically
 * (a temporary beside it, fsync, rename) with `configFileMode` 0600, so a write killed half-way
 * leaves the old file whole and at most a 0600 temporary in the 0700 folder. Folder 0700; the
 * folder and the file are checked before use (see trust.ts), and every problem with them is a
 * UsageError naming the path and what is wrong (exit 2).
 */
export class ProfileStore implements ProfileReader {
  /** conf, open only while a write holds the file's lock (see write()). */
  private conf: Conf<StoreShape> | undefined;
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
  }

  get path(): string {
    return this.file;
  }

  list(): Record<string, Profile> {
    return this.conf ? (this.conf.get('profiles') ?? {}) : readProfiles(this.dir).list();
  }

  get(name: string): Profile | undefined {
    return Object.hasOwn(this.list(), name) ? this.list()[name] : undefined;
  }

  get defaultName(): string | undefined {
    return this.conf ? this.conf.get('defaultProfile') : readProfiles(this.dir).defaultName;
  }

  /**
   * Saves a profile. Only the first profile of an empty store becomes the default by itself:
   * once the default has been removed, the next one saved must not take its place unasked (a
   * cron job without -p would go on against another customer's account).
   */
  save(name: string, profile: Profile): Promise<void> {
    return this.write(() => {
      const first = Object.keys(this.list()).length === 0;
      this.conf!.set('profiles', { ...this.list(), [name]: profile });
      if (first) this.conf!.set('defaultProfile', name);
    });
  }

  /** Changes some fields of a saved profile, read and written under the file's lock; undefined removes a field. */
  update(name: string, patch: Partial<Profile>): Promise<void> {
    return this.write(() => {
      const saved = this.get(name);
      if (!saved) return;
      const next: Record<string, unknown> = { ...saved, ...patch };
      for (const [key, value] of Object.entries(patch)) if (value === undefined) delete next[key];
      this.conf!.set('profiles', { ...this.list(), [name]: next as unknown as Profile });
    });
  }

  use(name: string): Promise<void> {
    return this.write(() => this.conf!.set('defaultProfile', name));
  }

  /**
   * Forgets a profile. The default one leaves no default behind: a cron job without -p then
   * stops at "no profile" rather than going on against another customer's account.
   */
  remove(name: string): Promise<void> {
    return this.write(() => {
      const { [name]: _removed, ...rest } = this.list();
      this.conf!.set('profiles', rest);
      if (this.defaultName === name) this.conf!.delete('defaultProfile');
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
      this.conf = this.openConf();
      change();
    } catch (error) {
      throw this.fsError('write', error);
    } finally {
      this.conf = undefined;
      lock.release();
    }
  }

  /**
   * conf over the file as it is now. Opened under the lock only: conf writes its defaults when it
   * finds no file, which outside the lock could overwrite a profile another process just saved.
   */
  private openConf(): Conf<StoreShape> {
    // An empty file holds no settings, as readProfiles reads it; conf would call it broken JSON.
    if (existsSync(this.file) && readConfigFile(this.file)?.trim() === '') rmSync(this.file);
    let conf: Conf<StoreShape>;
    try {
      conf = new Conf<StoreShape>({
        cwd: this.dir,
        configName: 'config',
        projectName: 'mon',
        configFileMode: 0o600,
        defaults: { profiles: {} },
        // Dots are legal in profile names; never read them as paths.
        accessPropertiesByDotNotation: false,
      });
    } catch (error) {
      if (error instanceof SyntaxError) throw notJson(this.file, error);
      // conf writes the file when it finds none: only a file that is there and cannot be read
      // failed the read.
      throw this.fsError(unreadable(this.file) ? 'read' : 'write', error);
    }
    checkShape(this.file, conf.store);
    return conf;
  }

  /** An error of the file system (EACCES, EROFS, ENOSPC…) as exit 2 naming the file; anything else as it is. */
  private fsError(verb: 'read' | 'write', error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
    return new UsageError(
      `cannot ${verb} config file ${this.file} (${code})`,
      `check that you can ${verb} ${this.dir} (ls -ld ${this.dir})`,
    );
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
