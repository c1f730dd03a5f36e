import { join } from 'node:path';
import envPaths from 'env-paths';
import { stateFileName, type SandboxIdentity } from './sandbox-identity.js';
import { ensureConfigDir } from './trust.js';

/**
 * The folder that holds profiles and the sandbox's state: MON_CONFIG_DIR, or the platform's
 * config folder exactly as conf would choose it (env-paths with conf's default suffix), so the
 * path is known without loading conf.
 */
export function configDir(env: Record<string, string | undefined>): string {
  const override = env.MON_CONFIG_DIR;
  if (override) return override;
  return envPaths('mon', { suffix: 'nodejs' }).config;
}

/**
 * The file a sandbox keeps its state in, beside the profiles, once the folder is found
 * trustworthy: one file for each set of demo data (src/sandbox/identity.ts).
 */
export function sandboxStateFile(configDir: string, identity: SandboxIdentity = {}): string {
  ensureConfigDir(configDir);
  return join(configDir, stateFileName(identity));
}

/**
 * What a profile may be named: letters, digits, '.', '_' and '-', starting with a letter or
 * digit. `profile add` accepts nothing else, and the completion scripts print nothing else.
 */
export const PROFILE_NAME = /^[A-Za-z0-9][\w.-]*$/;
