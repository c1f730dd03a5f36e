/**
 * `--jq EXPR`: the real jq language (jq 1.8, the jq-wasm package: a WebAssembly build of jqlang/jq)
 * over what a command prints as JSON. Only loaded when --jq is given; jq itself runs in a worker
 * thread (src/output/jq-worker.ts, built as dist/jq-worker.cjs), started as soon as the command
 * line is read, so loading and compiling the engine overlaps with the command's own start (the
 * first request waits only for the filter's syntax check: nothing is sent with a bad filter).
 *
 * It works on the text stdout would get, as a Sink between the renderers and stdout, so every
 * command that prints JSON gets --jq from this one place. One jq run reads everything the
 * command prints, as `mon … | jq` would:
 * - with -o json, the document (one array for a list, every page with --all) goes to jq as it
 *   is written, so that jq parses the pages while the next ones come, and jq's results are held
 *   (in the ring: jq waits while it is full) until the command has succeeded; a command that
 *   fails prints nothing through the filter, as before a document is whole jq yields nothing;
 * - with -o ndjson, each page's lines go to jq as they are written: the filter runs once per
 *   item, and memory stays at a page.
 * Results are printed as jq yields them, as gh prints them: one per line, strings raw (`jq -r`),
 * everything else as compact JSON. They pass through a 1 MB ring shared with the worker, which
 * waits while stdout does not take them: a filter's output is never held whole.
 *
 * A signal (130, 143) or MON_DEADLINE (exit 8) ends the worker whatever the filter does; jq's
 * memory is jq-wasm's (256 MB at most), the worker's own heap is bounded too.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { deadlineError } from '../time/deadline.js';
import { FilterError, InterruptedError, UsageError } from '../errors.js';
import { CONTROL, type WorkerMessage } from './jq-protocol.js';
import { RING_BYTES, startJqEngine, type JqEngine } from './jq-engine.js';
import type { Sink } from './types.js';

/** jq's prefix of an error line, with the input position it names (`/dev/stdin:3`, meaningless here). */
const ERROR_PREFIX = /^jq: error(?: \(at [^)]*\))?: /;

/** Input sent to jq and not yet read, beyond which a list waits between pages ('drain'). */
const INPUT_HIGH_BYTES = 4 << 20;
/** How often the main thread takes results from the ring while jq runs. */
const POLL_MS = 5;

/** The built worker's file name, beside dist/mon.cjs. */
export const WORKER_NAME = 'jq-worker.cjs';

/** Set by the build to dist/ (`__dirname` of dist/mon.cjs); undefined when the sources run (tests). */
declare const __MON_DIST__: string | undefined;

/** The worker script: beside the bundle, or the built one when the sources run. */
function workerFile(): string {
  return typeof __MON_DIST__ === 'string'
    ? join(__MON_DIST__, WORKER_NAME)
    : fileURLToPath(new URL(`../../dist/${WORKER_NAME}`, import.meta.url));
}

/** Where a JqSink prints: stdout, maybe a stream that asks writers to wait for 'drain'. */
type Target = Sink & { writableNeedDrain?: boolean };

export interface JqOptions {
  mode: 'json' | 'ndjson';
  out: Target;
  /** jq's messages (`debug`, `stderr`): to stderr. */
  warn: (text: string) => void;
  /** Aborted by SIGINT/SIGTERM: the worker is terminated. */
  signal?: AbortSignal;
  /** MON_DEADLINE, from now: the worker is terminated then. */
  deadlineMs: number;
  /** The engine bin/mon started for this filter, if it did (src/output/jq-engine.ts). */
  engine?: JqEngine;
}

/**
 * Stands in for stdout while --jq is on. Renderers write JSON text to it as usual; it writes the
 * filter's results to `out`. Back-pressure passes through both ways: a list waits between pages
 * (src/output/drain.ts) while jq has more than a few MB of input unread or stdout is full.
 */
