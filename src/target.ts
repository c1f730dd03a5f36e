import { UsageError } from './errors.js';
import { PROFILE_NAME } from './config/paths.js';
import { quoted } from './text/escape.js';
import { keyFlaw } from './api/redact.js';
import type { ProfileReader } from './config/profiles.js';
import type { Account, Context, GlobalOptions, Target } from './context.js';

/**
 * The account as a report or a metric names it: the profile's name (across accounts too), or
 * the base URL's host (`sandbox` for --sandbox).
 */
export async function accountName(ctx: Context): Promise<string> {
  return (await ctx.target()).account.key.replace(/^@/, '');
}

/**
 * Whose account a context works on: the command line's (--sandbox, --base-url, -p and the
 * environment, else the default profile), or one saved profile by name — one account of many
 * (--profiles, --all-profiles, `metrics serve`'s reads) or `profile test NAME`.
 */
export type TargetChoice = { commandLine: true } | { savedProfile: string };

export const COMMAND_LINE: TargetChoice = { commandLine: true };

/**
 * The rule for a profile named by mon rather than by -p: it is the saved profile alone, its own
 * base URL with its own key. Neither MON_API_KEY nor MON_BASE_URL (nor --base-url, --sandbox)
 * applies, so the key in the environment is never sent to another account's URL, nor the
 * profile's key to a URL the environment names.
 */
export function targetOf(
  choice: TargetChoice,
  globals: GlobalOptions,
  env: Record<string, string | undefined>,
  profiles: () => Promise<ProfileReader>,
): Promise<Target> {
  if ('commandLine' in choice) return chooseTarget(globals, env, profiles);
  return chooseTarget(
    { ...globals, sandbox: false, baseUrl: undefined, accounts: undefined, profile: choice.savedProfile },
    {},
    profiles,
  );
}

const NO_ACCOUNT_HINT =
  'run `mon profile add <name> --subdomain <subdomain> --domain <service-domain>`, or try `mon --sandbox …`';

/**
 * The one choice of account and endpoint: --sandbox, else a base URL (flag or MON_BASE_URL) with
 * MON_API_KEY and no profile, else the profile in effect (--profile, MON_PROFILE, the default),
 * whose base URL and key the flag and the environment may override. The saved profiles are read
 * only when the environment does not already say everything (cron jobs often set both).
 */
export async function chooseTarget(
  globals: GlobalOptions,
  env: Record<string, string | undefined>,
  profiles: () => Promise<ProfileReader>,
): Promise<Target> {
  if (globals.sandbox) return { account: { key: '@sandbox', label: '--sandbox' }, endpoint: 'sandbox' };
  const envKey = env.MON_API_KEY || undefined;
  const flaw = envKey === undefined ? undefined : keyFlaw(envKey);
  if (flaw) throw new UsageError(`MON_API_KEY ${flaw}`, 'set it to the key alone, e.g. MON_API_KEY="$(cat key-file)"');
  const urlSource = env.MON_BASE_URL && globals.baseUrl === env.MON_BASE_URL ? 'MON_BASE_URL' : '--base-url';
  if (globals.baseUrl && envKey && !globals.profile) {
    return {
      account: accountOfUrl(globals.baseUrl),
      endpoint: { baseUrl: globals.baseUrl, baseUrlSource: urlSource, apiKey: envKey },
    };
  }
  const store = await profiles();
  const name = globals.profile ?? store.defaultName;
  const profile = name === undefined ? undefined : store.get(name);
  if (name !== undefined && !profile && globals.profile !== undefined) {
    const known = Object.keys(store.list());
    throw new UsageError(
      `no profile named ${quoted(name)}${known.length ? ` (saved: ${known.join(', ')})` : ''}`,
      `add it with \`mon profile add ${name} --subdomain <subdomain> --domain <service-domain>\``,
    );
  }
  // A default that names a profile no longer saved (config.json edited by hand) is said as such.
  if (name !== undefined && !profile && !globals.baseUrl && !envKey) {
    const known = Object.keys(store.list());
    throw new UsageError(
      `the default profile ${quoted(name)} is not saved${known.length ? ` (saved: ${known.join(', ')})` : ''}`,
      known.length ? 'choose one with `mon profile use <name>`' : NO_ACCOUNT_HINT,
    );
  }
  const baseUrl = globals.baseUrl ?? profile?.baseUrl;
  const apiKey = envKey ?? profile?.apiKey;
  const saved = Object.keys(store.list());
  if (!baseUrl && !apiKey && saved.length > 0) {
    throw new UsageError(
      `no default profile, and none given (saved: ${saved.join(', ')})`,
      'give one with -p <name>, or make one the default with `mon profile use <name>`',
    );
  }
  if (!baseUrl || !apiKey) {
    throw new UsageError(
      !baseUrl && !apiKey
        ? 'no profile: nothing says which account to use'
        : !apiKey
          ? 'no API key: set MON_API_KEY or save a profile'
          : 'no base URL: set MON_BASE_URL or save a profile',
      NO_ACCOUNT_HINT,
    );
  }
  // Saved profiles are named by PROFILE_NAME, which no account of a base URL starts like ('@').
  // A profile with --base-url pointing elsewhere is another account: its own Tab names, states.
  const account =
    profile && PROFILE_NAME.test(name!) && baseUrl === profile.baseUrl
      ? { key: name!, label: name! }
      : accountOfUrl(baseUrl);
  return { account, endpoint: { baseUrl, baseUrlSource: globals.baseUrl ? urlSource : `profile ${name}`, apiKey } };
}

/** A base URL given without a profile, as an account: `@<host>`, safe as a file name. */
function accountOfUrl(baseUrl: string): Account {
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    // refused as a base URL before anything is sent; the text itself still names the account
  }
  return { key: `@${host.replace(/[^\w.-]/g, '_')}`, label: baseUrl };
}
