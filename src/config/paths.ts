import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { stateFileName, type SandboxIdentity } from './sandbox-identity.js';
import { ensureConfigDir, homeFolder } from './trust.js';

/** The config folder's name in the platform's config folder: conf's project name and default suffix. */
const CONFIG_NAME = 'mon-nodejs';

/**
 * The platform's config folder for mon, as env-paths (which conf uses) names it, from `env` and
 * `home` (env-paths reads the HOME the process started with; main() is handed its environment).
 */
function platformConfigDir(env: Record<string, string | undefined>, home: string): string {
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', CONFIG_NAME);
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), CONFIG_NAME, 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), CONFIG_NAME);
}

/**
 * The folder that holds profiles and the sandbox's state: MON_CONFIG_DIR, or the platform's
 * config folder exactly as conf would choose it (env-paths with conf's default suffix), so the
 * path is known without loading conf. `systemHome` is the home folder the system names for this
 * user (a test hands one in).
 */
export function configDir(env: Record<string, string | undefined>, systemHome?: () => string): string {
  const override = env.MON_CONFIG_DIR;
  if (override) {
    // Quoted in a crontab or a unit file, ~ is not expanded: it would be a folder named '~'.
    if (override === '~' || override.startsWith('~/')) {
      throw new UsageError(
        `MON_CONFIG_DIR: '${override}' starts with ~, which no shell expanded here`,
        'give the full path, e.g. MON_CONFIG_DIR="$HOME/.config/mon"',
      );
    }
    // A relative folder is made absolute once, from the folder mon starts in, for every message.
    return resolve(override);
  }
  const found = platformConfigDir(env, process.platform === 'win32' ? homedir() : (env.HOME ?? ''));
  if (isAbsolute(found)) return found;
  // An empty HOME (or a relative XDG_CONFIG_HOME) makes that path relative: it would be found from
  // the current folder, which a cron job or a service may have anywhere. It is found from the
  // home folder the system gives this user instead.
  const home = homeFolder(env, systemHome);
  if (!isAbsolute(home))
    throw new UsageError(
      `no home folder to keep mon's config in: HOME is empty and the system names none for this user (the path would be ${found}, in the current folder)`,
      'set HOME, or MON_CONFIG_DIR to a folder of your own',
    );
  return resolve(home, found);
}

/**
 * The file a sandbox keeps its state in, beside the profiles, once the folder is found
 * trustworthy: one file for each set of demo data (src/sandbox/identity.ts).
 */
/** The sandbox's local CA (`mon sandbox serve --tls`, src/sandbox/tls.ts): its certificate and its key (0600). */
export const SANDBOX_CA_CERT = 'sandbox-ca.pem';
export const SANDBOX_CA_KEY = 'sandbox-ca-key.pem';

/** The local CA's certificate when the config folder has one. */
export function sandboxCaCert(configDir: string): string | undefined {
  try {
    return readFileSync(join(configDir, SANDBOX_CA_CERT), 'utf8');
  } catch {
    return undefined;
  }
}

export function sandboxStateFile(configDir: string, identity: SandboxIdentity = {}): string {
  ensureConfigDir(configDir);
  return join(configDir, stateFileName(identity));
}

/**
 * What a profile may be named: letters, digits, '.', '_' and '-', starting with a letter or
 * digit. `profile add` accepts nothing else, and the completion scripts print nothing else.
 */
export const PROFILE_NAME = /^[A-Za-z0-9][\w.-]*$/;

/**
 * A sandbox that could not read or write its state in the config folder (EACCES, EROFS, ENOSPC):
 * exit 2 naming the folder, as for the config file; undefined for any other failure.
 */
export function sandboxStateError(error: unknown, configDir: string): UsageError | undefined {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code) || syscall === 'listen') return undefined;
  return new UsageError(
    `cannot keep the sandbox's state in ${configDir} (${code})`,
    `check that you can write ${configDir} (ls -ld ${configDir})`,
  );
}