export class JqSink extends EventEmitter implements Sink {
  /** Settles once jq has compiled the filter: a UsageError (exit 2) when it does not. */
  readonly ready: Promise<void>;
  private readonly worker: JqEngine['worker'];
  private readonly control: Int32Array;
  private readonly ring: Uint8Array;
  private readonly input: MessagePort;
  private readonly engine: JqEngine;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();
  private readonly finished: Promise<void>;
  private settleReady!: { resolve: () => void; reject: (error: Error) => void };
  private settleFinished!: { resolve: () => void; reject: (error: Error) => void };
  private pending: string[] = [];
  private readPos = 0;
  /** stdout asked to wait: results stay in the ring (the worker waits when it is full). */
  private outBlocked = false;
  /** -o json until the command has succeeded (end()): results stay in the ring. */
  private outputHeld: boolean;
  /** A writer was told to wait ('drain' is owed). */
  private drainOwed = false;
  /** jq is done or failed; the outcome is given once the ring is empty. */
  private outcome: { error?: Error } | undefined;
  private failure: Error | undefined;
  private settled = false;
  private inputEnded = false;
  private poll: NodeJS.Timeout | undefined;
  private readonly deadline: NodeJS.Timeout;
  private readonly onAbort = () => this.fail(InterruptedError.of(this.options.signal));

