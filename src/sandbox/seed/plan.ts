/** The plan of the fleet: what each computer index is, decided before any computer is built. */
import type { Prng } from '../prng.js';
import { PRIMARY_GROUPS } from './groups.js';
import { FLAG_SHARES, HEALTH_SHARES, type Health, shareCount } from './shares.js';

/** 0..n-1 in an order fixed by the PRNG (Fisher–Yates). */
export function shuffled(rng: Prng, n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    const t = out[i] as number;
    out[i] = out[j] as number;
    out[j] = t;
  }
  return out;
}

/** Largest-remainder apportionment: counts proportional to `weights` that add up to exactly n. */
export function apportion(weights: readonly number[], n: number): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total > 0 ? (w / total) * n : 0));
  const counts = exact.map(Math.floor);
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if ((weights[i] ?? 0) <= 0) continue;
    counts[i] = (counts[i] ?? 0) + 1;
    left--;
  }
  return counts;
}

/** What each computer index is, decided before any computer is built. */
export interface Plan {
  group: number;
  health: Health;
  /** position among the computers of the same health state */
  rank: number;
  hidden: boolean;
  pendingRemoval: boolean;
  agentRemoved: boolean;
  rekey: boolean;
  serviceWarning: boolean;
}

/** The plan of a computer with nothing wrong: the second subscriber's, and each one enrolled later. */
export const OK_PLAN: Plan = {
  group: 0,
  health: 'ok',
  rank: 0,
  hidden: false,
  pendingRemoval: false,
  agentRemoved: false,
  rekey: false,
  serviceWarning: false,
};

export function planFleet(rng: Prng, n: number): Plan[] {
  // Every computer starts as OK; the shares below mark the others.
  const plans: Plan[] = Array.from({ length: n }, () => ({ ...OK_PLAN }));
  const sizes = apportion(
    PRIMARY_GROUPS.map((g) => g.share),
    n,
  );
  const groupOrder = shuffled(rng, n);
  let at = 0;
  sizes.forEach((size, gi) => {
    for (let k = 0; k < size; k++) (plans[groupOrder[at++] as number] as Plan).group = gi;
  });
  const healthOrder = shuffled(rng, n);
  at = 0;
  for (const share of HEALTH_SHARES) {
    const count = shareCount(share, n, n - at);
    for (let k = 0; k < count; k++) {
      const plan = plans[healthOrder[at++] as number] as Plan;
      plan.health = share.key;
      plan.rank = k;
    }
  }
  for (const share of FLAG_SHARES) {
    const order = shuffled(rng, n);
    const count = shareCount(share, n, n);
    for (let k = 0; k < count; k++) {
      const plan = plans[order[k] as number] as Plan;
      if (share.key === 'hidden') plan.hidden = true;
      else if (share.key === 'pending_removal') {
        plan.pendingRemoval = true;
        // a quarter of them (at least one) have already reported the agent's removal
        plan.agentRemoved = k < Math.max(1, Math.round(count / 4));
      } else if (share.key === 'rekey_requested') plan.rekey = true;
      else plan.serviceWarning = true;
    }
  }
  return plans;
}
