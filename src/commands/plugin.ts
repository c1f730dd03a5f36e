import type { Attributes } from '../api/encode.js';
import type { DerivedField } from '../changes/compare.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { describeMute, roughDuration, type MuteAction } from '../fleet/mute.js';
import { localMinute, toIsoUtc } from '../output/format.js';
import type { Reading } from '../output/types.js';
import { endsSooner, isMuted, matchesResult, muteEnd, muteState, PLUGIN_STATUSES } from '../model/plugin-result.js';
import { confirmAction } from '../io/confirm.js';
import { objectCommand } from './actions.js';
import { changeSpecOf, renderOptions, type View } from './view.js';
import { PLUGIN_RESULT_FIELDS } from './fields.js';
import { anySelector, selectorOptions, type SelectorValues } from './selectors.js';
import {
  CHANGES_OPTIONS,
  WHOLE_LIST_OPTIONS,
  verb,
  type OptionSpec,
  type OptionValues,
  type ResourceSpec,
} from '../spec/spec.js';
import { changesWanted } from '../changes/request.js';
import { runBulkMute, DEFAULT_MAX } from './bulk-mute.js';
import { listChanges } from '../changes/track.js';
import { findMutedResult } from '../fleet/selection.js';

/** The default length of `--timed` without WHEN (docs/design/cli-contract.md, plugin mute). */
const DEFAULT_MUTE_SECONDS = 24 * 3600;
// ticket_number and ticket_url are plain strings: the general bound of 255 applies (api-v2.5, conventions 6).
const STRING_MAX = 255;

