/**
 * The --jq engine's thread (dist/jq-worker.cjs): jq-wasm runs here, never on the main thread, so
 * a filter that never ends (`repeat(1)`, `last(range(infinite))`) cannot keep mon from ending on
 * a signal or its deadline: the main thread terminates this worker (src/output/jq.ts).
 *
 * One run of jq for the whole command, as `mon … | jq` would be: jq compiles the filter, says
 * so ('ready'), then reads its input as the main thread sends it and writes its results as it
 * yields them. Through jq-wasm's documented `instantiateWasm` hook, four of the system calls the
 * module imports are wrapped (found by their function names, checked at load):
 * - opening `/dev/stdin` tells the filter compiled (jq opens its input only after that);
 * - reading that file takes the main thread's chunks, waiting (Atomics.wait) until one comes;
 * - writing fd 1 copies the results into a ring shared with the main thread, waiting while the
 *   ring is full (the main thread empties it as stdout takes it: back-pressure, memory bounded);
 * - writing fd 2 passes jq's messages on line by line, and stops at the first error.
 */
import { readFileSync } from 'node:fs';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { loadJq } from 'jq-wasm';
import { CONTROL, type JqWorkerData, type WorkerMessage } from './jq-protocol.js';
import { baselineOnly } from '../tiering.js';

const { expression, control, ring, input, optimised, mainLoadWaitMs } = workerData as JqWorkerData;
const state = new Int32Array(control);
const bytes = new Uint8Array(ring);
const decoder = new TextDecoder();

/** The longest the flags wait for the main thread to load its code (CONTROL.MAIN_LOADED). */
const MAIN_LOAD_WAIT_MS = 1000;

/** `-r -c`: strings raw, everything else compact JSON, one a line. `--`: the filter is never an option. */
const FLAGS = ['-r', '-c', '--'];

/** Thrown from inside jq to stop it at its first runtime error (jq itself would go on to the next input). */
class Stop extends Error {}

/** jq's memory (the module's one WebAssembly.Memory): its buffer changes when it grows. */
let memory: { readonly buffer: ArrayBuffer } | undefined;
let inputFd = -1;
let compiled = false;
/** Chunks received and not yet read by jq; `null` is the end of the input. */
const queue: (Uint8Array | null)[] = [];
let ended = false;
let writePos = 0;
/** jq's messages (fd 2) not yet ended by a newline; before compiling, all of them. */
let errText = '';

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

function view(): DataView {
  return new DataView(memory!.buffer);
}

/** The NUL-terminated string at `ptr` in jq's memory. */
function cString(ptr: number): string {
  const heap = new Uint8Array(memory!.buffer);
  let end = ptr;
  while (heap[end] !== 0) end++;
  return decoder.decode(heap.subarray(ptr, end));
}

/** Calls `each(pointer, length)` for every buffer of an iovec array; returns the bytes handled. */
function eachBuffer(iov: number, count: number, each: (ptr: number, length: number) => number): number {
  let total = 0;
  for (let i = 0; i < count; i++) {
    const v = view();
    const handled = each(v.getUint32(iov + i * 8, true), v.getUint32(iov + i * 8 + 4, true));
    total += handled;
    if (handled < v.getUint32(iov + i * 8 + 4, true)) break;
  }
  return total;
}

/** The next chunk of input, waiting for the main thread to send one; null at the end. */
function nextChunk(): Uint8Array | null {
  while (queue.length === 0) {
    const received = receiveMessageOnPort(input as MessagePort);
    if (received) {
      queue.push(received.message as Uint8Array | null);
      break;
    }
    Atomics.wait(state, CONTROL.INPUT_POSTED, Atomics.load(state, CONTROL.INPUT_POSTED), 1000);
  }
  return queue[0]!;
}

/** jq reads its input: as much as there is, waiting only when nothing is left. */
function readInput(ptr: number, length: number): number {
  if (ended) return 0;
  let got = 0;
  while (got < length) {
    // Once some bytes are read, return them rather than wait for more.
    if (got > 0 && queue.length === 0 && !receiveInto()) break;
    const chunk = nextChunk();
    if (chunk === null) {
      ended = true;
      break;
    }
    const take = Math.min(length - got, chunk.length);
    new Uint8Array(memory!.buffer, ptr + got, take).set(chunk.subarray(0, take));
    got += take;
    Atomics.sub(state, CONTROL.INPUT_BYTES, take);
    if (take === chunk.length) queue.shift();
    else queue[0] = chunk.subarray(take);
  }
  return got;
}

