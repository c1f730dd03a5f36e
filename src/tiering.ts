/**
 * V8's WebAssembly flags, changed for a while and put back. A short command that runs a
 * WebAssembly module it has just compiled (undici's HTTP parser, jq) makes V8 find it hot enough
 * to compile it again with its optimising tier, on other threads: CPU the command pays for and
 * never gains from (on Node 24 about half the instructions of a one-request command). V8 decides
 * a module's tiers when it compiles it and gives its functions their tier-up budget when it is
 * instantiated, so flags changed around those keep it on the baseline tier; put back after, they
 * are again those every run starts with, under which alone V8 takes the code cache bin/ writes.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's default budget (--wasm-tiering-budget) on the Node versions it was read from (`node --v8-options`). */
const DEFAULT_TIERING_BUDGET: Record<string, number> = { '20': 1_800_000, '22': 13_000_000, '24': 13_000_000 };

/**
 * Raises the budget until the returned function puts it back (a second call changes nothing).
 * On a Node whose default is not known here nothing is raised, and undefined is returned.
 */
export function raiseTieringBudget(): (() => void) | undefined {
  const budget = DEFAULT_TIERING_BUDGET[process.versions.node.split('.')[0]!];
  if (budget === undefined) return undefined;
  setFlagsFromString('--wasm-tiering-budget=1000000000');
  return () => setFlagsFromString(`--wasm-tiering-budget=${budget}`);
}

/**
 * The baseline tier only, for a module compiled and instantiated until the returned function
 * puts the flags back: --liftoff-only, which Node 20 and 22 take once running and V8 keeps with
 * the module (jq over one page: about 16 ms less CPU on Node 22 than with the budget alone), and
 * the raised budget, for Node 24, which no longer takes that flag. --liftoff-only also turns off
 * two flags of its own, which are put back too: only then does V8 take a code cache again.
 */
export function baselineOnly(): () => void {
  const restoreBudget = raiseTieringBudget();
  setFlagsFromString('--liftoff-only');
  return () => {
    setFlagsFromString('--no-liftoff-only');
    setFlagsFromString('--wasm-tier-up');
    setFlagsFromString('--wasm-dynamic-tiering');
    restoreBudget?.();
  };
}
