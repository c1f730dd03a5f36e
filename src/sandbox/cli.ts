/** What `mon sandbox` and `mon sandbox reset` run. */
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { demoAccountKey, seedOf, STATE_FILE_NAME, type SandboxIdentity } from '../config/sandbox-identity.js';
import { startSandbox } from './server.js';
import { isTempFileOf, journalOf } from './store.js';

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

/** Deletes the state file (and temp files a crash may have left) so the next start re-seeds. */
export async function resetSandbox(stateFile: string): Promise<boolean> {
  let existed = true;
  try {
    await rm(stateFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    existed = false;
  }
  try {
    const dir = dirname(stateFile);
    for (const name of await readdir(dir)) {
      if (isTempFileOf(stateFile, name)) await rm(join(dir, name), { force: true });
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await rm(journalOf(stateFile), { force: true });
  return existed;
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