/** Takes a chunk that has already arrived, without waiting. */
function receiveInto(): boolean {
  const received = receiveMessageOnPort(input as MessagePort);
  if (received) queue.push(received.message as Uint8Array | null);
  return received !== undefined;
}

/** jq writes results: into the ring, waiting while the main thread has not emptied it. */
function writeOutput(ptr: number, length: number): number {
  let done = 0;
  while (done < length) {
    let used = Atomics.load(state, CONTROL.RING_USED);
    while (used === bytes.length) {
      Atomics.wait(state, CONTROL.RING_USED, used, 1000);
      used = Atomics.load(state, CONTROL.RING_USED);
    }
    const take = Math.min(length - done, bytes.length - used, bytes.length - writePos);
    bytes.set(new Uint8Array(memory!.buffer, ptr + done, take), writePos);
    writePos = (writePos + take) % bytes.length;
    done += take;
    Atomics.add(state, CONTROL.RING_USED, take);
  }
  return length;
}

/** jq writes a message: `debug` and `stderr` go on as warnings; an error stops the run. */
function writeMessage(ptr: number, length: number): number {
  errText += decoder.decode(new Uint8Array(memory!.buffer, ptr, length));
  // Before the filter compiled, jq's messages are its compile errors: kept whole.
  if (!compiled) return length;
  let newline;
  while ((newline = errText.indexOf('\n')) >= 0) {
    const line = errText.slice(0, newline + 1);
    errText = errText.slice(newline + 1);
    if (line.startsWith('jq: error')) {
      post({ type: 'failed', message: line.trimEnd(), memory: line.includes('cannot allocate memory') });
      throw new Stop();
    }
    post({ type: 'warn', text: line });
  }
  return length;
}

type Syscall = (...args: number[]) => number;

/** The part of the WebAssembly API used here (tsconfig's lib has no WebAssembly types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  instantiate(module: object, imports: object): Promise<{ exports: Record<string, unknown> }>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Wraps the module's imports that carry these names; fails loudly if jq-wasm no longer has them. */
function wrapImports(imports: Record<string, Record<string, unknown>>): void {
  const wrappers: Record<string, (original: Syscall) => Syscall> = {
    ___syscall_openat: (original) => (dirfd, path, flags, varargs) => {
      const name = cString(path!);
      const fd = original(dirfd!, path!, flags!, varargs!);
      if (name === '/dev/stdin' && fd >= 0) {
        inputFd = fd;
        compiled = true;
        errText = '';
        post({ type: 'ready' });
      }
      return fd;
    },
    _fd_read: (original) => (fd, iov, count, written) => {
      if (fd !== inputFd) return original(fd!, iov!, count!, written!);
      view().setUint32(written!, eachBuffer(iov!, count!, readInput), true);
      return 0;
    },
    _fd_write: (original) => (fd, iov, count, written) => {
      if (fd !== 1 && fd !== 2) return original(fd!, iov!, count!, written!);
      view().setUint32(written!, eachBuffer(iov!, count!, fd === 1 ? writeOutput : writeMessage), true);
      return 0;
    },
  };
  const found = new Set<string>();
  for (const table of Object.values(imports)) {
    for (const [key, value] of Object.entries(table)) {
      const wrap = typeof value === 'function' ? wrappers[value.name] : undefined;
      if (!wrap) continue;
      table[key] = wrap(value as Syscall);
      found.add((value as Syscall).name);
    }
  }
  const missing = Object.keys(wrappers).filter((name) => !found.has(name));
  if (missing.length > 0)
    throw new Error(`jq-wasm's module does not import ${missing.join(', ')}: this version of jq-wasm is not supported`);
}

