/**
 * The selectors of the fleet commands that pick plugin results (`alerts`, `plugin mute|unmute`):
 * declared once, so help, validation and completions agree, and mapped to the one selection
 * (src/fleet/selection.ts) in one function. AND across kinds, OR within a kind.
 */
import { UsageError } from '../errors.js';
import type { ResultFilter, Scope } from '../fleet/selection.js';
import { PLUGIN_STATUSES } from '../model/plugin-result.js';
import { apiParams } from '../spec/params.js';
import { optionKey, type OptionSpec, type OptionValues } from '../spec/spec.js';

/** Selects the computers of a group; shared by alerts, status and the bulk mutes. */
export const GROUP_OPTION = {
  flags: '--group <group>',
  description: 'only computers of this group: uid, slug or name (repeatable)',
  rule: { type: 'text', max: 255, nonEmpty: true },
  repeatable: true,
  names: 'group',
} as const satisfies OptionSpec;

const PLATFORMS = ['mac', 'linux', 'windows'] as const;

/**
 * The computer filters of `computers list` that the API applies itself (api-v2.5, Computers >
 * List): declared once, for `computers list` and for the fleet commands that select computers,
 * which send them with their read of the computers.
 */
export const COMPUTER_FILTERS = [
  {
    flags: '--created-after <date>',
    param: 'created_after',
    description: 'only computers first seen after this date (YYYY-MM-DD)',
    rule: { type: 'date' },
  },
  {
    flags: '--serial-number <serial>',
    param: 'serial_number',
    description: 'only this serial number',
    rule: { type: 'text', max: 255 },
  },
  { flags: '--asset-id <id>', param: 'asset_id', description: 'only this asset id', rule: { type: 'text', max: 191 } },
  {
    flags: '--reference-email-computer <email>',
    param: 'reference_email_computer',
    description: "by the computer record's reference e-mail",
    rule: { type: 'text', max: 191 },
  },
  {
    flags: '--reference-email-group <email>',
    param: 'reference_email_group',
    description: "by the group record's reference e-mail",
    rule: { type: 'text', max: 191 },
  },
  {
    flags: '--reference-email <email>',
    param: 'reference_email',
    description: 'by either reference e-mail',
    rule: { type: 'text', max: 191 },
  },
  {
    flags: '--platform <platform>',
    param: 'platform',
    description: 'only this platform (repeatable, or a comma-separated list)',
    choices: PLATFORMS,
    repeatable: true,
  },
] as const satisfies readonly OptionSpec[];

/**
 * The selectors, with the default of --status as the command applies it: `alerts` shows Alert
 * and Warning, a bulk mute takes every status (keep in sync with selectionOf's callers).
 */
export function selectorOptions(statusDefault: string) {
  return [
    {
      flags: '--status <status>',
      description: `only results with this status (repeatable; default ${statusDefault})`,
      choices: PLUGIN_STATUSES,
      repeatable: true,
    },
    { flags: '--include-hidden', description: 'also service plugins (visible false), which the dashboard hides' },
    {
      flags: '--plugin <name>',
      description: 'only this plugin, by name or slug, any case (repeatable)',
      rule: { type: 'text', max: 255, nonEmpty: true },
      repeatable: true,
    },
    GROUP_OPTION,
    {
      flags: '--computer <computer>',
      description: 'only this computer: client_id or c_ uid (repeatable)',
      rule: { type: 'text', max: 191, nonEmpty: true },
      repeatable: true,
      names: 'computer',
    },
    { flags: '--missing', description: 'only results of missing computers' },
    {
      flags: '--ran-since <when>',
      description:
        'only results whose plugin last ran at or after WHEN (not when it began to alert: the API keeps no such time): a duration back (2h, 7d), an ISO 8601 time or epoch seconds',
      rule: { type: 'since' },
    },
    {
      flags: '--since <when>',
      description: 'the old name of --ran-since, still taken (it says so on stderr)',
      rule: { type: 'since' },
    },
    ...COMPUTER_FILTERS,
  ] as const satisfies readonly OptionSpec[];
}

export type SelectorValues = OptionValues<ReturnType<typeof selectorOptions>>;

/** Whether any selector was given. */
export function anySelector(opts: SelectorValues): boolean {
  const given = opts as Record<string, unknown>;
  return selectorOptions('').some((spec) => given[optionKey(spec)] !== undefined && given[optionKey(spec)] !== false);
}

/**
 * The scope and filter the selectors stand for (a bulk mute's `--from` narrows the filter
 * further: src/fleet/selection.ts, namedBy).
 */
export function selectionOf(
  opts: SelectorValues,
  defaults: { statuses: readonly string[]; muted: ResultFilter['muted'] },
  notice: (line: string) => void,
): { scope: Scope; filter: ResultFilter } {
  if (opts.since !== undefined && opts.ranSince !== undefined)
    throw new UsageError('--since and --ran-since cannot be used together', '--since is the old name of --ran-since');
  // --since read as "alerting since", which the API cannot tell: the old name still works and
  // says what it filters on.
  if (opts.since !== undefined)
    notice(
      'mon: warning: --since is now --ran-since: it keeps results whose plugin last ran since then, not those alerting since then',
    );
  return {
    scope: {
      groups: opts.group,
      computers: opts.computer,
      missing: opts.missing === true,
      query: apiParams(COMPUTER_FILTERS, opts),
    },
    filter: {
      statuses: opts.status ?? defaults.statuses,
      muted: defaults.muted,
      includeHidden: opts.includeHidden === true,
      plugins: opts.plugin,
      since: opts.ranSince ?? opts.since,
    },
  };
}
