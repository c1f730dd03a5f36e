/**
 * The fleet's one entry for a write over many plugin results (`plugin mute|unmute` with
 * selectors): select → plan → confirm → send, in that order, in `bulkMute` below. The command
 * (src/commands/bulk-mute.ts) declares the options and the views and calls it once; the plan and
 * its words are in mute.ts, the writes in mute-send.ts, the reads in selection.ts.
 */
import type { ApiClient, PreparedRequest } from '../api/client.js';
import type { Attributes } from '../api/encode.js';
import type { Context } from '../context.js';
import { inputName, readUserInput } from '../io/user-input.js';
import { createMeter, lineOptions } from '../output/progress.js';
import type { ListRenderer, RenderOptions } from '../output/types.js';
import { shortened } from '../text/escape.js';
import { FROM_HINT, FROM_MAX_BYTES, FROM_MAX_LINE_BYTES, parseFromLines, type MuteRow } from '../validate/uid-list.js';
import {
  attributesOf,
  checkMax,
  muteConfirmation,
  nothingToDo,
  planLine,
  planMute,
  planRows,
  type MuteAction,
  type MutePlan,
  type MuteQuestion,
  type PlanRow,
  type SentOutcome,
} from './mute.js';
import { sendMutes, stateSet, tallyMutes } from './mute-send.js';
import { namedBy, openSelection, type ResultFilter, type Scope } from './selection.js';

/** What to do, and to which plugin results: the command line, read once by the command. */
export interface BulkMuteRequest {
  action: MuteAction;
  /** The plugin_result attributes of every PUT (mute_type, mute_until…). */
  attributes: Attributes;
  /** How the plan line goes on: ' for 2h (until 2026-11-23 14:00)', ' under ticket #123'. */
  how: string;
  /** What the selectors stand for (src/commands/selectors.ts, selectionOf). */
  scope: Scope;
  filter: ResultFilter;
  /** `--from FILE|-`: only the plugin results it names. */
  from?: string;
  max: number;
  /** An unmute lifts mutes that are not timed too, unless --timed-only. */
  includeUntimed?: boolean;
}

/** What the command decides about showing and asking. */
export interface BulkMuteCommand {
  /** How the rows are rendered: the plan's under --dry-run, the outcomes' otherwise (--fields checked). */
  rows: RenderOptions;
  /** Asks before anything is sent (--yes, or "y" on a terminal once the plan's rows are shown). */
  confirm(confirmation: MuteQuestion, plan: readonly PlanRow[]): Promise<void>;
}

/** The uids of --from, and the rows of a mute when it holds those (an unmute then takes that mute back). */
interface Named {
  uids: readonly string[];
  rows?: ReadonlyMap<string, MuteRow>;
  /** The file as messages name it. */
  name: string;
}

/**
 * A bulk mute or unmute: select (--from, then the selection), plan, confirm (or, with --dry-run,
 * show the plan and stop), send; then one row per result and the tally.
 */
export async function bulkMute(ctx: Context, request: BulkMuteRequest, command: BulkMuteCommand): Promise<void> {
  const { action, how } = request;
  // Select.
  const named = request.from === undefined ? undefined : await readFrom(ctx, request.action, request.from);
  const renderer = await ctx.output.list(command.rows);
  if (named?.uids.length === 0) return stop(ctx, renderer, nothingNamed(action, request.from!, named));
  const client = await ctx.client();
  const selection = await openSelection(ctx, client, request.scope, namedBy(request.filter, named?.uids));
  // Plan.
  const nowSec = Math.floor(ctx.now() / 1000);
  const plan = await planMute(action, selection.results(nowSec), nowSec, {
    includeUntimed: request.includeUntimed,
    rows: named?.rows,
    undoOf: named?.rows ? named.name : undefined,
  });
  selection.checkNamed();
  const nothing = nothingToDo(plan);
  if (nothing) return stop(ctx, renderer, nothing);
  checkMax(plan, request.max);
  ctx.notice(planLine(plan, how));
  const requests = plan.targets.map((target) =>
    client.prepare('pluginResults.update', {
      path: { uid: target.uid },
      body: { plugin_result: target.restore === undefined ? request.attributes : attributesOf(target.restore) },
    }),
  );
  // Confirm, or show the plan and stop.
  if (ctx.dryRun.on) return showPlan(ctx, client, renderer, planRows(plan, how), requests, action);
  const confirmation = muteConfirmation(plan, request.from === '-');
  if (confirmation) await command.confirm(confirmation, planRows(plan, how));
  // Send.
  const outcomes = await send(ctx, client, plan, requests, request.attributes);
  renderer.push(outcomes.map(({ exitCode: _, ...row }) => row as unknown as Record<string, unknown>));
  renderer.end();
  const { notice, failure } = tallyMutes(plan, outcomes, ctx.signal);
  if (notice) ctx.notice(notice);
  if (failure) throw failure;
}

