import { parseBaseUrl } from '../api/base-url.js';
import { keyFlaw } from '../api/redact.js';
import { PROFILE_NAME } from '../config/paths.js';
import type { Profile } from '../config/profiles.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { confirmDeletion } from '../io/confirm.js';
import { renderOptions, type View } from './view.js';
import { verb, WHOLE_LIST_OPTIONS, type ResourceSpec } from '../spec/spec.js';
import { quoted } from '../text/escape.js';
import { readUserInput } from '../io/user-input.js';
import { askLine } from '../io/prompt.js';
import { ChangeStates } from '../changes/state.js';
import { forgetHistory } from '../history/store.js';

const NAME_RULE = { type: 'text', max: 64, nonEmpty: true } as const;

/** The customer's name a report shows for the profile (never the profile's own name). */
const DISPLAY_NAME_OPTION = {
  flags: '--display-name <text>',
  description: 'the customer\'s name as reports show it, e.g. "Acme Design Ltd"',
  rule: { type: 'text', max: 200, nonEmpty: true },
} as const;

/** Shows that a key is there and which one, never the key: its last 4 characters at most. */
export function maskKey(key: string): string {
  return key.length >= 12 ? `****${key.slice(-4)}` : '****';
}

const PROFILE_VIEW: View = {
  columns: [
    { key: 'name' },
    { key: 'default', kind: 'bool' },
    { key: 'base_url', header: 'BASE URL' },
    { key: 'api_key', header: 'KEY' },
  ],
  fields: ['name', 'default', 'base_url', 'api_key', 'subdomain', 'domain', 'display_name'],
};

function shown(name: string, profile: Profile, isDefault: boolean): Record<string, unknown> {
  return {
    name,
    default: isDefault,
    base_url: profile.baseUrl,
    api_key: maskKey(profile.apiKey),
    ...(profile.subdomain ? { subdomain: profile.subdomain, domain: profile.domain } : {}),
    ...(profile.displayName ? { display_name: profile.displayName } : {}),
  };
}

function checkName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `<name>: ${quoted(name)} is not a profile name (letters, digits, '.', '_' and '-', starting with a letter or digit)`,
    );
  }
  return name;
}

/** The most --api-key-stdin reads: a key is a few dozen characters, and more is something else piped in. */
const API_KEY_MAX_BYTES = 4 << 10;

/** Reads the key: from stdin with --api-key-stdin, else from a hidden prompt on a terminal. */
async function readKey(ctx: Context, fromStdin: boolean): Promise<string> {
  const { stdin } = ctx.io;
  let key: string;
  if (fromStdin) {
    const text = await readUserInput(ctx, {
      option: '--api-key-stdin',
      path: '-',
      maxBytes: API_KEY_MAX_BYTES,
      tooLarge: 'the most an API key may be',
      hint: 'pipe in the key alone',
    });
    key = text.trim();
  } else if (stdin.isTTY) {
    key = (await askLine(ctx, 'API key (Settings > API in the dashboard; input hidden): ', { hidden: true })).trim();
  } else {
    throw new UsageError(
      'no terminal to ask for the API key on',
      'pipe it in with --api-key-stdin, e.g. `printf %s "$KEY" | mon profile add acme … --api-key-stdin`',
    );
  }
  const flaw = keyFlaw(key);
  if (flaw) throw new UsageError(`the API key ${flaw}`);
  return key;
}

