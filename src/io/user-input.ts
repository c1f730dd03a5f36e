/**
 * Every read of what the user hands mon as a file or on standard input: `--from FILE|-`,
 * `--body-file FILE|-`, `--api-key-stdin`. One reader, so that each of them
 * - ends within a moment of Ctrl-C or SIGTERM (exit 130/143) and at MON_DEADLINE (exit 8),
 *   whatever it reads: a file is opened with O_NONBLOCK, so a named pipe with no writer does not
 *   hold the open (in a thread the process would wait for at exit), and is then read by the event
 *   loop, which waits for its writer as long as nothing stops it;
 * - stops at a bound on the whole input and on one line, saying which bound and why, before it
 *   has read much more than that (`--from /dev/zero` stops after 1 MiB).
 * Loaded only by the commands that read such input.
 */
import { close, constants, fstat, open, read } from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { sleep } from '../clock.js';
import type { Context } from '../context.js';
import { InterruptedError, MonError, UsageError } from '../errors.js';
import { quoted } from '../text/escape.js';
import { deadlineError, deadlineFromEnv } from '../time/deadline.js';

export interface UserInput {
  /** The option that names the input, as messages say it: `--from`, `--body-file`, `--api-key-stdin`. */
  option: string;
  /** A path, or `-` for standard input. */
  path: string;
  /** The most bytes the whole input may be. */
  maxBytes: number;
  /** Follows the bound when the input is over maxBytes: 'the most a list of uids may be'. */
  tooLarge: string;
  /** The most bytes one line may be (without its line break); unbounded when not given. */
  maxLineBytes?: number;
  /** What the input should be: the hint of every refusal ('give a file of plugin result uids, one a line'). */
  hint: string;
}

/** How bounds read in messages: 1 MiB, 64 MiB, 4 KiB, 300 bytes. */
export function byteSize(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes.toLocaleString('en')} bytes`;
}

/** The input as messages name it: `stdin`, or the path quoted (and shortened when long). */
export function inputName(path: string): string {
  return path === '-' ? 'stdin' : quoted(path);
}

/** How much of a regular file or a device one read takes. */
const CHUNK_BYTES = 64 * 1024;
/** How long to wait before reading again a device that has nothing yet (EAGAIN: a terminal opened by path). */
const RETRY_MS = 50;

/**
 * The whole input as UTF-8 text, within its bounds. Refusals are UsageErrors (exit 2) naming the
 * option, the input and the bound; Ctrl-C and SIGTERM end it with an InterruptedError, MON_DEADLINE
 * with the client's deadline error (exit 8).
 */
export async function readUserInput(ctx: Context, input: UserInput): Promise<string> {
  const deadline = await deadlineOf(ctx);
  const signal = deadline ? AbortSignal.any([ctx.signal, deadline.signal]) : ctx.signal;
  const name = inputName(input.path);
  const tooLong = (line: number) =>
    new UsageError(
      `${input.option}: line ${line.toLocaleString('en')} of ${name} is longer than ${byteSize(input.maxLineBytes!)}, the most a line may be; stopped reading there`,
      input.hint,
    );
  const chunks: Buffer[] = [];
  let total = 0;
  let line = 1;
  let lineBytes = 0;
  try {
    signal.throwIfAborted();
    for await (const chunk of input.path === '-'
      ? streamChunks(ctx.io.stdin, signal)
      : fileChunks(input.path, signal)) {
      total += chunk.length;
      if (total > input.maxBytes) {
        throw new UsageError(
          `${input.option}: ${name} holds more than ${byteSize(input.maxBytes)}, ${input.tooLarge}; stopped reading there`,
          input.hint,
        );
      }
      if (input.maxLineBytes !== undefined) {
        // Only the line breaks are looked at: bounding a line needs no copy of it.
        let from = 0;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, from)) {
          if (lineBytes + at - from > input.maxLineBytes) throw tooLong(line);
          line++;
          lineBytes = 0;
          from = at + 1;
        }
        lineBytes += chunk.length - from;
        if (lineBytes > input.maxLineBytes) throw tooLong(line);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (ctx.signal.aborted) throw InterruptedError.of(ctx.signal);
    if (deadline?.signal.aborted) throw deadline.error();
    if (error instanceof MonError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`${input.option}: cannot read ${name} (${code})`, input.hint);
  }
  const bytes = Buffer.concat(chunks);
  // Bytes that are not UTF-8 would be sent as U+FFFD in their place: a note or a key changed unseen.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `${input.option}: ${name} is not UTF-8 text (${byteSize(bytes.length)} read); nothing was sent`,
      `save it as UTF-8 (e.g. iconv -t UTF-8); ${input.hint}`,
    );
  }
}

/**
 * MON_DEADLINE, counted from the start of the read (the first thing a command that reads input
 * does): the signal that fires then, and the error it ends the command with (exit 8, as when a
 * request runs out of it). Nothing when MON_DEADLINE is not set: a person may type the input.
 */
async function deadlineOf(ctx: Context): Promise<{ signal: AbortSignal; error: () => MonError } | undefined> {
  if (!ctx.env.MON_DEADLINE) return undefined;
  const ms = deadlineFromEnv(ctx.env);
  return { signal: AbortSignal.timeout(ms), error: () => deadlineError(ms) };
}

/** Standard input (or the stream a test hands in), chunk by chunk until its end or the signal. */
function streamChunks(stream: NodeJS.ReadableStream, signal: AbortSignal): AsyncIterable<Buffer> {
  // The stream is destroyed on abort, which ends the iteration with the abort's error.
  const readable = addAbortSignal(signal, stream as Readable);
  return (async function* () {
    for await (const chunk of readable) yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
  })();
}

/**
 * A file by path. Opened with O_NONBLOCK, so that the open itself never waits (a named pipe
 * with no writer). A pipe is then read by the event loop as a socket is, which waits for a
 * writer and lets a signal end the wait; anything else (a regular file, a device such as
 * /dev/zero) is read a chunk at a time, the signal looked at between chunks.
 */
async function* fileChunks(path: string, signal: AbortSignal): AsyncGenerator<Buffer> {
  const fd = await promisify(open)(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let owned = true;
  try {
    const stat = await promisify(fstat)(fd);
    if (stat.isFIFO() || stat.isSocket()) {
      // node:net where a socket is started: a boundary of the build (test/unit/lazy-boundaries.test.ts).
      const { Socket } = await import('node:net');
      // The socket closes the descriptor when it ends or is destroyed.
      owned = false;
      const socket = new Socket({ fd, readable: true, writable: false });
      yield* streamChunks(socket, signal);
      return;
    }
    const readChunk = promisify(read);
    for (;;) {
      signal.throwIfAborted();
      let bytes: number;
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      try {
        ({ bytesRead: bytes } = await readChunk(fd, buffer, 0, CHUNK_BYTES, null));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await sleep(RETRY_MS, signal);
        continue;
      }
      if (bytes === 0) return;
      yield buffer.subarray(0, bytes);
    }
  } finally {
    if (owned) close(fd, () => {});
  }
}