async function run(): Promise<void> {
  // jq-wasm prints emscripten's abort messages with console.error: the main thread says it instead.
  console.error = () => undefined;
  // V8 would compile jq's hot functions a second time, optimised, on other threads: about 90 ms
  // of CPU at every start, for no gain measured even on a 17 MB input (scripts/bench). Flags set
  // before jq's module is compiled keep Liftoff's code (src/tiering.ts); they are put back once jq
  // is done (put back as soon as jq was instantiated, Node 22 tiered jq up after all: 150 ms more
  // CPU over one page). V8's flags are the process's, and while one differs V8 refuses a code
  // cache made under the usual ones, in either thread: Node's own for the modules loaded meanwhile
  // (WebCrypto, which jq's start-up asks for a random seed, is loaded before: --jq over one page
  // 6 ms less on Node 22, 7-14 ms on Node 24), and the main thread's for mon's bundle, which is
  // why the flags wait until the bundle is loaded (bounded: past the wait the bundle only
  // compiles slower).
  // A long input (`--all`, EngineOptions.longInput) leaves the flags alone: there, V8's
  // optimised jq pays for its compiling.
  globalThis.crypto.getRandomValues(new Uint8Array(1));
  const jqWasm = readFileSync(require.resolve('jq-wasm/jq.wasm'));
  let restoreFlags: () => void = () => undefined;
  if (!optimised) {
    Atomics.wait(state, CONTROL.MAIN_LOADED, 0, mainLoadWaitMs ?? MAIN_LOAD_WAIT_MS);
    Atomics.store(state, CONTROL.FLAGS_CHANGED, 1);
    restoreFlags = baselineOnly();
  }
  const module = new wasm.Module(jqWasm);
  const jq = await loadJq({
    instantiateWasm: (imports, done) => {
      wrapImports(imports as Record<string, Record<string, unknown>>);
      void wasm.instantiate(module, imports).then((instance) => {
        memory = Object.values(instance.exports).find(
          (value) => typeof value === 'object' && value !== null && 'grow' in value,
        ) as typeof memory;
        done(instance as never, module as never);
      });
    },
  });
  let outcome: { exitCode: number } | { error: unknown };
  try {
    // The input is ours (fd_read above); jq-wasm's own is left empty.
    outcome = { exitCode: jq.raw('', expression, FLAGS).exitCode };
  } catch (error) {
    outcome = { error };
  }
  // jq is done: the flags are put back before the main thread hears so, as bin/mon then writes
  // its code cache (not while they are changed: CONTROL.FLAGS_CHANGED).
  restoreFlags();
  Atomics.store(state, CONTROL.FLAGS_CHANGED, 0);
  // Before the main thread hears, which then ends this thread: a cache is never left half written.
  // Nothing of the cache's may change jq's outcome.
  try {
    jqDone?.({ late: optimised });
  } catch {
    // no cache this time
  }
  if ('error' in outcome) {
    const { error } = outcome;
    if (error instanceof Stop) return;
    // emscripten aborts when jq's memory (256 MB at most) cannot grow any more.
    post({
      type: 'failed',
      message: String((error as Error | undefined)?.message ?? error),
      memory: /Aborted|memory/i.test(String(error)),
    });
    return;
  }
  const { exitCode } = outcome;
  if (!compiled) {
    post({ type: 'refused', stderr: errText, exitCode });
    return;
  }
  if (errText !== '') post({ type: 'warn', text: `${errText}\n` });
  post({ type: 'done', exitCode });
}

/** Called once jq is done and V8's flags are back (set by bin/jq-worker.cjs): see whenJqDone(). */
let jqDone: ((options: { late: boolean }) => void) | undefined;

/**
 * `save` is called once jq is done, under the flags every run starts with: bin/jq-worker.cjs,
 * which loaded this file with its code cache (bin/load-bundle.cjs), writes the cache then. jq
 * runs only after the module has loaded (it waits for loadJq), so the call that sets it, right
 * after the load, always comes first. `late`: the run optimised jq (a long input), see
 * saveCodeCache().
 */
export function whenJqDone(save: (options: { late: boolean }) => void): void {
  jqDone = save;
}

void run().catch((error: unknown) =>
  post({ type: 'failed', message: String((error as Error | undefined)?.message ?? error) }),
);
