/** What every step of the seed shares: the PRNG, the clock, the plugin results made so far; and units of time. */
import type { PluginResultRec } from '../model.js';
import type { Prng } from '../prng.js';

export const DAY = 86_400;
export const HOUR = 3_600;
export const GB = 1_000_000_000;

export interface SeedContext {
  rng: Prng;
  now: number;
  pluginResults: PluginResultRec[];
}

/** Midnight UTC of the day `sec` falls in. */
export function dayStart(sec: number): number {
  return sec - (sec % DAY);
}
