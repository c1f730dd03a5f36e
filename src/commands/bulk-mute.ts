/**
 * `plugin mute|unmute` with selectors: many plugin results at once, on the selection of
 * `mon alerts`. Read the selection, show the plan, confirm, send the PUTs a few at a time inside
 * the rate budget with progress on a terminal, then one row per result. Loaded only when such a
 * command runs.
 */
import type { Attributes } from '../api/encode.js';
import type { Context } from '../context.js';
import { InterruptedError, MonError, UsageError } from '../errors.js';
import { failureOf, pastTense, planLine, targetOf, type MuteAction, type MuteOutcome, type MuteTarget } from '../fleet/mute.js';
import { confirmAction, readAll, renderOptions, showDryRun, type View } from './actions.js';
import { openSelection, selectionOf, type SelectorValues } from './selectors.js';

/** One row per plugin result: what became of it. JSON keeps computer and group as objects. */
export const MUTE_OUTCOME_VIEW: View = {
  columns: [
    { key: 'uid' },
    { key: 'computer', get: (row) => (row.computer as { name?: unknown } | null)?.name, maxWidth: 28 },
    { key: 'plugin', maxWidth: 28 },
    { key: 'outcome' },
    { key: 'reason', maxWidth: 60 },
  ],
  fields: ['uid', 'computer', 'group', 'plugin', 'outcome', 'reason'],
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
}

/** The uids of --from, read and checked before anything is sent. */
async function readFrom(ctx: Context, from: string): Promise<string[]> {
  const { parseUidLines } = await import('../validate/uid-list.js');
  if (from === '-') return parseUidLines(await readAll(ctx.io.stdin), '-');
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(from, 'utf8');
  } catch (error) {
    throw new UsageError(`--from ${from}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 'give a file of plugin result uids, one a line, or - for standard input');
  }
  return parseUidLines(text, from);
}

export async function runBulkMute(ctx: Context, bulk: BulkMute): Promise<void> {
  const { action } = bulk;
  const done = pastTense(action);
  const render = renderOptions(ctx, MUTE_OUTCOME_VIEW);
  const uids = bulk.from === undefined ? undefined : await readFrom(ctx, bulk.from);
  const { createListRenderer } = await import('../output/render.js');
  const renderer = await createListRenderer(render);
  if (uids?.length === 0) {
    renderer.end();
    ctx.notice(`nothing to ${action}: --from ${bulk.from} names no plugin result`);
    return;
  }

  // Every status unless --status narrows it (README, plugin mute with selectors); muted and
  // unmuted alike are read, so that the plan can say how many need nothing.
  const { scope, filter } = selectionOf(bulk.selectors, { statuses: [], muted: 'any', uids });
  const client = await ctx.client();
  const selection = await openSelection(ctx, client, scope, filter);
  const { isMuted } = await import('../plugin-result.js');
  const nowSec = Math.floor(ctx.now() / 1000);
  const targets: MuteTarget[] = [];
  let already = 0;
  for await (const page of selection.results(nowSec)) {
    for (const result of page) {
      // Mute picks what is not muted, unmute what is: a rerun does only what is left.
      if (isMuted(result, nowSec) === (action === 'mute')) already++;
      else targets.push(targetOf(result));
    }
  }
  selection.checkNamed();
  if (targets.length === 0) {
    renderer.end();
    ctx.notice(`nothing to ${action}${already > 0 ? `: the ${already.toLocaleString('en')} selected ${already === 1 ? 'is' : 'are'} ${done} already` : ': no plugin result matches'}`);
    return;
  }
  if (targets.length > bulk.max) {
    throw new UsageError(
      `--max: the selectors match ${targets.length.toLocaleString('en')} plugin results to ${action}, more than --max ${bulk.max}`,
      `check the selectors (\`--dry-run --max ${targets.length}\` lists them), or raise --max to ${targets.length} if all of them are meant`,
    );
  }

  ctx.notice(planLine(action, targets, bulk.how, already));
  const requests = targets.map((target) => client.prepare('pluginResults.update', { path: { uid: target.uid }, body: { plugin_result: bulk.attributes } }));
  if (await showDryRun(ctx, requests, 'the selection was read to find them', `no ${action} was sent`)) return;
  if (targets.length > 1) {
    await confirmAction(ctx, {
      question: async () => `${action[0]!.toUpperCase()}${action.slice(1)} these ${targets.length.toLocaleString('en')} plugin results? [y/N] `,
      refusal: [
        `refusing to ${action} ${targets.length.toLocaleString('en')} plugin results without --yes: ${bulk.from === '-' ? 'standard input carries the uids, so there is no terminal to confirm on' : 'no terminal to confirm on'}`,
        `add --yes (-y) to ${action} them from a script, or --dry-run to see the requests`,
      ],
      declined: `nothing ${done}: not confirmed`,
    });
  }

  const { createMeter } = await import('../output/progress.js');
  const limit = client.rateLimit;
  const meter = createMeter(ctx.io.stderr, ctx.now, ctx.globals.quiet, {
    label: action === 'mute' ? 'muting' : 'unmuting',
    total: targets.length,
    budgetRate: limit && limit.requests / (limit.windowMs / 1000),
    budgetRequests: limit?.requests,
  });
  const { fanOut, WRITE_CONCURRENCY } = await import('../fleet/fan-out.js');
  const outcomes: (MuteOutcome & { exitCode?: number })[] = [];
  try {
    await fanOut(targets, WRITE_CONCURRENCY, ctx.signal, async (target, index) => {
      try {
        await client.send(requests[index]!);
        outcomes[index] = { ...target, outcome: done, reason: null };
      } catch (error) {
        // Interrupted: neither done nor failed; a rerun selects it again if it was not applied.
        if (ctx.signal.aborted) return;
        if (!(error instanceof MonError)) throw error;
        // Each failure is reported and the others go on (a ticket mute without a ticket system, a 500).
        outcomes[index] = { ...target, outcome: 'failed', reason: error.message, exitCode: error.exitCode };
      }
      meter.tick();
    });
  } finally {
    meter.done();
  }

  const ended = outcomes.filter((outcome) => outcome !== undefined);
  renderer.push(ended.map(({ exitCode: _, ...row }) => row as unknown as Record<string, unknown>));
  renderer.end();
  const succeeded = ended.filter((outcome) => outcome.outcome !== 'failed').length;
  const failed = ended.length - succeeded;
  if (ctx.signal.aborted) {
    throw InterruptedError.of(
      ctx.signal,
      `${succeeded} of ${targets.length} ${done}${failed > 0 ? ` (${failed} failed)` : ''}; run the same command again to finish`,
    );
  }
  ctx.notice(failed === 0 ? `${done} ${targets.length.toLocaleString('en')} plugin result${targets.length === 1 ? '' : 's'}` : `${done} ${succeeded} of ${targets.length} plugin results; ${failed} failed`);
  const failure = failureOf(action, ended);
  if (failure) throw failure;
}