/** Saved accounts: a base URL and a key each (docs/design/cli-contract.md, profile). */
export const profile: ResourceSpec = {
  name: 'profile',
  aliases: ['profiles'],
  summary: 'Save, choose and check accounts (subdomain + key)',
  verbs: [
    verb({
      name: 'add',
      jsonOutput: false,
      summary: 'Save a profile; the key is read from a hidden prompt or from stdin',
      description:
        'The key is never taken as an argument: it would end up in shell history and `ps`. The first profile saved in an empty store becomes the default; after the default is removed, none does until `mon profile use` or --default names one.',
      args: [{ name: 'name', description: 'a name for the account, e.g. acme', rule: NAME_RULE }],
      options: [
        { flags: '--subdomain <subdomain>', description: 'the subscriber subdomain', rule: { type: 'text', max: 63 } },
        { flags: '--domain <domain>', description: 'the service domain', rule: { type: 'text', max: 253 } },
        {
          flags: '--base-url <url>',
          description: 'a full base URL instead of --subdomain/--domain',
          rule: { type: 'text', max: 2048 },
        },
        { flags: '--api-key-stdin', description: 'read the API key from standard input' },
        { flags: '--default', description: 'make it the default profile' },
        DISPLAY_NAME_OPTION,
      ],
      constraints: {
        atMostOne: [
          ['subdomain', 'baseUrl'],
          ['domain', 'baseUrl'],
        ],
        together: [['subdomain', 'domain']],
      },
      examples: [
        'mon profile add acme --subdomain acme --domain monitoring.example.com',
        'printf %s "$MON_KEY" | mon profile add acme --subdomain acme --domain monitoring.example.com --api-key-stdin',
        'mon profile add acme --subdomain acme --domain monitoring.example.com --display-name "Acme Design Ltd"',
      ],
      async run({ args, opts }, ctx) {
        const name = checkName(args.name!);
        const { subdomain, domain, baseUrl: base } = opts;
        if (!base && !subdomain) throw new UsageError('give --subdomain and --domain, or --base-url');
        if (subdomain && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(subdomain))
          throw new UsageError(`--subdomain: ${quoted(subdomain)} is not a DNS label`);
        if (domain && !/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i.test(domain))
          throw new UsageError(`--domain: ${quoted(domain)} is not a domain name`);
        const baseUrl = parseBaseUrl(base ?? `https://${subdomain}.${domain}`, '--base-url').href.replace(/\/$/, '');
        if (ctx.dryRun.changesNothing(`save profile ${name} (${baseUrl})${opts.default ? ' as the default' : ''}`))
          return;
        const apiKey = await readKey(ctx, opts.apiKeyStdin === true);
        const store = await ctx.profileStore();
        const existed = store.get(name) !== undefined;
        // Saved again without --display-name, a profile keeps the name it had.
        const displayName = opts.displayName ?? store.get(name)?.displayName;
        await store.save(name, {
          baseUrl,
          apiKey,
          ...(subdomain ? { subdomain, domain } : {}),
          ...(displayName ? { displayName } : {}),
        });
        if (opts.default) await store.use(name);
        const none = store.defaultName === undefined || store.get(store.defaultName) === undefined;
        ctx.notice(
          `${existed ? 'Updated' : 'Saved'} profile ${name} (${baseUrl})${store.defaultName === name ? ', the default' : none ? '; there is no default profile (commands without -p stop at "no profile"): choose one with `mon profile use <name>`' : ''}. Check it with: mon profile test ${name}`,
        );
      },
    }),
    verb({
      name: 'list',
      aliases: ['ls'],
      summary: 'List saved profiles (keys masked)',
      options: WHOLE_LIST_OPTIONS,
      examples: ['mon profile list', 'mon profile list --json'],
      async run({ opts }, ctx) {
        const store = await ctx.profiles();
        const rows = Object.entries(store.list()).map(([name, saved]) =>
          shown(name, saved, name === store.defaultName),
        );
        const render = renderOptions(ctx, PROFILE_VIEW);
        if (opts.count) return ctx.output.count(rows.length, render);
        const renderer = await ctx.output.list(render);
        renderer.push(rows);
        renderer.end();
        if (rows.length === 0)
          ctx.notice(
            'No profiles yet. Add one with: mon profile add <name> --subdomain <subdomain> --domain <service-domain>',
          );
      },
    }),
    verb({
      name: 'set',
      jsonOutput: false,
      summary: 'Change what a saved profile shows: its display name',
      description:
        "The display name is the customer's name a report shows (`mon report`); the profile's own name never appears there.",
      args: [{ name: 'name', description: 'a saved profile', rule: NAME_RULE }],
      options: [DISPLAY_NAME_OPTION],
      examples: ['mon profile set acme --display-name "Acme Design Ltd"'],
      async run({ args, opts }, ctx) {
        const store = await ctx.profileStore();
        const name = args.name!;
        if (!store.get(name)) throw new UsageError(`no profile named ${quoted(name)}`, 'see `mon profile list`');
        const displayName = opts.displayName;
        if (displayName === undefined)
          throw new UsageError('profile set: nothing to change', 'give --display-name "…"');
        if (ctx.dryRun.changesNothing(`set the display name of profile ${name} to ${quoted(displayName)}`)) return;
        await store.update(name, { displayName });
        ctx.notice(`Profile ${name}: reports name the customer ${quoted(displayName)}.`);
      },
    }),
    {
      name: 'use',
      jsonOutput: false,
      summary: 'Make a profile the default',
      args: [{ name: 'name', description: 'a saved profile', rule: NAME_RULE }],
      examples: ['mon profile use acme'],
      async run({ args }, ctx) {
        const store = await ctx.profileStore();
        const name = args.name!;
        if (!store.get(name)) throw new UsageError(`no profile named ${quoted(name)}`, 'see `mon profile list`');
        if (ctx.dryRun.changesNothing(`make ${name} the default profile`)) return;
        await store.use(name);
        ctx.notice(`Default profile: ${name}.`);
      },
    },
    {
      name: 'show',
      summary: 'Show a profile (the default without a name); the key is masked',
      args: [{ name: 'name', description: 'a saved profile', rule: NAME_RULE, optional: true }],
      examples: ['mon profile show', 'mon profile show acme --json'],
      async run({ args }, ctx) {
        const store = await ctx.profiles();
        const name = args.name ?? ctx.globals.profile ?? store.defaultName;
        const saved = name === undefined ? undefined : store.get(name);
        if (!name || !saved)
          throw new UsageError(
            name ? `no profile named ${quoted(name)}` : 'no profile saved yet',
            'add one with `mon profile add <name> --subdomain <subdomain> --domain <service-domain>`',
          );
        await ctx.output.object(
          { ...shown(name, saved, name === store.defaultName), config_file: store.path },
          {
            ...renderOptions(ctx, PROFILE_VIEW),
            columns: [...PROFILE_VIEW.columns, { key: 'config_file', header: 'CONFIG FILE' }],
          },
        );
      },
    },
    {
      name: 'remove',
      jsonOutput: false,
      aliases: ['rm'],
      summary: 'Forget a saved profile and its key',
      args: [{ name: 'name', description: 'a saved profile', rule: NAME_RULE }],
      examples: ['mon profile remove old-client --yes'],
      async run({ args }, ctx) {
        const store = await ctx.profileStore();
        const name = args.name!;
        if (!store.get(name)) throw new UsageError(`no profile named ${quoted(name)}`, 'see `mon profile list`');
        if (ctx.dryRun.changesNothing(`remove profile ${name} and its saved key`)) return;
        await confirmDeletion(ctx, async () => `profile ${name} and its saved key`);
        const wasDefault = store.defaultName === name;
        await store.remove(name);
        // Its Tab names and --changes states too: a profile added again under this name may be
        // another account, whose names and lists are not these.
        // completion/live.ts holds node:child_process: loaded by the few commands that need it.
        (await import('../completion/live.js')).forgetLiveNames(ctx.configDir, name);
        const states = ChangeStates.forgetProfile(ctx.configDir, name);
        const days = forgetHistory(ctx.configDir, name);
        const forgot = `${states > 0 ? ` Its ${states} saved state${states === 1 ? '' : 's'} of --changes ${states === 1 ? 'is' : 'are'} forgotten too.` : ''}${days > 0 ? ` Its ${days} day${days === 1 ? '' : 's'} of history ${days === 1 ? 'is' : 'are'} forgotten too.` : ''}`;
        ctx.notice(
          `Removed profile ${name}.${forgot}${wasDefault ? ' It was the default: there is none now (commands without -p stop at "no profile"); choose one with `mon profile use <name>`.' : ''}`,
        );
      },
    },
    {
      name: 'test',
      jsonOutput: false,
      summary: 'Check that a profile reaches the API with a valid key (one cheap request)',
      args: [
        {
          name: 'name',
          description:
            'a saved profile, tested as saved: MON_API_KEY and MON_BASE_URL do not apply (default: the current one)',
          rule: NAME_RULE,
          optional: true,
        },
      ],
      examples: ['mon profile test', 'mon profile test acme'],
      async run({ args }, ctx) {
        // A profile named here is tested as saved, its key against its URL (src/target.ts): not
        // MON_API_KEY's, which would otherwise be sent to that profile's URL.
        const { ctx: tested, close } = ctx.forAccount(args.name);
        try {
          const client = await tested.client();
          const prepared = client.prepare('groups.list', { query: { per_page: 1 } });
          if (await tested.dryRun.shows(prepared)) return;
          const started = ctx.now();
          const { headers } = await client.send(prepared);
          const groups = headers['x-total'] ? `, ${headers['x-total']} groups` : '';
          ctx.io.stdout.write(
            `ok: ${client.baseUrl} answered with a valid key (${Math.round(ctx.now() - started)} ms${groups})\n`,
          );
        } finally {
          await close();
        }
      },
    },
  ],
};
