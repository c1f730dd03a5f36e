/** What the main thread (src/output/jq.ts) and the --jq worker (src/output/jq-worker.ts) share. */

/** Slots of the shared Int32Array that both threads update with Atomics. */
export const CONTROL = {
  /** Bytes of results in the ring, written by the worker and not yet taken by the main thread. */
  RING_USED: 0,
  /** Input chunks posted by the main thread (the worker waits on it for the next one). */
  INPUT_POSTED: 1,
  /** Bytes of input posted and not yet read by jq: the main thread's back-pressure. */
  INPUT_BYTES: 2,
  /**
   * 1 once the main thread has loaded its code (bin/mon's bundle): until then the worker does
   * not change V8's flags, since V8 refuses a code cache made under other flags, and the main
   * thread's bundle would be compiled again from source (src/output/jq-worker.ts).
   */
  MAIN_LOADED: 3,
  /**
   * 1 while the worker has V8's flags changed (from before jq is compiled until jq is done): a
   * code cache made meanwhile is one V8 refuses under the usual flags, so bin/mon writes none.
   */
  FLAGS_CHANGED: 4,
} as const;

/** Slots of the control array. */
export const CONTROL_SLOTS = 5;

export interface JqWorkerData {
  expression: string;
  /** CONTROL_SLOTS Int32 slots. */
  control: SharedArrayBuffer;
  /** The results, as a ring of bytes (UTF-8). */
  ring: SharedArrayBuffer;
  /** The main thread posts input chunks here (Uint8Array), then null at the end. */
  input: unknown;
  /** V8 may optimise jq (a long input): the worker leaves V8's flags as they are. */
  optimised: boolean;
  /** The longest the flags wait for the main thread to load (ms); the worker's own bound unless given. */
  mainLoadWaitMs?: number;
}

/** What the worker tells the main thread, in this order: ready, then warnings, then one end. */
export type WorkerMessage =
  | { type: 'ready' }
  /** The filter does not compile: jq's messages and exit status. */
  | { type: 'refused'; stderr: string; exitCode: number }
  | { type: 'warn'; text: string }
  /** jq's first runtime error line, or the engine failed (`memory`: jq's memory ran out). */
  | { type: 'failed'; message: string; memory?: boolean }
  | { type: 'done'; exitCode: number };
