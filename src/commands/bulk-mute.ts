/**
 * `plugin mute|unmute` with selectors: many plugin results at once, on the selection of
 * `mon alerts`. This declares the views of the plan and of the outcomes and how the plan is
 * shown before the question; the work, in order, is the fleet's one entry (src/fleet/bulk-mute.ts).
 */
import type { Attributes } from '../api/encode.js';
import type { Context } from '../context.js';
import { bulkMute } from '../fleet/bulk-mute.js';
import type { MuteAction, PlanRow } from '../fleet/mute.js';
import { GROUP_COLUMN } from '../output/columns.js';
import { confirmAction } from '../io/confirm.js';
import { colourWanted, renderOptions, type View } from './view.js';
import { selectionOf, type SelectorValues } from './selectors.js';

const computerColumn = {
  key: 'computer',
  get: (row: Record<string, unknown>) => (row.computer as { name?: unknown } | null)?.name,
  maxWidth: 28,
};
const groupColumn = { ...GROUP_COLUMN, maxWidth: 24 };

/**
 * The plan, one row per plugin result: what will be done to it. Printed by --dry-run in the
 * chosen format, and on a terminal before the question. JSON keeps computer and group as objects.
 */
export const MUTE_PLAN_VIEW: View = {
  columns: [
    computerColumn,
    groupColumn,
    { key: 'plugin', maxWidth: 28 },
    { key: 'status', kind: 'status' },
    { key: 'action', maxWidth: 48 },
  ],
  fields: ['uid', 'computer', 'group', 'plugin', 'status', 'previous', 'action'],
};

/** How many rows of the plan a terminal shows before the question; the rest are counted. */
export const PLAN_ROWS_SHOWN = 20;

/** One row per plugin result: what became of it. JSON keeps computer and group as objects. */
export const MUTE_OUTCOME_VIEW: View = {
  columns: [
    { key: 'uid' },
    computerColumn,
    groupColumn,
    { key: 'plugin', maxWidth: 28 },
    { key: 'outcome' },
    { key: 'reason', maxWidth: 60 },
  ],
  // previous and mute (the mute before and after, null for none) make the rows of a mute
  // something `plugin unmute --from` can take back exactly.
  fields: ['uid', 'computer', 'group', 'plugin', 'outcome', 'reason', 'previous', 'mute'],
};

/** The largest selection sent without --max: a typo in a filter must not mute the fleet. */
export const DEFAULT_MAX = 1000;

export interface BulkMute {
  action: MuteAction;
  /** The plugin_result attributes of every PUT (mute_type, mute_until…). */
  attributes: Attributes;
  /** How the plan line goes on: ' for 2h (until 2026-11-23 14:00)', ' under ticket #123'. */
  how: string;
  selectors: SelectorValues;
  /** `--from FILE|-`. */
  from?: string;
  max: number;
  /** An unmute lifts mutes that are not timed too, unless --timed-only. */
  includeUntimed?: boolean;
}

/** Runs a bulk mute or unmute: the options read here, the work done by the fleet's one entry. */
export async function runBulkMute(ctx: Context, bulk: BulkMute): Promise<void> {
  const { selectors, ...request } = bulk;
  // --dry-run prints the plan, a real run what became of each result: --fields is checked against what is printed.
  const rows = renderOptions(ctx, ctx.dryRun.on ? MUTE_PLAN_VIEW : MUTE_OUTCOME_VIEW);
  // Every status unless --status narrows it (README, plugin mute with selectors); muted and
  // unmuted alike are read, so that the plan can say how many need nothing.
  const { scope, filter } = selectionOf(selectors, { statuses: [], muted: 'any' }, (line) => ctx.notice(line));
  await bulkMute(
    ctx,
    { ...request, scope, filter },
    {
      rows,
      confirm: (confirmation, plan) => confirmAction(ctx, { ...confirmation, preface: () => showPlan(ctx, plan) }),
    },
  );
}

/** The plan on the terminal, before the question: its first rows as a table, the rest counted. */
async function showPlan(ctx: Context, rows: readonly PlanRow[]): Promise<void> {
  const table = await ctx.output.list({
    format: 'table',
    columns: MUTE_PLAN_VIEW.columns,
    header: true,
    color: colourWanted(ctx, true),
    tty: true,
    now: ctx.now,
    out: ctx.io.stderr,
  });
  table.push(rows.slice(0, PLAN_ROWS_SHOWN) as unknown as Record<string, unknown>[]);
  table.end();
  if (rows.length > PLAN_ROWS_SHOWN)
    ctx.io.stderr.write(`… and ${(rows.length - PLAN_ROWS_SHOWN).toLocaleString('en')} more\n`);
}
