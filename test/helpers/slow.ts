/**
 * The one knob for how slow the machine may be: MON_TEST_SLOW (default 1) multiplies every hang
 * bound of the suite — vitest's testTimeout and hookTimeout (vitest.config.ts) and the helpers'
 * own waits (a spawned process killed, an event waited for). Raise it on a slow or busy machine
 * (MON_TEST_SLOW=4); nothing else in the suite depends on how fast the machine is.
 */
export const SLOW = slowFactor(process.env.MON_TEST_SLOW);

export function slowFactor(value: string | undefined): number {
  const factor = Number(value ?? 1);
  return Number.isFinite(factor) && factor >= 1 ? factor : 1;
}

/** A hang bound: `ms` (already generous, at least ten times the need of an idle machine) times MON_TEST_SLOW. */
export function bound(ms: number): number {
  return Math.round(ms * SLOW);
}

/**
 * Waits until `condition` holds, checking every few milliseconds: the wait for an event a test
 * cannot subscribe to (a file written, a request received by a server in another process).
 * Rejects, naming `what`, after the hang bound.
 */
export async function waitFor(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + bound(ms);
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${bound(ms)} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
