/**
 * `--output-file PATH`: what a command prints on stdout goes to PATH instead. A snapshot (every
 * command but one that runs until stopped) is written to a temporary beside PATH, hidden and not
 * ending in PATH's extension (a textfile collector reads `*.prom` only), and renamed over PATH
 * once the answer is whole: exit 0, an answer's own exit code (`status --check`), or an answer
 * that is whole although the command fails (`status -o openmetrics`, whose failed accounts are in
 * it as mon_up 0). Otherwise PATH keeps what it held and the temporary is removed, on Ctrl-C too.
 * A stream (`sandbox serve`'s lines) is appended to PATH as it comes.
 */
import {
  closeSync,
  constants,
  createWriteStream,
  fsyncSync,
  lstatSync,
  openSync,
  unlinkSync,
  type Stats,
  type WriteStream,
} from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { UsageError } from '../errors.js';

const OPTION = '--output-file';

export interface OutputFile {
  /** Where stdout's writes go meanwhile. */
  readonly stream: WriteStream;
  /** Ends the writes and, for a snapshot, renames the temporary over PATH (or removes it when `keep` is false). */
  settle(keep: boolean): Promise<void>;
}

/** Whatever was said about a path in the words of --output-file: one line, exit 2, nothing sent. */
function refused(path: string, error: NodeJS.ErrnoException): UsageError {
  const why =
    error.code === 'ENOENT' || error.code === 'ENOTDIR'
      ? `no folder ${dirname(path)}`
      : error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS'
        ? `cannot write in ${dirname(path)} (${error.code})`
        : `cannot write ${path} (${error.code ?? error.message})`;
  return new UsageError(`${OPTION}: ${why}`, 'give a file in a folder that exists and you can write in');
}

/** A write or the rename that failed (ENOSPC, EACCES): exit 2 naming the file, as for the config file. */
function refusedWrite(path: string, error: NodeJS.ErrnoException): unknown {
  if (typeof error?.code !== 'string') return error;
  return new UsageError(
    `${OPTION}: cannot write ${path} (${error.code}); it keeps what it held`,
    `check the space and the rights of ${dirname(path)} (df -h, ls -ld)`,
  );
}

/**
 * Opens the temporary (or PATH, to append to) before any request is sent, so that a path that
 * cannot be written is refused first (exit 2).
 */
export function openOutputFile(path: string, append: boolean): OutputFile {
  if (path.trim() === '')
    throw new UsageError(
      `${OPTION}: give a file name (got '')`,
      'e.g. --output-file /var/lib/node_exporter/textfile/mon.prom',
    );
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw refused(path, error as NodeJS.ErrnoException);
  }
  // A rename would replace a link by a file, and cannot replace a folder; a FIFO or a device is
  // what a redirect is for.
  if (stats && !stats.isFile() && !(append && stats.isSymbolicLink())) {
    throw new UsageError(
      `${OPTION}: ${path} is ${stats.isDirectory() ? 'a folder' : stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; it replaces a regular file`,
      'give the path of a file, or redirect stdout (>) instead',
    );
  }
  const target = append
    ? path
    : join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number;
  try {
    // The file's mode follows the umask, as a redirect's does.
    fd = openSync(
      target,
      append
        ? constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT
        : constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      0o666,
    );
  } catch (error) {
    throw refused(path, error as NodeJS.ErrnoException);
  }
  // A process ended at once (a second Ctrl-C, MON_DEADLINE's last word) leaves no temporary.
  const atExit = () => {
    try {
      unlinkSync(target);
    } catch {
      // Already renamed or removed.
    }
  };
  if (!append) process.once('exit', atExit);
  const stream = createWriteStream(target, { fd, autoClose: false });
  // A write that failed (a full disk) is said when the run settles, not as an uncaught error.
  let writeError: NodeJS.ErrnoException | undefined;
  stream.on('error', (error) => (writeError ??= error));
  let settled: Promise<void> | undefined;
  const finish = async (keep: boolean): Promise<void> => {
    let failure: unknown;
    try {
      if (!writeError && !stream.writableFinished) {
        const ended = Promise.race([once(stream, 'finish'), once(stream, 'close')]);
        if (!stream.writableEnded) stream.end();
        await ended;
      }
      if (writeError) throw writeError;
      if (keep && !append) fsyncSync(fd);
    } catch (error) {
      failure = refusedWrite(path, error as NodeJS.ErrnoException);
    }
    try {
      closeSync(fd);
    } catch {
      // Closed already.
    }
    if (append) {
      if (failure) throw failure;
      return;
    }
    process.removeListener('exit', atExit);
    if (keep && !failure) {
      try {
        await rename(target, path);
        return;
      } catch (error) {
        failure = refusedWrite(path, error as NodeJS.ErrnoException);
      }
    }
    await unlink(target).catch(() => undefined);
    if (failure) throw failure;
  };
  return {
    stream,
    settle: (keep) => (settled ??= finish(keep)),
  };
}
