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

/**
 * A mute as it stands, in the API's own words: its type (timed_mute, muted_forever,
 * ticket_muted…), and its end (epoch seconds) or ticket where it has one. What a bulk mute's rows
 * record (`previous`, `mute`), so that its undo can tell its own mute from one set since.
 */
export interface MuteState {
  mute_type: string;
  mute_until?: number;
  ticket_number?: string;
  ticket_url?: string;
}

/** The mute in force at `nowSec` (isMuted), or null when there is none. */
export function muteState(result: Item, nowSec: number): MuteState | null {
  if (!isMuted(result, nowSec)) return null;
  const state: MuteState = {
    mute_type: typeof result.mute_type === 'string' && result.mute_type !== '' ? result.mute_type : 'muted',
  };
  const until = muteEnd(result);
  if (until !== undefined && state.mute_type === 'timed_mute') state.mute_until = until;
  if (result.ticket_number !== undefined && result.ticket_number !== null)
    state.ticket_number = String(result.ticket_number);
  if (typeof result.ticket_url === 'string' && result.ticket_url !== '') state.ticket_url = result.ticket_url;
  return state;
}

/** Whether a mute ends by itself: a timed mute. Muted for good and under a ticket do not. */
export function isTimed(state: MuteState): boolean {
  return state.mute_type === 'timed_mute';
}

/** Whether two mutes are the same one: type, end and ticket alike (null: none). */
export function sameMute(a: MuteState | null, b: MuteState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mute_type === b.mute_type && a.mute_until === b.mute_until && a.ticket_number === b.ticket_number;
}

/**
 * Whether a timed mute until `until` (epoch seconds) would end `state` sooner: one for good or
 * under a ticket (which do not end by themselves), or a timed one that ends later.
 */
export function endsSooner(state: MuteState, until: number): boolean {
  return !isTimed(state) || state.mute_until === undefined || state.mute_until > until;
}
