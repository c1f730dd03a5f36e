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
  checkPath(path, append);
  const { target, fd } = openTarget(path, append);
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
    const failure = await closed(stream, fd, () => writeError, keep && !append, path);
    if (append) {
      if (failure) throw failure;
      return;
    }
    process.removeListener('exit', atExit);
    await kept(target, path, keep, failure);
  };
  return {
    stream,
    settle: (keep) => (settled ??= finish(keep)),
  };
}

/** A path --output-file refuses before anything is sent: empty, a folder, a link it would replace, a device. */
function checkPath(path: string, append: boolean): void {
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
}

/** The temporary beside PATH (or PATH itself, to append to), opened: what cannot be written is refused here. */
function openTarget(path: string, append: boolean): { target: string; fd: number } {
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
  return { target, fd };
}

/**
 * Ends the stream and closes the file, synced when it is to be kept; the failure to say (a
 * full disk), if any.
 */
async function closed(
  stream: WriteStream,
  fd: number,
  /** The stream's first error: read again once the stream has ended, as it may come then. */
  writeError: () => NodeJS.ErrnoException | undefined,
  sync: boolean,
  path: string,
): Promise<unknown> {
  let failure: unknown;
  try {
    if (!writeError() && !stream.writableFinished) {
      const ended = Promise.race([once(stream, 'finish'), once(stream, 'close')]);
      if (!stream.writableEnded) stream.end();
      await ended;
    }
    const error = writeError();
    if (error) throw error;
    if (sync) fsyncSync(fd);
  } catch (error) {
    failure = refusedWrite(path, error as NodeJS.ErrnoException);
  }
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
  return failure;
}

/** The temporary renamed onto PATH when the answer is whole, else removed; the failure thrown. */
async function kept(target: string, path: string, keep: boolean, failure: unknown): Promise<void> {
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
}
