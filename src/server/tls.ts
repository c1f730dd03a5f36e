import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { UsageError } from '../errors.js';

/** A certificate chain and its key, PEM, as node:https takes them. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/**
 * --tls-cert and --tls-key: both or neither, each a readable PEM file, and the pair usable
 * together; otherwise a UsageError (exit 2) naming the option. Neither given: undefined.
 */
export async function readTls(
  certPath: string | undefined,
  keyPath: string | undefined,
): Promise<TlsFiles | undefined> {
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    throw new UsageError(
      `${certPath === undefined ? '--tls-key' : '--tls-cert'} needs ${certPath === undefined ? '--tls-cert' : '--tls-key'} too`,
    );
  }
  const read = async (option: string, path: string): Promise<Buffer> => {
    try {
      return await readFile(path);
    } catch (error) {
      throw new UsageError(`${option} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  };
  const files = { cert: await read('--tls-cert', certPath), key: await read('--tls-key', keyPath) };
  try {
    createSecureContext(files);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'not usable';
    throw new UsageError(
      `--tls-cert ${certPath} / --tls-key ${keyPath}: not a PEM certificate and its key (${reason})`,
    );
  }
  return files;
}
