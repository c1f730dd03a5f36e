/**
 * Muting and unmuting many plugin results (`plugin mute|unmute` with selectors), below the
 * command: the plan (what the selection holds that needs doing), the confirmation's words, the
 * sending through the one fan-out, the tally and the exit code the failures make. The command
 * (src/commands/bulk-mute.ts) only wires the options, the terminal and the output to these.
 */
import type { ApiClient, PreparedRequest } from '../api/client.js';
import { EXIT, InterruptedError, MonError, mostCommonExitCode, PartialFailureError, UsageError } from '../errors.js';
import { fanOut, WRITE_CONCURRENCY } from './fan-out.js';
import { isMuted } from '../model/plugin-result.js';
import { type ComputerRef, type GroupRef, type SelectedResult } from './selection.js';

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
}

/** One row of the plan (`--dry-run`, and before the question on a terminal): what will be done to a result. */
export interface PlanRow extends MuteTarget {
  /** `mute for 2h (until 2026-11-23 14:00)`, `mute under ticket #4711`, `mute until unmuted`, `unmute`. */
  action: string;
}

/** One row of the output: what became of a target. */
export interface MuteOutcome extends NamedResult {
  outcome: 'muted' | 'unmuted' | 'failed';
  /** Why it failed (the API's or the network's answer), else null. */
  reason: string | null;
}

/** An outcome with the exit code of its failure (not shown: it decides the run's exit code). */
export type SentOutcome = MuteOutcome & { exitCode?: number };

/** What a run will do: the targets, and how many of the selected need nothing. */
export interface MutePlan {
  action: MuteAction;
  targets: MuteTarget[];
  /** Selected but muted already (for a mute), or not muted (for an unmute). */
  already: number;
}

/** What the rows keep of a selected result. */
export function targetOf(result: SelectedResult): MuteTarget {
  return {
    uid: String(result.uid),
    computer: result.computer,
    group: result.group,
    plugin: typeof result.name === 'string' ? result.name : null,
    status: typeof result.status === 'string' ? result.status : null,
  };
}

/** The plan as rows; `how` goes on as the plan line's does (' for 2h (until …)', ' under ticket #123'). */
export function planRows(plan: MutePlan, how: string): PlanRow[] {
  const action = `${plan.action}${how}`;
  return plan.targets.map((target) => ({ ...target, action }));
}

/**
 * The plan over the selection's pages: mute picks what is not muted, unmute what is, so a rerun
 * after an interruption or a failure does only what is left.
 */
export async function planMute(action: MuteAction, pages: AsyncIterable<readonly SelectedResult[]>, nowSec: number): Promise<MutePlan> {
  const targets: MuteTarget[] = [];
  let already = 0;
  for await (const page of pages) {
    for (const result of page) {
      if (isMuted(result, nowSec) === (action === 'mute')) already++;
      else targets.push(targetOf(result));
    }
  }
  return { action, targets, already };
}

