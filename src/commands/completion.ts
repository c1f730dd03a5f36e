import { join } from 'node:path';
import { PROFILE_NAME } from '../config/paths.js';
import type { Context } from '../context.js';
import type { ResourceSpec, VerbSpec } from '../spec/spec.js';
// fs.promises, read when used: node:fs/promises loaded at start-up costs every command about
// 18 M instructions (Node 22; 26 M on Node 24), 6% of one request.
import { promises as fsPromises } from 'node:fs';
import { checkConfigFile } from '../config/trust.js';

/** Where each shell looks for completions: `mon completion <shell> --help` and docs/commands.md (generated) show them. */
const INSTALL = {
  bash: 'mon completion bash > ~/.local/share/bash-completion/completions/mon',
  zsh: 'mon completion zsh > "${fpath[1]}/_mon"',
  fish: 'mon completion fish > ~/.config/fish/completions/mon.fish',
} as const;

type Shell = keyof typeof INSTALL;

const DETAILS: Record<Shell, string> = {
  bash: `Install it where bash-completion looks for it, then open a new shell:
  ${INSTALL.bash}
Without the bash-completion package, source it from ~/.bashrc instead:
  source <(mon completion bash)`,
  zsh: `Install it as _mon in a directory on $fpath, before compinit runs in ~/.zshrc, then open a new shell:
  mkdir -p ~/.zfunc && mon completion zsh > ~/.zfunc/_mon
  # in ~/.zshrc, before compinit:  fpath=(~/.zfunc $fpath)
Or, with compinit already loaded, for the current shell only:
  source <(mon completion zsh)`,
  fish: `Install it where fish looks for completions; new shells pick it up:
  ${INSTALL.fish}`,
};

function shellVerb(shell: Shell): VerbSpec {
  return {
    name: shell,
    jsonOutput: false,
    summary: `Print the ${shell} completion script`,
    description: `${DETAILS[shell]}

${[
  'The script completes commands, aliases, options and their choices as of this version of mon;',
  "saved profile names are read when you press Tab, and so are the account's group names, computer",
  'client ids, plugin names and note and expiration uids, from a cache in the config folder that a',
  'Tab refreshes in the background once older than MON_COMPLETION_TTL (default 300 s): a Tab never',
  'waits for the API. Regenerate the script after upgrading mon.',
  // One line: help wraps a paragraph to the width it prints at (a line break kept here would
  // be wrapped again, leaving ragged lines).
].join(' ')}`,
    examples: [INSTALL[shell]],
    async run(_input, ctx) {
      const { completionScript } = await import('../completion/scripts.js');
      ctx.io.stdout.write(completionScript(shell, ctx.program));
    },
  };
}

/** `mon completion bash|zsh|fish` (docs/design/cli-contract.md, Tools): the scripts are generated from the command tree. */
export const completion: ResourceSpec = {
  name: 'completion',
  wholeTree: true,
  summary: 'Print the completion script for bash, zsh or fish',
  examples: [INSTALL.bash, INSTALL.zsh, INSTALL.fish],
  verbs: [shellVerb('bash'), shellVerb('zsh'), shellVerb('fish')],
};

/** What `mon __complete` lists from the account (src/completion/live.ts NAME_KINDS; not imported: every command line loads this file). */
const LIVE_KINDS = new Set(['groups', 'computers', 'plugins', 'notes', 'expirations']);

/**
 * `mon __complete profiles`: the saved profile names, one a line, for the completion scripts to
 * run when Tab is pressed. Reads config.json directly rather than through conf (it runs on every
 * Tab), prints names only, never keys, and stays silent with exit 0 when there is nothing to read.
 */
export const completeHelper: VerbSpec = {
  name: '__complete',
  jsonOutput: false,
  hidden: true,
  summary:
    "Print values for the completion scripts (profiles, and the account's groups, computers, plugins, notes, expirations)",
  args: [
    {
      name: 'what',
      description: 'what to list: profiles, groups, computers, plugins, notes, expirations; refresh reads them afresh',
      optional: true,
    },
  ],
  examples: ['mon __complete profiles', 'mon __complete groups'],
  async run({ args }, ctx: Context) {
    if (args.what === 'refresh') return (await import('../completion/live.js')).refreshLiveNames(ctx);
    if (args.what !== undefined && LIVE_KINDS.has(args.what))
      return (await import('../completion/live.js')).printLiveNames(ctx, args.what as never);
    if (args.what !== 'profiles') return;
    const names = await savedProfileNames(ctx.configDir);
    if (names.length) ctx.io.stdout.write(`${names.join('\n')}\n`);
  },
};

/** The profile names in `<configDir>/config.json` ({ defaultProfile, profiles: { name: {...} } }), sorted; [] when unreadable. */
export async function savedProfileNames(configDir: string): Promise<string[]> {
  try {
    // Only a regular file of this user's, of a sane size: a FIFO there would hang every Tab.
    if (!checkConfigFile(join(configDir, 'config.json'))) return [];
    const config = JSON.parse(await fsPromises.readFile(join(configDir, 'config.json'), 'utf8')) as {
      profiles?: unknown;
    };
    const profiles = config.profiles;
    if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) return [];
    return Object.keys(profiles)
      .filter((name) => PROFILE_NAME.test(name))
      .sort();
  } catch {
    return [];
  }
}
