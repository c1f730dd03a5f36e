/**
 * `mon history`: the daily snapshots reads of a whole account leave behind (src/history), from
 * which `mon report` draws its trends: list the accounts that have some, export one account's,
 * forget them.
 */
import { NotFoundError, UsageError } from '../errors.js';
import type { Context } from '../context.js';
import { quoted } from '../text/escape.js';
import { verb, WHOLE_LIST_OPTIONS, type ResourceSpec } from '../spec/spec.js';
import { confirmAction } from '../io/confirm.js';
import { renderOptions, type View } from './view.js';
import { daysKept, forgetHistory, historyEnabled, listAccounts, readHistory } from '../history/store.js';

const LIST_VIEW: View = {
  columns: [{ key: 'profile' }, { key: 'days' }, { key: 'first' }, { key: 'last' }, { key: 'bytes' }],
  fields: ['profile', 'days', 'first', 'last', 'bytes', 'folder'],
};

/** The flat figures of a day: what -o csv and the table show of each snapshot. */
const EXPORT_KEYS = [
  'day',
  'taken_at',
  'computers',
  'missing',
  'hidden',
  'alerts',
  'warnings',
  'alerting_results',
  'expired',
  'expiring_30d',
  'expiring_90d',
] as const;
const EXPORT_VIEW: View = {
  columns: EXPORT_KEYS.map((key) => ({ key })),
  fields: [
    ...EXPORT_KEYS,
    'format',
    'version',
    'account',
    'computers',
    'alerts',
    'warnings',
    'expirations',
    'alerting',
  ],
};

const PERIOD_OPTIONS = [
  {
    flags: '--since <when>',
    description: "only the days from WHEN's UTC day on (30d, 2w, an ISO 8601 time)",
    rule: { type: 'since' },
  },
] as const;

const ACCOUNT_OPTION = {
  flags: '--account <name>',
  description:
    'the account as `mon history list` names it (a profile, or @host of a base URL), instead of the one in effect: no key needed',
} as const;

/** Why a read left no history: said where none is found. */
const noneRecorded = (enabled: boolean): string =>
  enabled
    ? 'every `mon status`, `mon report` or `mon alerts` of a whole account, and each refresh of `mon metrics serve`, records the day (a daily `mon status -q` in cron is enough)'
    : 'MON_HISTORY turns the recording off (unset it, and every read of a whole account records the day)';

/**
 * The account whose history is meant: `--account NAME`, one of those `history list` names (no key
 * or URL needed: the base URL's accounts are listed as @host), else the account in effect.
 */
async function historyAccount(ctx: Context, name: string | undefined): Promise<{ key: string; who: string }> {
  if (name === undefined) {
    const { account } = await ctx.target();
    return { key: account.key, who: account.key.startsWith('@') ? account.label : `profile ${account.label}` };
  }
  const kept = listAccounts(ctx.configDir).map(({ account }) => account);
  if (!kept.includes(name)) {
    const shown = kept.length > 6 ? `${kept.slice(0, 6).join(', ')}, …` : kept.join(', ');
    throw new UsageError(
      `--account: no history is kept under ${quoted(name)}${kept.length > 0 ? ` (kept: ${shown})` : ' (none is kept)'}`,
      'give a name as `mon history list` shows it',
    );
  }
  return { key: name, who: name.startsWith('@') ? name : `profile ${name}` };
}

/** A span of days: one day alone, or the first to the last. */
const span = (days: readonly string[]): string => (days.length === 1 ? days[0]! : `${days[0]} to ${days.at(-1)}`);

