/** What `mon sandbox` and `mon sandbox reset` run. */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { demoAccountKey, seedOf, STATE_FILE_NAME, type SandboxIdentity } from '../config/sandbox-identity.js';
import { startSandbox } from './server.js';
import { isTempFileOf, journalOf, withStateLock } from './store.js';

export interface SandboxCliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Foreground server: prints the base URL, the key and the export lines on stdout, serves until
 * `signal` aborts, then closes. Lines that are not `export` start with `#`, so the output can be
 * pasted into a shell as is. Port default 0 (any free port). Each set of demo data (account,
 * size, seed) has its own state file, so sandboxes serving other data are left alone.
 */
export async function serveForeground(opts: {
  stateFile: string;
  identity: SandboxIdentity;
  port?: number;
  host?: string;
  rateLimit?: { requests: number; windowMs: number } | undefined;
  io: SandboxCliIo;
  signal: AbortSignal;
}): Promise<void> {
  const { identity } = opts;
  const sandbox = await startSandbox({
    stateFile: opts.stateFile,
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    seed: seedOf(identity),
    ...(identity.computers !== undefined && { computers: identity.computers }),
    ...(identity.account !== undefined && { apiKey: demoAccountKey(identity.account) }),
    ...(opts.rateLimit !== undefined && { rateLimit: opts.rateLimit }),
    // a long-running server must not keep every request in memory
    recordRequests: false,
    onNotice: (message) => opts.io.stderr.write(`${message}\n`),
  });
  opts.io.stdout.write(
    [
      `# mon sandbox: the v2.5 API with demo data${identity.account ? ` of the demo account '${identity.account}'` : ''}; base URL ${sandbox.url} (mon adds /v2.5 to every path)`,
      `# API key: ${sandbox.apiKey}`,
      `# state: ${opts.stateFile} (forget changes with \`mon sandbox reset${resetOptions(identity)}\`); stop with Ctrl-C`,
      `export MON_BASE_URL=${sandbox.url}`,
      `export MON_API_KEY=${sandbox.apiKey}`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    if (opts.signal.aborted) resolve();
    else opts.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
}

/**
 * Deletes the state file, its journal (and temp files a crash may have left) so the data is
 * seeded anew: at once by a sandbox serving it (its next request finds the file gone and
 * re-seeds, store.ts refresh), else on the next start. Under the state's lock, so a write of a
 * running sandbox cannot land between the two removals. Whether a state existed.
 */
export async function resetSandbox(stateFile: string): Promise<boolean> {
  if (!existsSync(dirname(stateFile))) return false;
  return withStateLock(stateFile, () => {
    const existed = existsSync(stateFile);
    rmSync(stateFile, { force: true });
    rmSync(journalOf(stateFile), { force: true });
    const dir = dirname(stateFile);
    for (const name of readdirSync(dir)) {
      if (isTempFileOf(stateFile, name)) rmSync(join(dir, name), { force: true });
    }
    return existed;
  });
}

/** The options of `mon sandbox reset` that name this data. */
function resetOptions(identity: SandboxIdentity): string {
  return [
    identity.account !== undefined ? ` --account ${identity.account}` : '',
    identity.computers !== undefined ? ` --computers ${identity.computers}` : '',
    identity.seed !== undefined ? ` --seed ${identity.seed}` : '',
  ].join('');
}

/** Deletes every sandbox state in the config folder (`mon sandbox reset --all`); how many there were. */
export async function resetEverySandbox(configDir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(configDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let count = 0;
  for (const name of names.filter((one) => STATE_FILE_NAME.test(one))) if (await resetSandbox(join(configDir, name))) count++;
  return count;
}