const pad2 = (n: number): string => String(n).padStart(2, '0');
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** `Mon 23 Nov 2026 14:00`, local time: the confirmation after a mute. Fixed English names, so scripts can read it. */
export function longLocal(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${WEEKDAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/**
 * The mute column: "until 2026-11-23 14:00" (local time in a table, `until 2026-11-23T13:00:00Z`
 * for a machine), "ticket #123", "forever", or '' when no mute is in force: a timed mute whose end
 * has passed is none, as every filter and count says (isMuted), whatever the payload's flag.
 */
export function muteSummary(row: Record<string, unknown>, { nowMs, machine }: Reading): string {
  if (!isMuted(row, Math.floor(nowMs / 1000))) return '';
  const until = muteEnd(row);
  const end = (seconds: number) => `until ${machine ? toIsoUtc(seconds * 1000) : localMinute(seconds * 1000)}`;
  switch (row.mute_type) {
    case 'timed_mute':
      return until === undefined ? 'timed' : end(until);
    case 'ticket_muted':
      return row.ticket_number === undefined || row.ticket_number === null
        ? 'ticket'
        : `ticket #${String(row.ticket_number)}`;
    case 'muted_forever':
      return 'forever';
    default:
      // A mute type the reference does not list: its own description says most.
      if (until !== undefined) return end(until);
      return typeof row.mute_description === 'string' && row.mute_description !== '' ? row.mute_description : 'muted';
  }
}

/**
 * `mute`, compared by --changes: whether a mute is in force (src/model/plugin-result.ts), and how
 * (type, end, ticket) as the API says it, whatever the time zone the mute column is shown in.
 */
export const MUTE_COMPARED: DerivedField = {
  key: 'mute',
  get: (row, nowSec) =>
    isMuted(row, nowSec)
      ? [String(row.mute_type ?? 'muted'), muteEnd(row) ?? null, (row.ticket_number as string | undefined) ?? null]
      : false,
};

export const PLUGIN_RESULT_VIEW: View = {
  columns: [
    { key: 'uid' },
    { key: 'status', kind: 'status' },
    { key: 'name', maxWidth: 32 },
    { key: 'last_run', kind: 'time' },
    { key: 'mute', get: muteSummary },
  ],
  fields: PLUGIN_RESULT_FIELDS,
  changes: { noun: 'plugin results', compare: ['status', MUTE_COMPARED] },
};

/** The filters of `plugin list`, applied by mon: the API has none for them. */
const LIST_FILTERS = [
  { flags: '--status <status>', description: 'only results with this status', choices: PLUGIN_STATUSES },
  { flags: '--muted', description: 'only muted results' },
  { flags: '--unmuted', description: 'only results that are not muted' },
  { flags: '--include-hidden', description: 'also show service plugins (visible false), which the dashboard hides' },
  ...WHOLE_LIST_OPTIONS,
  ...CHANGES_OPTIONS,
] as const satisfies readonly OptionSpec[];

/**
 * `plugin list`: the plugin results come with their computer (api-v2.5, Plugin results: "read
 * through a computer with expand[]=plugin_results"); the filters are applied here, since the
 * API has none for them.
 */
async function listPluginResults(
  ctx: Context,
  clientId: string,
  opts: OptionValues<typeof LIST_FILTERS>,
): Promise<void> {
  const changes = changesWanted(opts);
  const render = renderOptions(ctx, PLUGIN_RESULT_VIEW);
  const client = await ctx.client();
  const prepared = client.prepare('computers.get', {
    path: { client_id: clientId },
    query: { expand: ['plugin_results'] },
  });
  const sent = await ctx.dryRun.send(prepared);
  if (!sent) return;
  const all = ((sent.data as { plugin_results?: unknown }).plugin_results ?? []) as Record<string, unknown>[];
  const match = {
    statuses: opts.status === undefined ? [] : [opts.status],
    muted: opts.muted === true ? 'muted' : opts.unmuted === true ? 'unmuted' : 'any',
    includeHidden: opts.includeHidden === true,
  } as const;
  const nowSec = Math.floor(ctx.now() / 1000);
  const wanted = all.filter((result) => matchesResult(result, match, nowSec));
  if (opts.count) return ctx.output.count(wanted.length, render);
  if (changes) {
    await listChanges(ctx, changes, changeSpecOf(PLUGIN_RESULT_VIEW), render, async (sink) => sink.push(wanted));
    return;
  }
  const renderer = await ctx.output.list(render);
  renderer.push(wanted);
  renderer.end();
  if (wanted.length === 0 && render.format === 'table') ctx.notice('No results.');
}

/**
 * What mute and unmute take besides a uid: the selectors of `mon alerts` (every status unless
 * --status narrows it: a maintenance window must also silence what is OK now and fails during the
 * work), --from and --max.
 */
const BULK_OPTIONS = [
  ...selectorOptions('every status'),
  {
    flags: '--from <file>',
    description:
      'only the plugin results named in FILE (- for standard input): a uid a line, or ndjson lines with a uid, as `mon alerts -o ndjson` prints',
  },
  {
    flags: '--max <n>',
    description: 'refuse a selection of more than n plugin results, so a typo in a filter cannot mute the fleet',
    rule: { type: 'int', min: 1 },
    defaultText: '1000',
  },
] as const satisfies readonly OptionSpec[];

type BulkValues = SelectorValues & { from?: string; max?: number; timedOnly?: boolean };

/**
 * Whether the command line asks for many results (selectors) or one (a uid); both or neither
 * is a usage error before anything is sent.
 */
function isBulk(action: MuteAction, uid: string | undefined, opts: BulkValues): boolean {
  const bulk = anySelector(opts) || opts.from !== undefined || opts.max !== undefined || opts.timedOnly === true;
  const example = `e.g. \`mon plugin ${action} pr_4f2a${action === 'mute' ? ' --timed 2h' : ''}\` or \`mon plugin ${action} --group "Acme Design"${action === 'mute' ? ' --timed 2h' : ''}\``;
  if (uid !== undefined && bulk)
    throw new UsageError(
      `give a plugin result uid or selectors, not both (<uid> ${uid} with ${anySelector(opts) ? 'selectors' : opts.from !== undefined ? '--from' : opts.max !== undefined ? '--max' : '--timed-only'})`,
      example,
    );
  if (uid === undefined && !bulk)
    throw new UsageError(
      `missing <uid>: give a plugin result uid (pr_…), or selectors (--group, --computer, --plugin, --status, --missing, --from)`,
      example,
    );
  return bulk;
}

/** Runs a mute or unmute over the selectors' plugin results (src/commands/bulk-mute.ts, loaded only then). */
async function bulkMute(
  ctx: Context,
  action: MuteAction,
  opts: BulkValues,
  attributes: Attributes,
  how: string,
): Promise<void> {
  await runBulkMute(ctx, {
    action,
    attributes,
    how,
    selectors: opts,
    from: opts.from,
    max: opts.max ?? DEFAULT_MAX,
    includeUntimed: opts.timedOnly !== true,
  });
}

/**
 * A mute by uid replaces the mute in force. One that a timed mute until `until` would end
 * sooner (for good, under a ticket, or timed to end later) is said first, what it is and what
 * it becomes; then asked on a terminal, and in a script it needs --yes (exit 2, nothing sent).
 */
async function confirmShorterMute(ctx: Context, uid: string, until: number, nowSec: number): Promise<void> {
  const client = await ctx.client();
  const found = await findMutedResult(client, uid);
  const state = found === undefined ? null : muteState(found, nowSec);
  if (state === null || !endsSooner(state, until)) return;
  ctx.notice(
    `${uid} is ${describeMute(state)}; --timed ${ctx.globals.yes ? 'shortens' : 'would shorten'} that to a mute until ${localMinute(until * 1000)} (local time)`,
  );
  await confirmAction(ctx, {
    question: async () => `Shorten the mute of ${uid}? [y/N] `,
    refusal: [
      `refusing to shorten the mute of ${uid} without --yes: no terminal to confirm on`,
      'add --yes (-y) to shorten it from a script, or leave the mute as it is',
    ],
    declined: `not muted: shortening the mute of ${uid} was not confirmed`,
  });
}

const BULK_DESCRIPTION =
  'With selectors instead of a uid, many plugin results at once: the selectors of `mon alerts` (AND across kinds, OR within one), every status unless --status narrows it, visible results unless --include-hidden; --from takes uids from a file or standard input (ndjson of `mon alerts -o ndjson` too), whatever their status unless --status is given. A mute picks only results that are not muted (a mute in force, for good or timed, stays as it is, so none is shortened), and an unmute only muted ones, so running the same command again after an interruption does only what is left. First one line with the plan on stderr; on a terminal the rows of the plan (computer, group, plugin, status, action; the first 20) and a y/N question, in a script --yes for more than one result; --dry-run sends every read the selection needs, then prints the rows of the plan in the chosen format and sends no write (--verbose adds each PUT, key redacted). A selection over --max (default 1000) is refused. Progress on a terminal; then one row per result (uid, computer, group, plugin, outcome, reason; JSON also previous and mute, the mute before and after, null for none). When some fail, the others are still done and the exit code is that of the failures; once 8 in a row reach no answer (the service is down), no more are sent, and the rest are counted as not sent.';

/** Plugin results (api-v2.5, Endpoints > Plugin results). */
export const plugin: ResourceSpec = {
  name: 'plugin',
  aliases: ['plugins', 'plugin-results'],
  summary: "A computer's plugin results; mute and unmute them",
  verbs: [
    verb({
      name: 'list',
      aliases: ['ls'],
      summary: "List a computer's plugin results (service plugins hidden)",
      description: 'Plugin results arrive with their computer; --status and --muted/--unmuted filter them here.',
      args: [
        {
          name: 'client-id',
          description: 'the computer: its client id (client_id, or the older svc_id) or its c_ uid',
          rule: { type: 'text', max: 191, nonEmpty: true },
          resolve: 'client-id',
        },
      ],
      fields: PLUGIN_RESULT_FIELDS,
      options: LIST_FILTERS,
      constraints: {
        atMostOne: [
          ['muted', 'unmuted'],
          ['count', 'changes'],
        ],
      },
      reads: true,
      examples: [
        'mon plugin list 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11',
        'mon plugin list 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --status Alert --unmuted',
        'mon plugins list 5D1A7C0E-2B1F-4A43-9C1B-7F0E6A2D9B11 --include-hidden --json',
      ],
      run: ({ args, opts }, ctx) => listPluginResults(ctx, args['client-id']!, opts),
    }),
    verb({
      name: 'mute',
      route: 'pluginResults.update',
      summary: 'Mute a plugin result, or many by selectors, for a time, under a ticket, or until unmuted',
      description: `WHEN is a duration from now (90m, 2h, 7d, 1h30m), an ISO 8601 time (2026-11-23T14:00, local time unless it carries an offset) or epoch seconds; it must lie in the future. Without WHEN the mute lasts 24 hours. A ticket mute needs an active ticket system integration. A mute by uid replaces the mute in force: when --timed would end it sooner (muted for good, under a ticket, or until later), mon first says what the mute is and what it becomes, then asks on a terminal; a script needs --yes (exit 2 otherwise, nothing sent).\n\n${BULK_DESCRIPTION} Save the rows of a maintenance window (-o ndjson > FILE) and \`plugin unmute --from FILE\` takes back exactly what it muted.`,
      args: [
        {
          name: 'uid',
          description: 'the plugin result uid (pr_…); leave it out to use selectors',
          rule: { type: 'uid', prefix: 'pr_' },
          optional: true,
        },
      ],
      fields: PLUGIN_RESULT_FIELDS,
      options: [
        {
          flags: '--timed [when]',
          param: 'mute_until',
          description: 'mute until WHEN: duration, ISO 8601 time or epoch seconds, in the future, before 2038-01-19',
          rule: { type: 'when' },
          optionalValue: true,
          defaultText: '24h',
        },
        {
          flags: '--ticket <number>',
          param: 'ticket_number',
          description: 'mute under this ticket number',
          rule: { type: 'text', max: STRING_MAX, nonEmpty: true },
        },
        { flags: '--ignore', description: 'mute until unmuted' },
        {
          flags: '--ticket-url <url>',
          param: 'ticket_url',
          description: 'link to the ticket, with --timed or --ticket',
          rule: { type: 'url', max: STRING_MAX },
        },
        ...BULK_OPTIONS,
      ],
      constraints: { exactlyOne: [['timed', 'ticket', 'ignore']], atMostOne: [['ignore', 'ticketUrl']] },
      examples: [
        'mon plugin mute pr_4f2a --timed',
        'mon plugin mute pr_4f2a --timed 2h',
        'mon plugin mute pr_4f2a --timed 2026-11-23T14:00',
        'mon plugin mute pr_4f2a --ticket 123 --ticket-url https://helpdesk.example.com/tickets/123',
        'mon plugin mute pr_4f2a --ignore',
        'mon plugin mute --group "Acme Design" --timed 2h',
        'mon plugin mute --group "Acme Design" --timed 2h --yes -o ndjson > window.ndjson',
        'mon plugin mute --plugin "Disk Space" --status Alert --ticket 123 --yes',
        'mon alerts --missing -o ndjson | mon plugin mute --from - --timed 7d --yes',
      ],
      async run({ args, opts, params }, ctx) {
        const bulk = isBulk('mute', args.uid, opts);
        const muteType = opts.timed !== undefined ? 'timed' : opts.ticket !== undefined ? 'ticket' : 'ignored';
        // `--timed` alone: commander gives true; the rule already turned a WHEN into epoch seconds.
        const nowSec = Math.floor(ctx.now() / 1000);
        const until = opts.timed === true ? nowSec + DEFAULT_MUTE_SECONDS : opts.timed;
        // The mute's own attributes only: the selectors' computer filters are sent with the read.
        const body = {
          mute_type: muteType,
          mute_until: until,
          ticket_number: params.ticket_number,
          ticket_url: params.ticket_url,
        };
        if (bulk) {
          const how =
            until !== undefined
              ? ` for ${roughDuration(until - nowSec)} (until ${localMinute(until * 1000)})`
              : opts.ticket !== undefined
                ? ` under ticket #${opts.ticket}`
                : ' until unmuted';
          return bulkMute(ctx, 'mute', opts, body, how);
        }
        const uid = args.uid!;
        if (until !== undefined && !ctx.dryRun.on) await confirmShorterMute(ctx, uid, until, nowSec);
        await objectCommand(
          ctx,
          'pluginResults.update',
          { path: { uid }, body: { plugin_result: body } },
          PLUGIN_RESULT_VIEW,
          (result) => {
            if (until !== undefined) return `Muted ${uid} until ${longLocal(muteEnd(result) ?? until)} (local time)`;
            if (opts.ticket !== undefined) return `Muted ${uid} with ticket #${opts.ticket}.`;
            return `Muted ${uid} until it is unmuted.`;
          },
        );
      },
    }),
    verb({
      name: 'unmute',
      route: 'pluginResults.update',
      summary: "Clear a plugin result's mute, or many by selectors",
      description: `${BULK_DESCRIPTION} An unmute by selectors lifts every mute it selects; the plan line and the question say first how many of them are not timed (muted for good, under a ticket), which would not end by themselves; --timed-only leaves those muted and counts them in the plan line. --from FILE with the rows a bulk mute printed with -o ndjson takes that mute back exactly: only the results it muted, while the mute it set is still in force (one muted otherwise since stays as it is, and so does one unmuted already), each put back as its row's previous says.`,
      args: [
        {
          name: 'uid',
          description: 'the plugin result uid (pr_…); leave it out to use selectors',
          rule: { type: 'uid', prefix: 'pr_' },
          optional: true,
        },
      ],
      fields: PLUGIN_RESULT_FIELDS,
      options: [
        ...BULK_OPTIONS,
        {
          flags: '--timed-only',
          description: 'with selectors, lift timed mutes only: those muted for good or under a ticket stay muted',
        },
      ],
      examples: [
        'mon plugin unmute pr_4f2a',
        'mon plugin unmute --from window.ndjson --yes',
        'mon plugin unmute --plugin "Disk Space"',
        'mon plugin unmute --group "Acme Design" --timed-only --yes',
      ],
      async run({ args, opts }, ctx) {
        if (isBulk('unmute', args.uid, opts)) return bulkMute(ctx, 'unmute', opts, { mute_type: 'none' }, '');
        const uid = args.uid!;
        await objectCommand(
          ctx,
          'pluginResults.update',
          { path: { uid }, body: { plugin_result: { mute_type: 'none' } } },
          PLUGIN_RESULT_VIEW,
          () => `Unmuted ${uid}.`,
        );
      },
    }),
  ],
};
