/**
 * What a plugin result is and how it is filtered: its statuses, whether a mute is in force,
 * whether it is hidden, and the one predicate that `plugin list`, `alerts`, `status`, a bulk
 * mute and --changes all ask (keep every such decision here, so that they cannot disagree).
 */
import { parseTime } from '../time/parse.js';

/** Plugin result statuses (api-v2.5, Plugin result status values), in the reference's order. */
export const PLUGIN_STATUSES = ['OK', 'Warning', 'Alert', 'Informational'] as const;
export type PluginStatus = (typeof PLUGIN_STATUSES)[number];

type Item = Record<string, unknown>;

/** Typed by the one list: a status added there must be ranked here. */
const URGENCY: Record<PluginStatus, number> = { Alert: 0, Warning: 1, Informational: 2, OK: 3 };

/** Where a status sorts: Alert first, then Warning, Informational, OK, then anything else. */
export function statusRank(status: unknown): number {
  return URGENCY[String(status) as PluginStatus] ?? PLUGIN_STATUSES.length;
}


/** The end of a timed mute, epoch seconds: mute_until per the field table, muted_until in a sample (api-v2.5, Plugin result). */
export function muteEnd(result: Item): number | undefined {
  const ms = parseTime(result.mute_until ?? result.muted_until);
  return ms === undefined ? undefined : Math.floor(ms / 1000);
}

/** What the payload says, whatever it is worth now: muted true (or "true", as a form-encoded payload spells it). */
function mutedFlag(result: Item): boolean {
  return result.muted === true || result.muted === 'true';
}

/**
 * Whether a mute is in force at `nowSec`: the payload says muted, unless it is a timed mute
 * whose end has passed (a stale flag must not hide an alert). The one answer of every command.
 */
export function isMuted(result: Item, nowSec: number): boolean {
  if (!mutedFlag(result)) return false;
  const end = muteEnd(result);
  return end === undefined || result.mute_type !== 'timed_mute' || end > nowSec;
}

/** visible false marks a service plugin, hidden in the dashboard (api-v2.5, Plugin result object). */
export function isHidden(result: Item): boolean {
  return result.visible === false;
}

/** How plugin results are filtered by their own attributes (what a computer holds is the selection's). */
export interface ResultMatch {
  /** Any of these statuses; empty: every status. */
  statuses: readonly string[];
  /** `unmuted` only (the default of alerts), `muted` only, or `any`. */
  muted: 'unmuted' | 'muted' | 'any';
  /** Also service plugins (visible false), which the dashboard hides. */
  includeHidden: boolean;
  /** last_run at or after this time, epoch seconds. */
  since?: number;
}

/** Whether a plugin result passes `match` at `nowSec`. */
export function matchesResult(result: Item, match: ResultMatch, nowSec: number): boolean {
  if (match.statuses.length > 0 && !match.statuses.includes(String(result.status))) return false;
  if (!match.includeHidden && isHidden(result)) return false;
  if (match.muted !== 'any' && isMuted(result, nowSec) !== (match.muted === 'muted')) return false;
  if (match.since !== undefined) {
    const ran = parseTime(result.last_run);
    if (ran === undefined || ran / 1000 < match.since) return false;
  }
  return true;
}