export const history: ResourceSpec = {
  name: 'history',
  summary: 'Daily snapshots per account: list, export, forget',
  verbs: [
    verb({
      name: 'list',
      aliases: ['ls'],
      summary: 'The accounts with snapshots: how many days, first and last',
      description:
        "Every read of a whole account (`mon status`, `mon report`, `mon alerts`, each refresh of `mon metrics serve`) records that day's counts in the config folder: computers by platform, operating system and boot volume use, missing, unmuted alerts and warnings by plugin and group, expirations, and which results were alerting. One per account and UTC day (the last read of the day wins), about two years kept (731 days; the oldest go first), never a key. MON_HISTORY=0 records nothing. A daily cron line running `mon status -q` is enough to build it.",
      options: WHOLE_LIST_OPTIONS,
      examples: ['mon history list', 'mon history list --json'],
      async run({ opts }, ctx) {
        const rows = listAccounts(ctx.configDir).map(({ account, ...rest }) => ({ profile: account, ...rest }));
        const render = renderOptions(ctx, LIST_VIEW);
        if (opts.count) return ctx.output.count(rows.length, render);
        const renderer = await ctx.output.list(render);
        renderer.push(rows);
        renderer.end();
        if (rows.length === 0) ctx.notice(`No history yet: ${noneRecorded(historyEnabled(ctx.env))}.`);
      },
    }),
    verb({
      name: 'export',
      summary: 'The snapshots of the profile in effect, oldest first (-o ndjson, csv)',
      description:
        '-o ndjson and -o json give each snapshot whole (counts by platform, OS, boot volume band, plugin and group, and the alerting results); -o csv, tsv and the table give one row of figures per day.',
      fields: EXPORT_VIEW.fields,
      options: [...PERIOD_OPTIONS, ACCOUNT_OPTION],
      examples: [
        'mon history export -o ndjson > acme-history.ndjson',
        'mon -p acme history export -o csv --since 90d > acme.csv',
        'mon history export --account @mon.example.net -o csv',
      ],
      async run({ opts }, ctx) {
        const account = await historyAccount(ctx, opts.account as string | undefined);
        const fromDay = opts.since === undefined ? undefined : new Date(opts.since * 1000).toISOString().slice(0, 10);
        const { snapshots, damaged } = readHistory(ctx.configDir, account.key, { ...(fromDay && { fromDay }) });
        const render = renderOptions(ctx, EXPORT_VIEW);
        const whole = render.format === 'json' || render.format === 'ndjson';
        const rows = snapshots.map((s) =>
          whole
            ? (s as unknown as Record<string, unknown>)
            : {
                day: s.day,
                taken_at: s.taken_at,
                computers: s.computers.total,
                missing: s.computers.missing,
                hidden: s.computers.hidden,
                alerts: s.alerts.total,
                warnings: s.warnings.total,
                alerting_results: s.alerting.length,
                expired: s.expirations?.expired ?? null,
                expiring_30d: s.expirations?.within_30d ?? null,
                expiring_90d: s.expirations?.within_90d ?? null,
              },
        );
        const renderer = await ctx.output.list(render);
        renderer.push(rows);
        renderer.end();
        if (damaged.length > 0)
          ctx.io.stderr.write(
            `mon: ${damaged.length} day${damaged.length === 1 ? '' : 's'} could not be read and ${damaged.length === 1 ? 'was' : 'were'} left out (${damaged.slice(0, 3).join(', ')}${damaged.length > 3 ? ', …' : ''})\n`,
          );
        if (rows.length === 0)
          ctx.notice(
            `No history of ${account.who}${fromDay ? ` since ${fromDay}` : ''}: ${noneRecorded(historyEnabled(ctx.env))}.`,
          );
      },
    }),
    verb({
      name: 'forget',
      aliases: ['rm'],
      jsonOutput: false,
      summary: 'Forget the snapshots of the profile in effect (all, or --before a day)',
      options: [
        { flags: '--before <day>', description: 'only the days before DAY (YYYY-MM-DD)', rule: { type: 'date' } },
        ACCOUNT_OPTION,
      ],
      examples: [
        'mon -p old-client history forget --yes',
        'mon history forget --before 2025-01-01 --yes',
        'mon history forget --account @127.0.0.1_8025 --yes',
      ],
      async run({ opts }, ctx) {
        const { key, who } = await historyAccount(ctx, opts.account as string | undefined);
        const before = opts.before as string | undefined;
        const days = daysKept(ctx.configDir, key).filter((day) => before === undefined || day < before);
        if (days.length === 0)
          throw new NotFoundError(
            `no history${before ? ` before ${before}` : ''} for ${who}`,
            'see `mon history list`',
          );
        const what = `${days.length} day${days.length === 1 ? '' : 's'} of history of ${who} (${span(days)})`;
        if (ctx.dryRun.changesNothing(`forget ${what}`)) return;
        await confirmAction(ctx, {
          question: async () => `Forget ${what}? This cannot be undone. [y/N] `,
          refusal: [
            'refusing to forget history without --yes: no terminal to confirm on',
            'add --yes (-y) to forget it from a script',
          ],
          declined: 'nothing forgotten: it was not confirmed',
        });
        const gone = forgetHistory(ctx.configDir, key, before);
        ctx.notice(`Forgot ${gone} day${gone === 1 ? '' : 's'} of history of ${who}.`);
      },
    }),
  ],
};