/** The uids of --from (and the rows of a mute, when it holds those), read and checked before anything is sent. */
async function readFrom(ctx: Context, action: MuteAction, from: string): Promise<Named> {
  const text = await readUserInput(ctx, {
    option: '--from',
    path: from,
    maxBytes: FROM_MAX_BYTES,
    maxLineBytes: FROM_MAX_LINE_BYTES,
    tooLarge: 'the most a list of uids may be',
    hint: FROM_HINT,
  });
  const name = inputName(from);
  const { uids, rows } = parseFromLines(text, name);
  // The rows of a mute, given to an unmute: only what that mute muted is taken back.
  if (action === 'unmute' && rows)
    return { uids: uids.filter((uid) => rows.get(uid)!.outcome === 'muted'), rows, name };
  return { uids, name };
}

/** Why a --from that names nothing (to do) ends the run. */
function nothingNamed(action: MuteAction, from: string, named: Named): string {
  return `nothing to ${action}: --from ${shortened(from)} names no plugin result${named.rows ? ' that its mute muted' : ''}`;
}

/** Ends a run that sends nothing: the rows' output closed (an empty list), and why. */
function stop(ctx: Context, renderer: ListRenderer, why: string): void {
  renderer.end();
  ctx.notice(why);
}

/** --dry-run: the plan as rows on stdout; the requests themselves, key redacted, with --verbose. */
function showPlan(
  ctx: Context,
  client: ApiClient,
  renderer: ListRenderer,
  rows: readonly PlanRow[],
  requests: readonly PreparedRequest[],
  action: MuteAction,
): void {
  renderer.push(rows as unknown as Record<string, unknown>[]);
  renderer.end();
  for (const request of requests) {
    const { method, url, form } = client.describe(request);
    for (const line of [`${method} ${url}`, ...form.map(([key, value]) => `  ${key}=${value}`)]) ctx.debug(line);
  }
  ctx.notice(
    `dry run: no ${action} was sent (the selection was read to find them${ctx.globals.verbose ? '' : '; --verbose shows each request'})`,
  );
}

/** The PUTs, with a meter on a terminal; Ctrl-C lets those on their way finish, so that the count is what the server confirmed. */
async function send(
  ctx: Context,
  client: ApiClient,
  plan: MutePlan,
  requests: readonly PreparedRequest[],
  attributes: Attributes,
): Promise<SentOutcome[]> {
  const limit = client.rateLimit;
  const meter = createMeter(
    ctx.io.stderr,
    ctx.now,
    lineOptions(ctx),
    {
      label: plan.action === 'mute' ? 'muting' : 'unmuting',
      total: plan.targets.length,
      budgetRate: limit && limit.requests / (limit.windowMs / 1000),
      budgetRequests: limit?.requests,
    },
    ctx.rateWait,
  );
  const finishing = ctx.life.letFinish();
  try {
    return await sendMutes(client, plan, requests, {
      signal: ctx.signal,
      inFlight: finishing.inFlight,
      onEnded: () => meter.tick(),
      sets: stateSet(attributes),
    });
  } finally {
    finishing.release();
    meter.done();
  }
}
