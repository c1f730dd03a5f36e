import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { UsageError } from '../errors.js';

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

/** The only code that touches conf. Files 0600, folder 0700 (cli-contract.md, Behaviour). */
export class ProfileStore {
  private readonly conf: Conf<StoreShape>;

  constructor(readonly dir: string) {
    // conf would create the folder with the umask's mode; profiles hold keys, so create it 0700.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
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
      throw new UsageError(
        `config file ${join(dir, 'config.json')} is not valid JSON (${(error as Error).message.split('\n')[0]})`,
        'fix the file by hand, or move it away and add your profiles again',
      );
    }
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
    this.conf.set('profiles', { ...this.list(), [name]: profile });
    if (!this.defaultName || !this.get(this.defaultName)) this.conf.set('defaultProfile', name);
    this.tighten();
  }

  use(name: string): void {
    this.conf.set('defaultProfile', name);
    this.tighten();
  }

  remove(name: string): void {
    const { [name]: _removed, ...rest } = this.list();
    this.conf.set('profiles', rest);
    if (this.defaultName === name) {
      const next = Object.keys(rest)[0];
      if (next) this.conf.set('defaultProfile', next);
      else this.conf.delete('defaultProfile');
    }
    this.tighten();
  }

  /** A file created before mode 0600 was enforced (or by hand) is tightened on every write. */
  private tighten(): void {
    chmodSync(this.conf.path, 0o600);
  }
}
