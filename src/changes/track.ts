/**
 * `--changes NAME`, for every list and for `mon alerts`: the one place that runs a listing
 * against the state its last good run saved, prints only what differs, and saves the new state.
 *
 * The listing streams its items into a collector instead of the renderer; once it has ended
 * whole, the differences go to the real renderer (a leading CHANGE column, a top-level `change`
 * key) and then the new state is saved, atomically. A listing that fails part-way (a page after
 * its retries, Ctrl-C, a timeout) prints nothing and leaves the state as it was, so the next run
 * reports every change since the last good one. The NAME's lock is held throughout: a second
 * run with it waits for the first.
 */
import { deadlineFromEnv } from '../time/deadline.js';
import type { Context } from '../context.js';
import { InterruptedError, ServerError, StateFileError, UsageError } from '../errors.js';
import type { ChangesRequest } from './request.js';
import { localMinute } from '../output/format.js';
import { createProgress, lineOptions } from '../output/progress.js';
import type { ListRenderer } from '../output/types.js';
import type { RenderOptions } from '../output/types.js';
import {
  changeColumns,
  changeFields,
  ChangeCollector,
  Comparison,
  fieldKey,
  MissingUid,
  shown,
  type CompareField,
} from './compare.js';
import { ChangeStates } from './state.js';
import { quoted } from '../text/escape.js';

/** What a list compares by default, and what it calls its items (messages). Declared beside each list's view. */
export interface ChangeSpec {
  /** Plural in -s, for messages: 'computers'. */
  noun: string;
  compare: readonly CompareField[];
}

/**
 * How long a run waits for another run with the same NAME: a listing of a large account takes
 * a minute or two. Never past the command's deadline (MON_DEADLINE).
 */
const LOCK_WAIT_MS = 120_000;

/**
 * Runs `list` (which pushes every item of the whole listing into the sink it is given) under
 * NAME's lock, and prints what changed since the state saved under NAME. The first run with a
 * NAME (or with --reset) records the baseline and prints nothing on stdout.
 */
export async function listChanges(
  ctx: Context,
  request: ChangesRequest,
  spec: ChangeSpec,
  render: RenderOptions,
  list: (sink: ListRenderer) => Promise<void>,
): Promise<void> {
  const { name } = request;
  const compare: readonly CompareField[] = render.fields ?? spec.compare;
  const keys = compare.map(fieldKey);
  const states = new ChangeStates(ctx.configDir, (await ctx.target()).account);
  const lock = await states.lock(name, ctx.signal, Math.min(LOCK_WAIT_MS, deadlineFromEnv(ctx.env)));
  try {
    // --reset: the state saved before is not read (a damaged one included) and is replaced once this run succeeds.
    const before = request.reset ? undefined : states.read(name);
    if (before && before.fields.join(',') !== keys.join(',')) {
      throw new UsageError(
        `--changes ${name}: its saved state compares ${before.fields.join(',')}, this run ${keys.join(',')}`,
        `give the same --fields as its first run, or start again with --changes ${name} --reset`,
      );
    }
    const comparison = new Comparison(compare, render.columns, Math.floor(ctx.now() / 1000));
    const collector = new ChangeCollector(comparison, before?.items, before?.rows);
    // Nothing is printed before the whole list is read: a person at a terminal sees it being read.
    const progress = createProgress(ctx.io.stderr, ctx.now, lineOptions(ctx), ctx.rateWait);
    try {
      await list({
        push(items) {
          collector.push(items);
          progress.update(`reading ${spec.noun} ${collector.seen.size}`);
        },
        end() {},
      });
    } catch (error) {
      if (error instanceof MissingUid)
        throw new ServerError(error.message, 'this list cannot be followed with --changes');
      throw error;
    } finally {
      progress.done();
    }
    if (ctx.signal.aborted) throw InterruptedError.of(ctx.signal);
    // 'computers' -> '1 computer': every noun declared is a plural in -s.
    const counted = `${collector.seen.size} ${collector.seen.size === 1 ? spec.noun.replace(/s$/, '') : spec.noun}`;
    if (!before) {
      save(states, ctx, name, keys, comparison, collector);
      ctx.notice(`recorded ${counted} as the baseline of ${quoted(name)}`);
      return;
    }
    const differences = collector.result();
    const since = localMinute(before.savedAt);
    if (differences.length === 0) {
      save(states, ctx, name, keys, comparison, collector);
      ctx.notice(`no changes since ${since} (${counted})`);
      return;
    }
    // Printed first, saved after: a save that fails leaves the old state, and the next run
    // prints these again rather than never.
    const renderer = await ctx.output.list({
      ...render,
      columns: changeColumns(render.columns),
      fields: changeFields(render.fields),
    });
    renderer.push(differences.map(shown));
    renderer.end();
    // Delivered before saved: a filter that fails, or a full disk, leaves the state as it was.
    await ctx.delivery.delivered();
    save(states, ctx, name, keys, comparison, collector);
    const count = (change: string) => differences.filter((difference) => difference.change === change).length;
    ctx.delivery.footnote(
      `${count('new')} new, ${count('changed')} changed, ${count('gone')} gone since ${since} (${counted} now)`,
    );
  } finally {
    lock.release();
  }
}

/** A word of the command line as a shell would take it back (`mon changes list` shows the line). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function save(
  states: ChangeStates,
  ctx: Context,
  name: string,
  fields: string[],
  comparison: Comparison,
  collector: ChangeCollector,
): void {
  try {
    states.save(name, {
      command: ctx.argv.map(shellWord).join(' '),
      fields,
      savedAt: ctx.now(),
      items: collector.seen,
      rows: { keys: [...comparison.shownKeys], rows: collector.rows },
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string') throw error;
    throw new StateFileError(
      `--changes ${name}: the new state could not be saved (${code}); the one before is kept`,
      `free space or fix the folder's permissions: the next run reports these changes again`,
    );
  }
}
