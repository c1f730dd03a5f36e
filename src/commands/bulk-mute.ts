/**
 * `plugin mute|unmute` with selectors: many plugin results at once, on the selection of
 * `mon alerts`. This wires the options, the terminal and the output to the work in
 * src/fleet/mute.ts: read the selection, show the plan, confirm, send with progress on a
 * terminal, then one row per result. Loaded only when such a command runs.
 */
import type { Attributes } from '../api/encode.js';
import type { Context } from '../context.js';
import { GROUP_COLUMN } from '../output/columns.js';
import { shortened } from '../text/escape.js';
import {
  attributesOf,
  checkMax,
  muteConfirmation,
  nothingToDo,
  planLine,
  planMute,
  planRows,
  sendMutes,
  stateSet,
  tallyMutes,
  type MuteAction,
  type PlanRow,
  type SentOutcome,
} from '../fleet/mute.js';
import type { FromLines } from '../validate/uid-list.js';
import { colourWanted, confirmAction, renderOptions, type View } from './actions.js';
import { openSelection, selectionOf, type SelectorValues } from './selectors.js';

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

/** The uids of --from (and the rows of a mute, when it holds those), read and checked before anything is sent. */
async function readFrom(ctx: Context, from: string): Promise<FromLines & { name: string }> {
  const [{ FROM_HINT, FROM_MAX_BYTES, FROM_MAX_LINE_BYTES, parseFromLines }, { inputName, readUserInput }] =
    await Promise.all([import('../validate/uid-list.js'), import('../io/user-input.js')]);
  const text = await readUserInput(ctx, {
    option: '--from',
    path: from,
    maxBytes: FROM_MAX_BYTES,
    maxLineBytes: FROM_MAX_LINE_BYTES,
    tooLarge: 'the most a list of uids may be',
    hint: FROM_HINT,
  });
  return { ...parseFromLines(text, inputName(from)), name: inputName(from) };
}

export async function runBulkMute(ctx: Context, bulk: BulkMute): Promise<void> {
  const { action } = bulk;
  // --dry-run prints the plan, a real run what became of each result: --fields is checked against what is printed.
  const render = renderOptions(ctx, ctx.dryRun.on ? MUTE_PLAN_VIEW : MUTE_OUTCOME_VIEW);
  const from = bulk.from === undefined ? undefined : await readFrom(ctx, bulk.from);
  // The rows of a mute, given to an unmute: only what that mute muted is taken back.
  const rows = action === 'unmute' ? from?.rows : undefined;
  const uids = rows ? from!.uids.filter((uid) => rows.get(uid)!.outcome === 'muted') : from?.uids;
  const renderer = await ctx.output.list(render);
  if (uids?.length === 0) {
    renderer.end();
    ctx.notice(
      `nothing to ${action}: --from ${shortened(bulk.from!)} names no plugin result${rows ? ' that its mute muted' : ''}`,
    );
    return;
  }

  // Every status unless --status narrows it (README, plugin mute with selectors); muted and
  // unmuted alike are read, so that the plan can say how many need nothing.
  const { scope, filter } = selectionOf(bulk.selectors, { statuses: [], muted: 'any', uids }, (line) =>
    ctx.notice(line),
  );
  const client = await ctx.client();
  const selection = await openSelection(ctx, client, scope, filter);
  const nowSec = Math.floor(ctx.now() / 1000);
  const plan = await planMute(action, selection.results(nowSec), nowSec, {
    includeUntimed: bulk.includeUntimed,
    rows,
    undoOf: rows ? from!.name : undefined,
  });
  selection.checkNamed();
  const nothing = nothingToDo(plan);
  if (nothing) {
    renderer.end();
    ctx.notice(nothing);
    return;
  }
  checkMax(plan, bulk.max);

  ctx.notice(planLine(plan, bulk.how));
  const requests = plan.targets.map((target) =>
    client.prepare('pluginResults.update', {
      path: { uid: target.uid },
      body: { plugin_result: target.restore === undefined ? bulk.attributes : attributesOf(target.restore) },
    }),
  );
  if (ctx.dryRun.on) {
    // The plan as rows on stdout; the requests themselves, key redacted, with --verbose.
    renderer.push(planRows(plan, bulk.how) as unknown as Record<string, unknown>[]);
    renderer.end();
    for (const request of requests) {
      const { method, url, form } = client.describe(request);
      for (const line of [`${method} ${url}`, ...form.map(([key, value]) => `  ${key}=${value}`)]) ctx.debug(line);
    }
    ctx.notice(
      `dry run: no ${action} was sent (the selection was read to find them${ctx.globals.verbose ? '' : '; --verbose shows each request'})`,
    );
    return;
  }
  const confirmation = muteConfirmation(plan, bulk.from === '-');
  if (confirmation)
    await confirmAction(ctx, { ...confirmation, preface: () => showPlan(ctx, planRows(plan, bulk.how)) });

  const { createMeter } = await import('../output/progress.js');
  const limit = client.rateLimit;
  const meter = createMeter(
    ctx.io.stderr,
    ctx.now,
    ctx.globals.quiet,
    {
      label: action === 'mute' ? 'muting' : 'unmuting',
      total: plan.targets.length,
      budgetRate: limit && limit.requests / (limit.windowMs / 1000),
      budgetRequests: limit?.requests,
    },
    ctx.rateWait,
  );
  // Ctrl-C lets the PUTs on their way finish, so that the count is what the server confirmed.
  const finishing = ctx.letFinish();
  let outcomes: SentOutcome[];
  try {
    outcomes = await sendMutes(client, plan, requests, {
      signal: ctx.signal,
      inFlight: finishing.inFlight,
      onEnded: () => meter.tick(),
      sets: stateSet(bulk.attributes),
    });
  } finally {
    finishing.release();
    meter.done();
  }
  renderer.push(outcomes.map(({ exitCode: _, ...row }) => row as unknown as Record<string, unknown>));
  renderer.end();
  const { notice, failure } = tallyMutes(plan, outcomes, ctx.signal);
  if (notice) ctx.notice(notice);
  if (failure) throw failure;
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
