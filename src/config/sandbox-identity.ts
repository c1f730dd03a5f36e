/**
 * Which demo data a sandbox serves, and so which state file holds it: the default data (seed 1,
 * 40 computers) in `sandbox.json`; another size, seed or demo account in a file of its own
 * (`sandbox-<account>-<n>c-s<seed>.json`). A sandbox started with other data never replaces
 * what other sandboxes are serving. Small on purpose: the config paths load it at start-up.
 */
export const DEFAULT_SEED = 1;
export const DEFAULT_COMPUTERS = 40;

/** What `--account` accepts: it names a file and goes into the key. */
export const DEMO_ACCOUNT_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

export interface SandboxIdentity {
  /** A demo account of its own (`mon sandbox --account NAME`): own data, own key. */
  account?: string;
  computers?: number;
  seed?: number;
}

/** A demo account's seed, unless one is given: two accounts never serve the same data. */
export function seedOf(identity: SandboxIdentity): number {
  if (identity.seed !== undefined) return identity.seed;
  if (identity.account === undefined) return DEFAULT_SEED;
  return fnv1a(`seed:${identity.account}`) % 2_000_000_000;
}

/** The primary key of a demo account's sandbox (the default one keeps the documented key). */
export function demoAccountKey(account: string): string {
  const hex = (text: string) => fnv1a(text).toString(16).padStart(8, '0');
  return `sbx_live_${account.replaceAll('-', '_')}_${(hex(`key:${account}`) + hex(`key2:${account}`)).slice(0, 12)}`;
}

/** The state file's name (no folder): `sandbox.json` for the default data. */
export function stateFileName(identity: SandboxIdentity): string {
  const parts = ['sandbox'];
  if (identity.account !== undefined) parts.push(identity.account);
  if (identity.computers !== undefined && identity.computers !== DEFAULT_COMPUTERS)
    parts.push(`${identity.computers}c`);
  if (identity.seed !== undefined && identity.seed !== seedOf({ ...identity, seed: undefined }))
    parts.push(`s${identity.seed}`);
  return `${parts.join('-')}.json`;
}

/** Every state file name a sandbox may have written (`mon sandbox reset --all`). */
export const STATE_FILE_NAME = /^sandbox(-[a-z0-9-]+)?\.json$/;

/** FNV-1a, 32 bits: demo data and demo keys need spread, not secrecy (and start-up loads no crypto). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