/** Why nothing is to be sent (a notice, exit 0), or undefined when there is work. */
export function nothingToDo(plan: MutePlan): string | undefined {
  if (plan.targets.length > 0) return undefined;
  const { action, already } = plan;
  return `nothing to ${action}${already > 0 ? `: the ${already.toLocaleString('en')} selected ${already === 1 ? 'is' : 'are'} ${pastTense(action)} already` : ': no plugin result matches'}`;
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

/**
 * Whether to ask, and the words of the question, of the refusal without a terminal and of a
 * "no": one result goes without asking, as `plugin mute <pr_uid>` does.
 */
export function muteConfirmation(plan: MutePlan, fromStdin: boolean): { question: () => Promise<string>; refusal: [string, string]; declined: string } | undefined {
  const { action } = plan;
  const count = plan.targets.length;
  if (count <= 1) return undefined;
  const n = count.toLocaleString('en');
  return {
    question: async () => `${action[0]!.toUpperCase()}${action.slice(1)} these ${n} plugin results? [y/N] `,
    refusal: [
      `refusing to ${action} ${n} plugin results without --yes: ${fromStdin ? 'standard input carries the uids, so there is no terminal to confirm on' : 'no terminal to confirm on'}`,
      `add --yes (-y) to ${action} them from a script, or --dry-run to see the requests`,
    ],
    declined: `nothing ${pastTense(action)}: not confirmed`,
  };
}

/** How the PUTs go out. */
export interface SendOptions {
  /** Ctrl-C or SIGTERM: no PUT starts once it is aborted. */
  signal: AbortSignal;
  /** What cuts off the PUTs already on their way (a second signal); without it, `signal`. */
  inFlight?: AbortSignal;
  /** Told after each PUT that ended (the meter). */
  onEnded?: () => void;
}

/**
 * Sends the plan's PUTs (`requests[i]` for `plan.targets[i]`), a few at a time inside the rate
 * budget. Each failure is an outcome and the others go on (a ticket mute without a ticket
 * system, a 500). Once `signal` is aborted no PUT starts, and those on their way end as the
 * server answers them (or `inFlight`, --timeout or the deadline cuts them off), so what is
 * counted done is what the server confirmed. A PUT that never started, or was cut off by a
 * second signal, is neither done nor failed: a rerun selects it again if it was not applied.
 * Once UNANSWERED_IN_A_ROW PUTs in a row have reached no answer, no more start either (the
 * service is down: each would wait out its retries, a thousand of them up to MON_DEADLINE).
 * Returns the outcomes in the plan's order, those that ended.
 */
export async function sendMutes(client: ApiClient, plan: MutePlan, requests: readonly PreparedRequest[], options: SendOptions): Promise<SentOutcome[]> {
  const done = pastTense(plan.action);
  const outcomes: SentOutcome[] = [];
  const unreachable = new AbortController();
  let unanswered = 0;
  await fanOut(plan.targets, WRITE_CONCURRENCY, AbortSignal.any([options.signal, unreachable.signal]), async (target, index) => {
    try {
      await client.send(requests[index]!, { inFlight: options.inFlight });
      outcomes[index] = { ...named(target), outcome: done, reason: null };
      unanswered = 0;
    } catch (error) {
      if (error instanceof InterruptedError) return;
      if (!(error instanceof MonError)) throw error;
      outcomes[index] = { ...named(target), outcome: 'failed', reason: error.message, exitCode: error.exitCode };
      // Exit 8: unreachable, timed out, cut off by the deadline; an answer (a 500) resets the count.
      unanswered = error.exitCode === EXIT.network ? unanswered + 1 : 0;
      if (unanswered >= UNANSWERED_IN_A_ROW) unreachable.abort();
    }
    options.onEnded?.();
  });
  return outcomes.filter((outcome) => outcome !== undefined);
}

/** PUTs in a row that reached no answer after which a bulk mute sends no more: two rounds of those in flight. */
export const UNANSWERED_IN_A_ROW = 2 * WRITE_CONCURRENCY;

const named = ({ uid, computer, group, plugin }: NamedResult): NamedResult => ({ uid, computer, group, plugin });

/**
 * The run's end: the summary line for people, or the error that ends it (interrupted: how many
 * were done; some failed: every failed uid, with the code most failures share).
 */
export function tallyMutes(plan: MutePlan, outcomes: readonly SentOutcome[], signal: AbortSignal): { notice?: string; failure?: MonError } {
  const { action } = plan;
  const done = pastTense(action);
  const total = plan.targets.length;
  const succeeded = outcomes.filter((outcome) => outcome.outcome !== 'failed').length;
  const failed = outcomes.length - succeeded;
  if (signal.aborted) {
    return { failure: InterruptedError.of(signal, `${succeeded} of ${total} ${done}${failed > 0 ? ` (${failed} failed)` : ''}; run the same command again to finish`) };
  }
  // Not interrupted, yet some never sent: the service stopped answering (sendMutes).
  const unsent = total - outcomes.length;
  return {
    notice: failed === 0 ? `${done} ${total.toLocaleString('en')} plugin result${total === 1 ? '' : 's'}` : `${done} ${succeeded} of ${total} plugin results; ${failed} failed${unsent > 0 ? `, ${unsent} not sent` : ''}`,
    failure: failureOf(action, outcomes, total),
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
 * needs nothing (muted already, for a mute), so a second run says why it does less.
 */
export function planLine(action: MuteAction, targets: readonly MuteTarget[], how: string, already: number): string {
  const rest = already > 0 ? `; ${already.toLocaleString('en')} more ${already === 1 ? 'is' : 'are'} ${pastTense(action)} already` : '';
  return `${action} ${extent(targets)}${how}${rest}`;
}

/** `2h`, `1h30m`, `7d`, `1d2h`: a length of time in whole minutes, for the plan. */
export function roughDuration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  return `${d ? `${d}d` : ''}${h ? `${h}h` : ''}${m ? `${m}m` : ''}`;
}

/**
 * The error that ends a run in which some writes failed (the others are done): it lists every
 * failed uid and exits with the code of the failures' own errors (mostCommonExitCode).
 */
export function failureOf(action: MuteAction, outcomes: readonly SentOutcome[], total = outcomes.length): PartialFailureError | undefined {
  const failed = outcomes.filter((o) => o.outcome === 'failed');
  if (failed.length === 0) return undefined;
  const code = mostCommonExitCode(failed.map(({ exitCode = 1 }) => exitCode));
  const reason = failed.find((o) => (o.exitCode ?? 1) === code)?.reason;
  const unsent = total - outcomes.length;
  const done = total - unsent - failed.length;
  return new PartialFailureError(
    `${failed.length} of ${total} plugin results not ${pastTense(action)} (${reason}): ${failed.map((o) => o.uid).join(', ')}` +
      (unsent > 0 ? `; ${unsent} more not sent, as the last ${UNANSWERED_IN_A_ROW} PUTs reached no answer` : ''),
    `${done === 0 ? 'none is' : `the other ${done} ${done === 1 ? 'is' : 'are'}`} ${pastTense(action)}; run the same command again${unsent > 0 ? ' once the service answers' : ''} to do what is left`,
    code,
  );
}
