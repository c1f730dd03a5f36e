/**
 * Starts the --jq engine: the worker thread that runs jq (src/output/jq-worker.ts, built as
 * dist/jq-worker.cjs) with the shared memory both threads use. bin/mon starts it before it even
 * loads the bundle when the command line has --jq (this file is also built on its own, as
 * dist/jq-engine.cjs), so that the worker's start and jq's own, about a tenth of a second,
 * overlap with mon's; src/output/jq.ts takes that engine over, or starts one itself.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { CONTROL, CONTROL_SLOTS, type JqWorkerData, type WorkerMessage } from './jq-protocol.js';

/** The ring of results shared with the worker: the most the filter's output holds at once. */
export const RING_BYTES = 1 << 20;
/** The worker's JavaScript heap (jq's own memory is WebAssembly memory, at most 256 MB). */
const WORKER_HEAP_MB = 64;

/** What the worker says: its messages, a failure of its own, its end. */
export type EngineEvent =
  | { kind: 'message'; message: WorkerMessage }
  | { kind: 'error'; error: Error & { code?: string } }
  | { kind: 'exit'; code: number };

export interface JqEngine {
  /** The filter the worker compiles. */
  readonly expression: string;
  readonly worker: Worker;
  /** CONTROL_SLOTS slots updated with Atomics by both threads (src/output/jq-protocol.ts). */
  readonly control: Int32Array;
  /** The results, written by the worker. */
  readonly ring: Uint8Array;
  /** Where the input goes, chunk by chunk (through send()). */
  readonly input: MessagePort;
  /** Hands the worker one chunk of input (UTF-8, transferred), or null for its end, and wakes it. */
  send(chunk: Uint8Array<ArrayBuffer> | null): void;
  /** Hands the worker's events to `listener`: first those that came before it, then each as it comes. */
  listen(listener: (event: EngineEvent) => void): void;
  /** The main thread has loaded its code: the worker may now change V8's flags (CONTROL.MAIN_LOADED). */
  mainLoaded(): void;
  /** Whether the worker has V8's flags changed now (CONTROL.FLAGS_CHANGED). */
  flagsChanged(): boolean;
}

export interface EngineOptions {
  /** The main thread has yet to load its code and says when it has (bin/mon, before the bundle). */
  mainLoading?: boolean;
  /**
   * Every page comes (`--all`): V8 may optimise jq as it runs. Over one page that costs more than
   * it buys, so jq keeps V8's baseline code there (src/tiering.ts); over 10,000 computers
   * (`--all --jq length`) it takes 5-9% less CPU on Node 22 and the same on Node 24, in the same
   * time. And with V8's flags left alone, such a run writes its code cache when its work has run
   * once, like any command of many requests (bin/load-bundle.cjs), not at its end.
   */
  longInput?: boolean;
  /** The longest the worker waits for mainLoaded() before it goes on (ms); its own bound (1 s) unless given. */
  mainLoadWaitMs?: number;
}

/**
 * The variables the worker reads: NODE_PATH, and those that place or turn off the code cache of
 * bin/jq-worker.cjs (bin/load-bundle.cjs; the temporary folder as node:os finds it).
 */
const WORKER_VARIABLES = ['NODE_PATH', 'NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'TMPDIR', 'TMP', 'TEMP'];

function workerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of WORKER_VARIABLES) if (env[name] !== undefined) picked[name] = env[name];
  return picked;
}

/**
 * Starts the worker for `expression`: `workerFile` is dist/jq-worker.cjs, or bin/jq-worker.cjs,
 * which loads it with a code cache.
 */
export function startJqEngine(
  expression: string,
  workerFile: string,
  { mainLoading = false, longInput = false, mainLoadWaitMs }: EngineOptions = {},
): JqEngine {
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * 4));
  const mainLoaded = () => {
    Atomics.store(control, CONTROL.MAIN_LOADED, 1);
    Atomics.notify(control, CONTROL.MAIN_LOADED);
  };
  if (!mainLoading) mainLoaded();
  const ring = new Uint8Array(new SharedArrayBuffer(RING_BYTES));
  const { port1, port2 } = new MessageChannel();
  const data: JqWorkerData = {
    expression,
    control: control.buffer as SharedArrayBuffer,
    ring: ring.buffer as SharedArrayBuffer,
    input: port2,
    optimised: longInput,
    ...(mainLoadWaitMs === undefined ? {} : { mainLoadWaitMs }),
  };
  const worker = new Worker(workerFile, {
    workerData: data,
    transferList: [port2],
    // None of mon's environment (the key): only where modules are found, as the main thread finds
    // them, and where the code cache is (bin/load-bundle.cjs). (jq's $ENV is the engine's own anyway.)
    env: workerEnv(process.env),
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
  });
  // Kept until a listener takes them: the worker may be ready before the bundle has loaded.
  const early: EngineEvent[] = [];
  let listener: ((event: EngineEvent) => void) | undefined;
  const deliver = (event: EngineEvent) => (listener ? listener(event) : early.push(event));
  worker.on('message', (message: WorkerMessage) => deliver({ kind: 'message', message }));
  worker.on('error', (error: Error & { code?: string }) => deliver({ kind: 'error', error }));
  worker.on('exit', (code) => deliver({ kind: 'exit', code }));
  return {
    expression,
    worker,
    control,
    ring,
    input: port1,
    listen(next) {
      listener = next;
      for (const event of early.splice(0)) next(event);
    },
    send(chunk) {
      if (chunk === null) port1.postMessage(null);
      else port1.postMessage(chunk, [chunk.buffer]);
      Atomics.add(control, CONTROL.INPUT_POSTED, 1);
      Atomics.notify(control, CONTROL.INPUT_POSTED);
    },
    mainLoaded,
    flagsChanged: () => Atomics.load(control, CONTROL.FLAGS_CHANGED) === 1,
  };
}