  constructor(
    expression: string,
    private readonly options: JqOptions,
  ) {
    super();
    this.outputHeld = options.mode === 'json';
    this.ready = new Promise((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.finished = new Promise((resolve, reject) => (this.settleFinished = { resolve, reject }));
    // Awaited later (by the first request, end() or refusal()); never an unhandled rejection.
    this.ready.catch(() => undefined);
    this.finished.catch(() => undefined);
    const engine = options.engine?.expression === expression ? options.engine : startJqEngine(expression, workerFile());
    this.engine = engine;
    ({ worker: this.worker, control: this.control, ring: this.ring, input: this.input } = engine);
    engine.listen((event) => {
      if (event.kind === 'message') this.receive(event.message);
      else if (event.kind === 'error')
        this.fail(
          event.error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? outOfMemory()
            : new FilterError(`--jq: the filter engine failed: ${event.error.message}`),
        );
      else if (!this.outcome) this.fail(new FilterError(`--jq: the filter engine stopped (exit status ${event.code})`));
    });
    const { out, signal, deadlineMs } = options;
    if (out instanceof EventEmitter) {
      out.on('drain', () => {
        this.outBlocked = false;
        this.pump();
      });
    }
    if (signal?.aborted) this.onAbort();
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.deadline = setTimeout(() => this.fail(deadlineError(deadlineMs)), deadlineMs).unref();
  }

  get writableNeedDrain(): boolean {
    // -o json sends its document on as it comes (no more than the renderer would hold): while
    // its results are held, a list waiting on jq's input could wait on a full ring for ever.
    const inputFull =
      this.options.mode === 'ndjson' && Atomics.load(this.control, CONTROL.INPUT_BYTES) > INPUT_HIGH_BYTES;
    const need =
      this.failure === undefined && (this.outBlocked || this.options.out.writableNeedDrain === true || inputFull);
    if (need) this.drainOwed = true;
    return need;
  }

  write(chunk: string): boolean {
    if (this.failure) throw this.failure;
    if (this.options.mode === 'json') {
      // One document, which jq takes whole (`length`, `map(…)`) and parses as it comes.
      this.send(chunk);
      return true;
    }
    // ndjson: every complete line is one item; a renderer writes a page of them at once.
    const end = chunk.lastIndexOf('\n');
    if (end < 0) {
      this.pending.push(chunk);
      return true;
    }
    const lines = [...this.pending, chunk.slice(0, end + 1)].join('');
    this.pending = end + 1 < chunk.length ? [chunk.slice(end + 1)] : [];
    this.send(lines);
    return !this.writableNeedDrain;
  }

  /**
   * Call once the command has succeeded: the rest of the input goes to jq, what jq has yielded is
   * printed (with -o json, held until now), and this settles when jq has printed its last result.
   */
  end(): Promise<void> {
    // Once: `--changes` ends the output before it saves its state, main() after the command.
    return (this.ending ??= this.endOnce());
  }

  private ending: Promise<void> | undefined;

  private async endOnce(): Promise<void> {
    this.outputHeld = false;
    if (this.failure === undefined) {
      for (const chunk of this.pending.splice(0)) this.send(chunk);
      this.inputEnded = true;
      this.engine.send(null);
      this.posted();
    }
    // A jq error already met is said after the results jq printed before it, as jq does.
    this.pump();
    await this.finished;
  }

  /** The filter's syntax error, when jq refused it (undefined when it compiled, or could not tell). */
  async refusal(): Promise<UsageError | undefined> {
    return this.ready.then(
      () => undefined,
      (error: unknown) => (error instanceof UsageError ? error : undefined),
    );
  }

  /** Ends the worker, whatever it is doing (the command is over). */
  close(): void {
    this.outcome ??= {};
    this.stop();
  }

  /** One chunk of jq's input, as UTF-8 handed over to the worker. */
  private send(text: string): void {
    if (text === '' || this.inputEnded) return;
    const bytes = this.encoder.encode(text);
    Atomics.add(this.control, CONTROL.INPUT_BYTES, bytes.length);
    this.engine.send(bytes);
    this.posted();
  }

  /** Input has gone to the worker: results are taken from the ring from now on. */
  private posted(): void {
    this.poll ??= setInterval(() => this.pump(), POLL_MS).unref();
  }

  private receive(message: WorkerMessage): void {
    // Results written before the message are printed before it is acted on.
    this.pump();
    switch (message.type) {
      case 'ready':
        this.settleReady.resolve();
        return;
      case 'refused':
        this.fail(
          new UsageError(
            `--jq: ${compileMessage(message.stderr, message.exitCode)}`,
            "check the filter against jq's manual: https://jqlang.org/manual/",
          ),
        );
        return;
      case 'warn':
        this.options.warn(message.text);
        return;
      case 'failed':
        this.finish({
          error: message.memory ? outOfMemory() : new FilterError(`--jq: ${message.message.replace(ERROR_PREFIX, '')}`),
        });
        return;
      case 'done':
        this.finish(
          message.exitCode === 0
            ? {}
            : { error: new FilterError(`--jq: jq stopped with exit status ${message.exitCode}`) },
        );
        return;
    }
  }

  /** Moves what the ring holds to stdout, unless stdout asked to wait or the results are held. */
  private pump(): void {
    while (!this.outBlocked && !this.outputHeld && !this.settled) {
      const used = Atomics.load(this.control, CONTROL.RING_USED);
      if (used === 0) break;
      const take = Math.min(used, RING_BYTES - this.readPos);
      // A copy: TextDecoder does not read shared memory.
      const text = this.decoder.decode(this.ring.slice(this.readPos, this.readPos + take), { stream: true });
      this.readPos = (this.readPos + take) % RING_BYTES;
      Atomics.sub(this.control, CONTROL.RING_USED, take);
      Atomics.notify(this.control, CONTROL.RING_USED);
      if (text !== '') this.options.out.write(text);
      if (this.options.out.writableNeedDrain === true) this.outBlocked = true;
    }
    if (this.outcome && !this.settled && Atomics.load(this.control, CONTROL.RING_USED) === 0) this.settle();
    if (this.drainOwed && !this.writableNeedDrain) {
      this.drainOwed = false;
      this.emit('drain');
    }
  }

  /** jq has ended (well or not): the outcome counts once its results are printed. */
  private finish(outcome: { error?: Error }): void {
    if (this.outcome) return;
    this.outcome = outcome;
    if (outcome.error) this.failure = outcome.error;
    this.pump();
  }

  /** Ends at once: a signal, the deadline, a refused filter, the engine's own failure. */
  private fail(error: Error): void {
    if (this.settled) return;
    this.outcome = { error };
    this.failure = error;
    this.settle();
  }

  private settle(): void {
    this.settled = true;
    this.stop();
    const error = this.outcome?.error;
    if (error) {
      this.settleReady.reject(error);
      this.settleFinished.reject(error);
      // A list waiting between pages goes on, and its next write throws.
      this.emit('drain');
    } else {
      this.settleReady.resolve();
      this.settleFinished.resolve();
    }
  }

  private stop(): void {
    clearTimeout(this.deadline);
    if (this.poll) clearInterval(this.poll);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.input.close();
    void this.worker.terminate();
  }
}

function outOfMemory(): FilterError {
  return new FilterError(
    "--jq: the filter ran out of memory (jq's limit is 256 MB)",
    'a filter that collects without end (`[range(infinite)]`) never finishes; narrow the input or the filter',
  );
}

/**
 * jq's compile error without its `jq: error: ` prefixes and its closing `jq: 1 compile error`,
 * on one line as every error of mon is: the filter quoted after it, without the caret line
 * that points into it (which means nothing once the lines are joined).
 */
function compileMessage(stderr: string, exitCode: number): string {
  const lines = stderr
    .split('\n')
    .filter((line) => !/^jq: \d+ compile errors?$/.test(line) && !/^\s*\^+\s*$/.test(line));
  const text = lines
    .map((line) => line.replace(ERROR_PREFIX, '').trim())
    .filter(Boolean)
    .join(' ');
  return text === '' ? `jq refused the filter (exit status ${exitCode})` : text;
}
