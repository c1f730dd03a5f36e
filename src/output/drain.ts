import { EventEmitter, once } from 'node:events';
import type { Sink } from './types.js';

/**
 * Waits while `out` holds more than its buffer: a stream says so with writableNeedDrain, and
 * says 'drain' once the reader has caught up. A list waits here between pages, so that
 * `mon … --all | slow-reader` holds a page or so in memory, not every page fetched meanwhile.
 * A test's plain buffer never waits; Ctrl-C ends the wait.
 */
export async function drained(out: Sink, signal?: AbortSignal): Promise<void> {
  if (out instanceof EventEmitter && (out as { writableNeedDrain?: boolean }).writableNeedDrain === true)
    await once(out, 'drain', { signal });
}

/**
 * Whether `out` holds output its reader has not taken yet (a pipe nobody reads): what the
 * deadline's line then says held the command. A test's plain buffer holds nothing back.
 */
export function heldBack(out: Sink): boolean {
  const stream = out as { writableLength?: unknown; writableNeedDrain?: unknown };
  return (typeof stream.writableLength === 'number' && stream.writableLength > 0) || stream.writableNeedDrain === true;
}

/**
 * Resolves once what was written to `out` so far has been handed to the system (a stream calls
 * a write's callback then), or rejects with the write's error (ENOSPC, EPIPE). A test's plain
 * buffer holds it already.
 */
export function flushed(out: Sink): Promise<void> {
  if (!(out instanceof EventEmitter)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    (out as unknown as NodeJS.WritableStream).write('', (error?: Error | null) => (error ? reject(error) : resolve()));
  });
}
