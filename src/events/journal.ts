/**
 * --output-file: each event handled is appended as one ndjson line and is on disk (fdatasync)
 * before the sender gets its 2xx. Lines that arrive together share one write and one sync.
 * On start, the ids of the last lines are read back, so a delivery handled before a restart
 * (even one killed before it could answer) is known as a retry; a last line the kill cut short
 * was never acknowledged, so it is dropped and the sender's retry writes it whole.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { MON_KEY } from './payload.js';
import type { RecentIds } from './seen.js';

/** How far back the ids are read on start: enough for RecentIds' capacity of usual events. */
const TAIL_BYTES = 16 * 1024 * 1024;
const CHUNK = 1024 * 1024;

interface Pending {
  line: string;
  resolve(): void;
  reject(error: unknown): void;
}

export class Journal {
  private queue: Pending[] = [];
  private writing: Promise<void> | undefined;

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  /**
   * Opens (or creates, 0600) the file, drops a cut-off last line, and adds the ids of its last
   * lines to `ids`, oldest first. `notice` says what was dropped.
   */
  static async open(path: string, ids: RecentIds, notice: (message: string) => void): Promise<Journal> {
    const handle = await open(path, 'a+', 0o600);
    try {
      const { size } = await handle.stat();
      const lines = await tailLines(handle, size, ids.capacity, notice);
      for (const line of lines) {
        try {
          const id = (JSON.parse(line) as Record<string, { id?: unknown } | undefined>)[MON_KEY]?.id;
          if (typeof id === 'string') ids.add(id);
        } catch {
          // A line that is not mon's (edited by hand) names no id: it is left as it is.
        }
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new Journal(handle, path);
  }

  /** Resolves once `line` (without its newline) is written and synced to disk. */
  append(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        await this.handle.write(batch.map((entry) => `${entry.line}\n`).join(''));
        await this.handle.datasync();
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = undefined;
  }

  async close(): Promise<void> {
    await this.writing;
    await this.handle.close();
  }
}

/** The last `count` whole lines of the file (at most TAIL_BYTES), after truncating a cut-off last line. */
async function tailLines(
  handle: FileHandle,
  size: number,
  count: number,
  notice: (message: string) => void,
): Promise<string[]> {
  let end = size;
  let text = '';
  let start = size;
  while (start > 0 && size - start < TAIL_BYTES) {
    const from = Math.max(0, start - CHUNK);
    const buffer = Buffer.alloc(start - from);
    await handle.read(buffer, 0, buffer.length, from);
    text = buffer.toString('utf8') + text;
    start = from;
    if (text.split('\n').length > count + 2) break;
  }
  if (end > 0 && !text.endsWith('\n')) {
    const cut = text.lastIndexOf('\n');
    const keep = cut === -1 ? (start === 0 ? 0 : undefined) : start + Buffer.byteLength(text.slice(0, cut + 1));
    if (keep !== undefined) {
      await handle.truncate(keep);
      notice(
        `--output-file: dropped a last line cut short (${end - keep} bytes): that event was not acknowledged, and its sender sends it again`,
      );
      end = keep;
      text = cut === -1 ? '' : text.slice(0, cut + 1);
    }
  }
  const lines = text.split('\n').filter((line) => line !== '');
  // The first piece read from the middle of the file may be part of a line.
  if (start > 0) lines.shift();
  return lines.slice(-count);
}
