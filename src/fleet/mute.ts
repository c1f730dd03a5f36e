/**
 * Muting and unmuting many plugin results (`plugin mute|unmute` with selectors): what each
 * result is called in the plan, the rows and the summary, and which exit code the failures
 * make. The sending is the command's (src/commands/bulk-mute.ts), through the one fan-out.
 */
import { PartialFailureError } from '../errors.js';
import type { ComputerRef, GroupRef, SelectedResult } from './selection.js';

export type MuteAction = 'mute' | 'unmute';

/** A plugin result to mute or unmute, named as the plan and the rows name it. */
export interface MuteTarget {
  uid: string;
  computer: ComputerRef;
  group: GroupRef | null;
  plugin: string | null;
}

/** One row of the output: what became of a target. */
export interface MuteOutcome extends MuteTarget {
  outcome: 'muted' | 'unmuted' | 'failed';
  /** Why it failed (the API's or the network's answer), else null. */
  reason: string | null;
}

/** What the rows keep of a selected result. */
export function targetOf(result: SelectedResult): MuteTarget {
  return { uid: String(result.uid), computer: result.computer, group: result.group, plugin: typeof result.name === 'string' ? result.name : null };
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
 * failed uid and exits with the code of the failures' own errors. When they differ, the code
 * that most of them share wins, and of those equally common the one met first (README, Exit codes).
 */
export function failureOf(action: MuteAction, outcomes: readonly (MuteOutcome & { exitCode?: number })[]): PartialFailureError | undefined {
  const failed = outcomes.filter((o) => o.outcome === 'failed');
  if (failed.length === 0) return undefined;
  const counts = new Map<number, number>();
  for (const { exitCode = 1 } of failed) counts.set(exitCode, (counts.get(exitCode) ?? 0) + 1);
  let code = 1;
  let most = 0;
  for (const [candidate, n] of counts) {
    if (n > most) [code, most] = [candidate, n];
  }
  const reason = failed.find((o) => (o.exitCode ?? 1) === code)?.reason;
  return new PartialFailureError(
    `${failed.length} of ${outcomes.length} plugin results not ${pastTense(action)} (${reason}): ${failed.map((o) => o.uid).join(', ')}`,
    `the others are ${pastTense(action)}; run the same command again to retry the failed ones`,
    code,
  );
}
