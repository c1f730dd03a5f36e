import { join } from 'node:path';
import Conf from 'conf';
import { UsageError } from '../errors.js';
import { checkConfigFile, ensureConfigDir, removeStaleTemps } from './trust.js';

/** One saved account: where the API lives and the key that opens it. */
export interface Profile {
  baseUrl: string;
  apiKey: string;
  subdomain?: string;
  domain?: string;
}

interface StoreShape {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

const FIX_BY_HAND = 'fix the file by hand, or move it away and add your profiles again';

/**
 * The only code that touches conf. Files 0600, folder 0700 (cli-contract.md, Behaviour); the
 * folder and the file are checked before use (see trust.ts), and every problem with them is a
 * UsageError naming the path and what is wrong (exit 2).
 */
export class ProfileStore {
  private readonly conf: Conf<StoreShape>;
  private readonly file: string;

  /** `warn` takes the one-time warning about a file others could read (silent with -q). */
  constructor(
    readonly dir: string,
    warn?: (message: string) => void,
  ) {
    ensureConfigDir(dir);
    this.file = join(dir, 'config.json');
    checkConfigFile(this.file, warn);
    try {
      this.conf = new Conf<StoreShape>({
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
        throw new UsageError(`config file ${this.file} is not valid JSON (${error.message.split('\n')[0]})`, FIX_BY_HAND);
      }
      throw this.fsError('read', error);
    }
    this.checkShape();
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

  save(name: string, profile: Profile): void {
    this.write(() => {
      this.conf.set('profiles', { ...this.list(), [name]: profile });
      if (!this.defaultName || !this.get(this.defaultName)) this.conf.set('defaultProfile', name);
    });
  }

  use(name: string): void {
    this.write(() => this.conf.set('defaultProfile', name));
  }

  remove(name: string): void {
    this.write(() => {
      const { [name]: _removed, ...rest } = this.list();
      this.conf.set('profiles', rest);
      if (this.defaultName === name) {
        const next = Object.keys(rest)[0];
        if (next) this.conf.set('defaultProfile', next);
        else this.conf.delete('defaultProfile');
      }
    });
  }

  /**
   * Every write: first the temporaries a killed write left (conf writes `config.json.tmp-…`,
   * a full copy of every key), then the change; a folder that cannot be written is exit 2.
   */
  private write(change: () => void): void {
    removeStaleTemps(this.file, /^config\.json\.tmp-\w+$/);
    try {
      change();
    } catch (error) {
      throw this.fsError('write', error);
    }
  }

  /** An error of the file system (EACCES, EROFS, ENOSPC…) as exit 2 naming the file; anything else as it is. */
  private fsError(verb: 'read' | 'write', error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
    return new UsageError(`cannot ${verb} config file ${this.file} (${code})`, `check that you can ${verb} ${this.dir} (ls -ld ${this.dir})`);
  }

  /** What the rest of mon takes for granted about the file, checked once: else exit 2 naming what is wrong. */
  private checkShape(): void {
    const store = this.conf.store as unknown as Record<string, unknown>;
    const wrong = (what: string) => new UsageError(`config file ${this.file}: ${what}`, FIX_BY_HAND);
    const { profiles, defaultProfile } = store;
    if (defaultProfile !== undefined && typeof defaultProfile !== 'string') throw wrong('defaultProfile is not a string');
    if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) throw wrong('profiles is not an object');
    for (const [name, profile] of Object.entries(profiles)) {
      if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) throw wrong(`profile ${JSON.stringify(name)} is not an object`);
      const fields = profile as Record<string, unknown>;
      for (const key of ['baseUrl', 'apiKey']) {
        if (typeof fields[key] !== 'string' || fields[key] === '') throw wrong(`${key} of profile ${JSON.stringify(name)} is not a non-empty string`);
      }
      for (const key of ['subdomain', 'domain']) {
        if (fields[key] !== undefined && typeof fields[key] !== 'string') throw wrong(`${key} of profile ${JSON.stringify(name)} is not a string`);
      }
    }
  }
}
