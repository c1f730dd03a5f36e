/**
 * The selectors of the fleet commands that pick plugin results (`alerts`, `plugin mute|unmute`):
 * declared once, so help, validation and completions agree, and mapped to the one selection
 * (src/fleet/selection.ts) in one function. AND across kinds, OR within a kind.
 */
import type { ApiClient } from '../api/client.js';
import type { Context } from '../context.js';
import type { ResultFilter, Scope, Selection } from '../fleet/selection.js';
import type { OptionSpec, OptionValues } from '../spec/spec.js';

const STATUSES = ['OK', 'Warning', 'Alert', 'Informational'] as const;

/** Selects the computers of a group; shared by alerts, status and the bulk mutes. */
export const GROUP_OPTION = { flags: '--group <group>', description: 'only computers of this group: uid, slug or name (repeatable)', rule: { type: 'text', max: 255, nonEmpty: true }, repeatable: true } as const satisfies OptionSpec;

/**
 * The selectors, with the default of --status as the command applies it: `alerts` shows Alert
 * and Warning, a bulk mute takes every status (keep in sync with selectionOf's callers).
 */
export function selectorOptions(statusDefault: string) {
  return [
    { flags: '--status <status>', description: `only results with this status (repeatable; default ${statusDefault})`, choices: STATUSES, repeatable: true },
    { flags: '--include-hidden', description: 'also service plugins (visible false), which the dashboard hides' },
    { flags: '--plugin <name>', description: 'only this plugin, by name or slug, any case (repeatable)', rule: { type: 'text', max: 255, nonEmpty: true }, repeatable: true },
    GROUP_OPTION,
    { flags: '--computer <computer>', description: 'only this computer: client_id or c_ uid (repeatable)', rule: { type: 'text', max: 191, nonEmpty: true }, repeatable: true },
    { flags: '--missing', description: 'only results of missing computers' },
    { flags: '--since <when>', description: 'only results whose last run is at or after WHEN: a duration back (2h, 7d), an ISO 8601 time or epoch seconds', rule: { type: 'since' } },
  ] as const satisfies readonly OptionSpec[];
}

export type SelectorValues = OptionValues<ReturnType<typeof selectorOptions>>;

/** The option keys of the selectors, for "was any selector given". */
export const SELECTOR_KEYS = ['status', 'includeHidden', 'plugin', 'group', 'computer', 'missing', 'since'] as const;

/** Whether any selector was given. */
export function anySelector(opts: SelectorValues): boolean {
  return SELECTOR_KEYS.some((key) => opts[key] !== undefined && opts[key] !== false);
}

/**
 * The scope and filter the selectors stand for. `uids` (from `--from`) adds one more kind:
 * results named by uid, service plugins among them included, since they were named.
 */
export function selectionOf(
  opts: SelectorValues,
  defaults: { statuses: readonly string[]; muted: ResultFilter['muted']; uids?: readonly string[] },
): { scope: Scope; filter: ResultFilter } {
  return {
    scope: { groups: opts.group, computers: opts.computer, missing: opts.missing === true },
    filter: {
      statuses: opts.status ?? defaults.statuses,
      muted: defaults.muted,
      includeHidden: opts.includeHidden === true || defaults.uids !== undefined,
      plugins: opts.plugin,
      since: opts.since,
      uids: defaults.uids,
    },
  };
}

/**
 * Opens the selection. A client id is looked up at once (one GET: unknown is exit 4 before
 * anything is read); a c_ uid can only be found by reading the computers, which the selection
 * does anyway.
 */
export async function openSelection(ctx: Context, client: ApiClient, scope: Scope, filter: ResultFilter): Promise<Selection> {
  if (scope.computers?.length) {
    const { Resolver } = await import('../resolve/index.js');
    // Reached by --dry-run only in a bulk mute, whose dry run sends every read.
    const resolver = new Resolver(ctx, { sendReads: true });
    const uids = [];
    for (const given of scope.computers) uids.push(given.startsWith('c_') ? given : (await resolver.computerByClientId(given, '--computer')).uid);
    scope = { ...scope, computers: uids };
  }
  const { Selection } = await import('../fleet/selection.js');
  return Selection.open(client, scope, filter);
}
