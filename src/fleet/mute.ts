/**
 * Muting and unmuting many plugin results (`plugin mute|unmute` with selectors), below the
 * command: the plan (what the selection holds that needs doing) and its words (the plan line,
 * the question, why nothing is to be done). The writes are in mute-send.ts; the order of the
 * steps in bulk-mute.ts, the one entry the command calls.
 */
import type { Attributes } from '../api/encode.js';
import { UsageError } from '../errors.js';
import { localMinute } from '../output/format.js';
import { isTimed, muteState, sameMute, type MuteState } from '../model/plugin-result.js';
import type { MuteRow } from '../validate/uid-list.js';
import type { ComputerRef, GroupRef, SelectedResult } from './selection.js';

export type MuteAction = 'mute' | 'unmute';

/** A plugin result as the plan and the rows name it. */
export interface NamedResult {
  uid: string;
  computer: ComputerRef;
  group: GroupRef | null;
  plugin: string | null;
}

/** A plugin result to mute or unmute. */
export interface MuteTarget extends NamedResult {
  /** Its status when the selection was read (Alert, OK…), for the plan. */
  status: string | null;
  /** The mute in force when the selection was read (null: none): what the output's row records. */
  previous: MuteState | null;
  /** An undo's: the mute to put back (null: none, an unmute); undefined: the run's own attributes. */
  restore?: MuteState | null;
}

/** One row of the plan (`--dry-run`, and before the question on a terminal): what will be done to a result. */
export interface PlanRow extends MuteTarget {
  /** `mute for 2h (until 2026-11-23 14:00)`, `mute under ticket #4711`, `mute until unmuted`, `unmute`. */
  action: string;
}

/** One row of the output: what became of a target. */
export interface MuteOutcome extends NamedResult {
  outcome: 'muted' | 'unmuted' | 'restored' | 'failed';
  /** Why it failed (the API's or the network's answer), else null. */
  reason: string | null;
  /** The mute in force before (null: none). */
  previous: MuteState | null;
  /** The mute in force after, as the server answered the write (null: none, or the write failed). */
  mute: MuteState | null;
}

/** An outcome with the exit code of its failure (not shown: it decides the run's exit code). */
export type SentOutcome = MuteOutcome & { exitCode?: number };

/** What a run will do: the targets, and how many of the selected need nothing. */
export interface MutePlan {
  action: MuteAction;
  targets: MuteTarget[];
  /** Selected but muted already (for a mute), or not muted (for an unmute). */
  already: number;
  /**
   * Mutes in force that are not timed and stay as they are: among a mute's `already` (a mute
   * never changes a mute in force, so never shortens one for good); an unmute's without
   * --timed-only (not in its `already`).
   */
  untimedKept: MuteState[];
  /** An undo's: results muted since otherwise than the rows say, left as they are. */
  changed: number;
  /** An undo's: the file whose rows it takes back, as messages name it. */
  undoOf?: string;
}

/** What a plan takes besides the selection. */
export interface PlanOptions {
  /** An unmute's: also lift mutes that are not timed (for good, under a ticket). */
  includeUntimed?: boolean;
  /** An unmute's: take back exactly these rows of a bulk mute (by uid; `undoOf` names their file). */
  rows?: ReadonlyMap<string, MuteRow>;
  undoOf?: string;
}

/** What the rows keep of a selected result. */
export function targetOf(result: SelectedResult, previous: MuteState | null): MuteTarget {
  return {
    uid: String(result.uid),
    computer: result.computer,
    group: result.group,
    plugin: typeof result.name === 'string' ? result.name : null,
    status: typeof result.status === 'string' ? result.status : null,
    previous,
  };
}

/** The plan as rows; `how` goes on as the plan line's does (' for 2h (until …)', ' under ticket #123'). */
export function planRows(plan: MutePlan, how: string): PlanRow[] {
  const action = `${plan.action}${how}`;
  return plan.targets.map(({ restore, ...target }) => ({
    ...target,
    action: restore ? `restore: ${describeMute(restore)}` : action,
  }));
}

/**
 * The plan over the selection's pages: mute picks what is not muted, unmute what is, so a rerun
 * after an interruption or a failure does only what is left. A mute in force is never changed by
 * a mute (so one for good is never shortened to a time); an unmute lifts timed mutes only
 * unless `includeUntimed` (the default; --timed-only turns it off). An undo (`rows`) picks what still carries the mute its row says was set, and
 * puts back the mute its row says was there before.
 */
