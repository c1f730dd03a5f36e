/**
 * `--jq EXPR`: the real jq language (jq 1.8, the jq-wasm package: a WebAssembly build of jqlang/jq)
 * over what a command prints as JSON. The only module that loads jq-wasm, and only when --jq is
 * given: the package is left out of the bundle (scripts/esbuild.config.mjs) and required here on
 * first use, so no other command reads or compiles a byte of it.
 *
 * It works on the text stdout would get, as a Sink between the renderers and stdout, so every
 * command that prints JSON gets --jq from this one place:
 * - with -o json, the whole document (one array for a list, every page with --all) is kept
 *   and given to the filter once, when the command has succeeded;
 * - with -o ndjson, each page's lines go through the filter as they are written: the filter runs
 *   once per item, and memory stays at a page.
 * Results are printed as gh prints them: one per line, strings raw (`jq -r`), everything else as
 * compact JSON.
 */
import { EventEmitter } from 'node:events';
import { FilterError, UsageError } from '../errors.js';
import type { Sink } from './types.js';

/** The part of jq-wasm's handle used here (its documented, synchronous `raw`). */
interface JqHandle {
  raw(input: string, query: string, flags?: string[]): { stdout: string; stderr: string; exitCode: number };
}

/**
 * `-c`: one compact JSON value per line. `--`: the filter is never read as an option of jq's
 * (`--jq '-1'` is the number -1).
 */
const FLAGS = ['-c', '--'];

/** jq's prefix of an error line, with the input position it names (`/dev/stdin:3`, meaningless here). */
const ERROR_PREFIX = /^jq: error(?: \(at [^)]*\))?: /;

/** A compiled filter: runs over JSON text, and says what jq printed. */
export class JqFilter {
  private constructor(
    private readonly jq: JqHandle,
    readonly expression: string,
  ) {}

  /**
   * Loads jq and compiles `expression` without running it (jq runs a filter once per input, and
   * an empty input has none), so a syntax error is found before any request is sent.
   */
  static async compile(expression: string): Promise<JqFilter> {
    const { loadJq } = await import('jq-wasm');
    const jq: JqHandle = await loadJq();
    const checked = jq.raw('', expression, FLAGS);
    // jq's own message, with its line, column and caret under the fault (exit 3: compile error).
    if (checked.exitCode !== 0) throw new UsageError(`--jq: ${compileMessage(checked.stderr, checked.exitCode)}`, "check the filter against jq's manual: https://jqlang.org/manual/");
    return new JqFilter(jq, expression);
  }

  /**
   * Runs the filter over `json` (one JSON value, or several one after another: it runs once per
   * value) and returns the lines to print. jq's messages on success (`debug`, `stderr`) go to
   * `warn`; a runtime error throws a FilterError (exit 1) after `print` got what jq printed
   * before it.
   */
  run(json: string, print: (text: string) => void, warn: (text: string) => void): void {
    const { stdout, stderr, exitCode } = this.jq.raw(json, this.expression, FLAGS);
    // jq-wasm trims stdout; with -c every value is one line, and compact JSON holds no raw newline.
    if (stdout !== '') print(stdout.split('\n').map(rawString).join('\n') + '\n');
    if (exitCode === 0) {
      if (stderr !== '') warn(`${stderr}\n`);
      return;
    }
    const first = stderr.split('\n').find((line) => line.trim() !== '');
    throw new FilterError(`--jq: ${first ? first.replace(ERROR_PREFIX, '') : `jq stopped with exit status ${exitCode}`}`);
  }
}

/** A string result is printed raw, as `jq -r` and gh do; any other value as compact JSON. */
function rawString(line: string): string {
  return line.startsWith('"') ? (JSON.parse(line) as string) : line;
}

/**
 * jq's compile error without its `jq: error: ` prefixes and its closing `jq: 1 compile error`,
 * on one line as every error of mon is: the filter quoted after it, without the caret line
 * that points into it (which means nothing once the lines are joined).
 */
function compileMessage(stderr: string, exitCode: number): string {
  const lines = stderr.split('\n').filter((line) => !/^jq: \d+ compile errors?$/.test(line) && !/^\s*\^+\s*$/.test(line));
  const text = lines
    .map((line) => line.replace(ERROR_PREFIX, '').trim())
    .filter(Boolean)
    .join(' ');
  return text === '' ? `jq refused the filter (exit status ${exitCode})` : text;
}

/** Where a JqSink prints: stdout, maybe a stream that asks writers to wait for 'drain'. */
type Target = Sink & { writableNeedDrain?: boolean };

/**
 * Stands in for stdout while --jq is on. Renderers write JSON text to it as usual; it writes the
 * filter's results to `out`. A stream's back-pressure passes through, so a list waiting for a slow
 * reader between pages (src/output/drain.ts) still waits.
 */
export class JqSink extends EventEmitter implements Sink {
  private pending: string[] = [];

  constructor(
    private readonly filter: JqFilter,
    private readonly mode: 'json' | 'ndjson',
    private readonly out: Target,
    private readonly warn: (text: string) => void,
  ) {
    super();
    if (out instanceof EventEmitter) out.on('drain', () => this.emit('drain'));
  }

  get writableNeedDrain(): boolean {
    return this.out.writableNeedDrain === true;
  }

  write(chunk: string): boolean {
    if (this.mode === 'json') {
      // The whole document first: the filter sees it once, whole (`length`, `map(…)`).
      this.pending.push(chunk);
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
    this.filter.run(lines, (text) => this.out.write(text), this.warn);
    return true;
  }

  /** Call once the command has succeeded: with -o json, the filter runs now. */
  end(): void {
    const rest = this.pending.join('');
    this.pending = [];
    if (rest.trim() !== '') this.filter.run(rest, (text) => this.out.write(text), this.warn);
  }
}
