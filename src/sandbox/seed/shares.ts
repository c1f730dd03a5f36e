/**
 * How the primary subscriber's fleet is shared out among health states and flags (README.md,
 * Data): exact counts drawn over a shuffled order, not coin flips.
 */

/**
 * The one state each computer of the primary subscriber is in (README, Data). The seeded
 * problem is on a visible plugin; every other visible plugin is OK or Informational.
 */
export type Health =
  | 'ok'
  | 'alert'
  | 'warning'
  | 'expired_mute'
  | 'muted_timed'
  | 'muted_ticket'
  | 'muted_ignored'
  | 'missing'
  | 'tolerated'
  | 'silent';

/** A share of N computers, and the least count once the fleet has MIN_FROM computers. */
export interface Share<K extends string = string> {
  key: K;
  fraction: number;
  min: number;
}

/** Below this many computers the minimums are not applied (a 5-computer fleet is mostly OK). */
export const MIN_FROM = 20;

/** Exclusive health states; the rest of the fleet is 'ok'. Documented in README.md, Data. */
export const HEALTH_SHARES: readonly Share<Exclude<Health, 'ok'>>[] = [
  { key: 'alert', fraction: 0.04, min: 2 },
  { key: 'warning', fraction: 0.07, min: 2 },
  { key: 'expired_mute', fraction: 0.01, min: 1 },
  { key: 'muted_timed', fraction: 0.03, min: 2 },
  { key: 'muted_ticket', fraction: 0.02, min: 2 },
  { key: 'muted_ignored', fraction: 0.02, min: 2 },
  { key: 'missing', fraction: 0.05, min: 3 },
  { key: 'tolerated', fraction: 0.02, min: 1 },
  { key: 'silent', fraction: 0.02, min: 1 },
];

/** Flags drawn independently of the health state (the hidden group's computers are hidden too). */
export const FLAG_SHARES: readonly Share<'hidden' | 'pending_removal' | 'rekey_requested' | 'service_warning'>[] = [
  { key: 'hidden', fraction: 0.02, min: 1 },
  { key: 'pending_removal', fraction: 0.02, min: 1 },
  { key: 'rekey_requested', fraction: 0.015, min: 1 },
  { key: 'service_warning', fraction: 0.03, min: 1 },
];

/** Computers with a warranty or support contract on record (AppleCare, ProSupport, Premier). */
export const EXPIRATION_SHARE: Share = { key: 'expiration', fraction: 0.3, min: 6 };

/** How many of `n` a share asks for: round(fraction × n), at least `min` from MIN_FROM on, never above `left`. */
export function shareCount(share: Share, n: number, left: number): number {
  const want = Math.round(share.fraction * n);
  return Math.min(left, n >= MIN_FROM ? Math.max(share.min, want) : want);
}