export async function planMute(
  action: MuteAction,
  pages: AsyncIterable<readonly SelectedResult[]>,
  nowSec: number,
  options: PlanOptions = {},
): Promise<MutePlan> {
  const targets: MuteTarget[] = [];
  const untimedKept: MuteState[] = [];
  let already = 0;
  let changed = 0;
  for await (const page of pages) {
    for (const result of page) {
      const state = muteState(result, nowSec);
      const row = options.rows?.get(String(result.uid));
      // An undo takes what its rows name, nothing else.
      if (options.rows && !row) continue;
      if (row) {
        if (state === null) already++;
        else if (sameMute(state, row.mute))
          targets.push({ ...targetOf(result, state), restore: restorable(row.previous, nowSec) });
        else changed++;
      } else if (action === 'mute') {
        if (state === null) targets.push(targetOf(result, state));
        else {
          already++;
          if (!isTimed(state)) untimedKept.push(state);
        }
      } else if (state === null) already++;
      else if (!isTimed(state) && !options.includeUntimed) untimedKept.push(state);
      else targets.push(targetOf(result, state));
    }
  }
  return {
    action,
    targets,
    already,
    untimedKept,
    changed,
    ...(options.undoOf === undefined ? {} : { undoOf: options.undoOf }),
  };
}

/** What an undo puts back: the mute before, or none when that was a timed mute whose end has passed since. */
function restorable(previous: MuteState | null, nowSec: number): MuteState | null {
  if (previous === null || (isTimed(previous) && (previous.mute_until ?? 0) <= nowSec)) return null;
  return previous;
}

/**
 * The attributes of the PUT that puts `state` back (null: none): the mute types a request
 * names (api-v2.5, Plugin results: ignored, timed, ticket, none).
 */
export function attributesOf(state: MuteState | null): Attributes {
  if (state === null) return { mute_type: 'none' };
  if (state.mute_type === 'timed_mute' && state.mute_until !== undefined)
    return { mute_type: 'timed', mute_until: state.mute_until, ticket_url: state.ticket_url };
  if (state.mute_type === 'ticket_muted' && state.ticket_number !== undefined)
    return { mute_type: 'ticket', ticket_number: state.ticket_number, ticket_url: state.ticket_url };
  return { mute_type: 'ignored' };
}

/** A mute in words: `muted for good`, `muted under ticket #4711`, `muted until 2026-11-23 14:00` (local time). */
export function describeMute(state: MuteState): string {
  if (state.mute_type === 'muted_forever') return 'muted for good';
  if (state.mute_type === 'ticket_muted')
    return `muted under ${state.ticket_number === undefined ? 'a ticket' : `ticket #${state.ticket_number}`}`;
  if (state.mute_until !== undefined) return `muted until ${localMinute(state.mute_until * 1000)}`;
  return `muted (${state.mute_type})`;
}

/** The mutes that are not timed, by kind: `muted for good`, `1 muted for good, 2 under a ticket`. */
export function untimedKinds(states: readonly MuteState[]): string {
  const kinds = new Map<string, number>();
  for (const state of states) {
    const kind =
      state.mute_type === 'muted_forever'
        ? 'muted for good'
        : state.mute_type === 'ticket_muted'
          ? 'under a ticket'
          : `muted (${state.mute_type})`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  if (kinds.size === 1) return [...kinds.keys()][0]!;
  return [...kinds].map(([kind, n]) => `${n.toLocaleString('en')} ${kind}`).join(', ');
}

/** `1 of them not timed (muted for good)`, `3 of them not timed (1 muted for good, 2 under a ticket)`. */
function notTimed(states: readonly MuteState[]): string {
  return `${states.length.toLocaleString('en')} of them not timed (${untimedKinds(states)})`;
}

/** The mutes an unmute will lift that are not timed. */
export function untimedLifted(plan: MutePlan): MuteState[] {
  if (plan.action !== 'unmute' || plan.undoOf !== undefined) return [];
  return plan.targets.flatMap(({ previous }) => (previous && !isTimed(previous) ? [previous] : []));
}

/** What an unmute leaves muted, and why, for the plan line and for nothing to do. */
function keptWords(plan: MutePlan): string[] {
  const words: string[] = [];
  if (plan.action === 'unmute' && plan.untimedKept.length > 0) {
    const n = plan.untimedKept.length;
    words.push(
      `${n.toLocaleString('en')} muted ${n === 1 ? 'is' : 'are'} not timed (${untimedKinds(plan.untimedKept)}) and ${n === 1 ? 'stays' : 'stay'} muted (--timed-only)`,
    );
  }
  if (plan.changed > 0) {
    words.push(
      `${plan.changed.toLocaleString('en')} ${plan.changed === 1 ? 'was' : 'were'} muted otherwise since and ${plan.changed === 1 ? 'stays' : 'stay'} as ${plan.changed === 1 ? 'it is' : 'they are'}`,
    );
  }
  return words;
}

/** Why nothing is to be sent (a notice, exit 0), or undefined when there is work. */
export function nothingToDo(plan: MutePlan): string | undefined {
  if (plan.targets.length > 0) return undefined;
  const { action, already } = plan;
  const why = keptWords(plan);
  if (already > 0) {
    const kept = action === 'mute' && plan.untimedKept.length > 0 ? `, ${notTimed(plan.untimedKept)}` : '';
    const which =
      plan.undoOf === undefined ? `the ${already.toLocaleString('en')} selected` : already.toLocaleString('en');
    why.push(`${which} ${already === 1 ? 'is' : 'are'} ${pastTense(action)} already${kept}`);
  }
  const what = plan.undoOf === undefined ? action : `take back of the mute of ${plan.undoOf}`;
  return `nothing to ${what}: ${why.length > 0 ? why.join('; ') : 'no plugin result matches'}`;
}

/** More targets than --max is exit 2, before anything is sent: a typo in a filter must not mute the fleet. */
export function checkMax(plan: MutePlan, max: number): void {
  const { action, targets } = plan;
  if (targets.length <= max) return;
  throw new UsageError(
    `--max: the selectors match ${targets.length.toLocaleString('en')} plugin results to ${action}, more than --max ${max}`,
    `check the selectors (\`--dry-run --max ${targets.length}\` lists them), or raise --max to ${targets.length} if all of them are meant`,
  );
}

/** The words of a bulk mute's question, of the refusal without a terminal, and of a "no". */
export interface MuteQuestion {
  question: () => Promise<string>;
  refusal: [string, string];
  declined: string;
}

/**
 * Whether to ask, and the words of the question, of the refusal without a terminal and of a
 * "no": one result goes without asking, as `plugin mute <pr_uid>` does.
 */
export function muteConfirmation(plan: MutePlan, fromStdin: boolean): MuteQuestion | undefined {
  const { action } = plan;
  const count = plan.targets.length;
  if (count <= 1) return undefined;
  const n = count.toLocaleString('en');
  // An unmute that lifts mutes that would not end by themselves says so in the question.
  const untimed = untimedLifted(plan);
  const which = untimed.length === 0 ? '' : `, ${notTimed(untimed)}`;
  return {
    question: async () => `${action[0]!.toUpperCase()}${action.slice(1)} these ${n} plugin results${which}? [y/N] `,
    refusal: [
      `refusing to ${action} ${n} plugin results without --yes: ${fromStdin ? 'standard input carries the uids, so there is no terminal to confirm on' : 'no terminal to confirm on'}`,
      `add --yes (-y) to ${action} them from a script, or --dry-run to see the requests`,
    ],
    declined: `nothing ${pastTense(action)}: not confirmed`,
  };
}

export const pastTense = (action: MuteAction): 'muted' | 'unmuted' => (action === 'mute' ? 'muted' : 'unmuted');

const counted = (n: number, noun: string): string => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

/** `214 plugin results on 37 computers in 3 groups` (groups left out when none is known). */
export function extent(targets: readonly MuteTarget[]): string {
  const computers = new Set(targets.map((t) => t.computer.uid ?? t.computer.client_id));
  const groups = new Set(targets.flatMap((t) => (t.group ? [t.group.uid] : [])));
  return `${counted(targets.length, 'plugin result')} on ${counted(computers.size, 'computer')}${groups.size > 0 ? ` in ${counted(groups.size, 'group')}` : ''}`;
}

/**
 * The plan, one line before anything is sent: `mute 214 plugin results on 37 computers in 3
 * groups for 2h (until 2026-11-23 14:00)`; `already` counts what the selectors matched that
 * needs nothing (muted already, for a mute), so a second run says why it does less. It says how
 * many of the mutes an unmute lifts, or leaves, are not timed (they would not end by themselves),
 * and what an undo leaves because it was muted otherwise since.
 */
export function planLine(plan: MutePlan, how: string): string {
  const { action, already } = plan;
  const untimed = untimedLifted(plan);
  const lifted = untimed.length > 0 ? `, ${notTimed(untimed)}` : '';
  const undo = plan.undoOf === undefined ? '' : `, taking back the mute of ${plan.undoOf}`;
  const rest = keptWords(plan);
  if (already > 0) {
    const kept =
      action === 'mute' && plan.untimedKept.length > 0 ? `, ${notTimed(plan.untimedKept)}, and stay as they are` : '';
    rest.push(
      `${already.toLocaleString('en')} more ${already === 1 ? 'is' : 'are'} ${pastTense(action)} already${kept}`,
    );
  }
  return `${action} ${extent(plan.targets)}${how}${undo}${lifted}${rest.map((words) => `; ${words}`).join('')}`;
}

/** `2h`, `1h30m`, `7d`, `1d2h`: a length of time in whole minutes, for the plan. */
export function roughDuration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  return `${d ? `${d}d` : ''}${h ? `${h}h` : ''}${m ? `${m}m` : ''}`;
}
