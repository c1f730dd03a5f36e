/** What `mon sandbox` and `mon sandbox reset` run. */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { demoAccountKey, seedOf, STATE_FILE_NAME, type SandboxIdentity } from '../config/sandbox-identity.js';
import { writeFileAtomic } from '../config/files.js';
import type { RunningSandbox } from './options.js';
import { CONTROL_PREFIX, startSandbox } from './server.js';
import { ensureLocalCa, type LocalCa, serverCertificate } from './tls.js';
import { journalOf } from './journal.js';
import { isTempFileOf, withStateLock } from './state-file.js';

export interface SandboxCliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** What `mon sandbox` serves with: the state file and identity of its data, and how it serves. */
export interface ForegroundOptions {
  stateFile: string;
  identity: SandboxIdentity;
  port?: number;
  host?: string;
  rateLimit?: { requests: number; windowMs: number } | undefined;
  /** serve HTTPS with a certificate of the config folder's local CA (tls.ts) */
  tls?: { configDir: string } | undefined;
  /** simulated seconds per real second: a living fleet, kept in memory */
  live?: { speed: number } | undefined;
  webhooks?: readonly string[] | undefined;
  io: SandboxCliIo;
  signal: AbortSignal;
}

/**
 * Foreground server: prints the base URL, the key and the export lines on stdout, serves until
 * `signal` aborts, then closes. Lines that are not `export` start with `#`, so the output can be
 * pasted into a shell as is. Port default 0 (any free port). Each set of demo data (account,
 * size, seed) has its own state file, so sandboxes serving other data are left alone.
 */
export async function serveForeground(opts: ForegroundOptions): Promise<void> {
  const { identity } = opts;
  const ca = opts.tls ? ensureLocalCa(opts.tls.configDir) : undefined;
  const sandbox = await startSandbox({
    ...(ca !== undefined && { tls: serverCertificate(ca) }),
    ...(opts.live === undefined && { stateFile: opts.stateFile }),
    ...(opts.live !== undefined && { live: opts.live }),
    ...(opts.webhooks !== undefined && { webhooks: opts.webhooks }),
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
  // `mon sandbox trigger` finds this sandbox through a file beside its state (removed when it stops)
  const serving = servingFileOf(opts.stateFile);
  writeFileAtomic(serving, `${JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey, pid: process.pid })}\n`);
  opts.io.stdout.write(banner(opts, sandbox, ca));
  await new Promise<void>((resolve) => {
    if (opts.signal.aborted) resolve();
    else opts.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  rmSync(serving, { force: true });
  await sandbox.close();
}

/** What `mon sandbox` prints once it serves: comments for people, and the export lines a shell takes. */
function banner(
  opts: Pick<ForegroundOptions, 'identity' | 'live' | 'stateFile' | 'webhooks'>,
  sandbox: RunningSandbox,
  ca: LocalCa | undefined,
): string {
  const { identity, live } = opts;
  return [
    `# mon sandbox: the v2.5 API with demo data${identity.account ? ` of the demo account '${identity.account}'` : ''}; base URL ${sandbox.url} (mon adds /v2.5 to every path)`,
    `# API key: ${sandbox.apiKey}`,
    live === undefined
      ? `# state: ${opts.stateFile} (forget changes with \`mon sandbox reset${resetOptions(identity)}\`); stop with Ctrl-C`
      : `# living fleet: simulated time runs ${live.speed}× (${speedText(live.speed)}) from now, seed ${seedOf(identity)}; kept in memory, each start begins again from the demo data; \`mon sandbox trigger tick 1d\` jumps ahead; stop with Ctrl-C`,
    ...(opts.webhooks ?? []).map((url) => `# webhook: each plugin result's change of state is POSTed to ${url}`),
    ...(ca === undefined
      ? []
      : [
          `# HTTPS: the certificate is signed by the local CA ${ca.certPath} (mon trusts it by itself); for other clients:`,
          `#   curl --cacert ${ca.certPath} ${sandbox.url}/v2.5/groups?api_key=…`,
          `#   export SSL_CERT_FILE=${ca.certPath}          # OpenSSL-based clients (this CA only, in that shell)`,
          `#   export REQUESTS_CA_BUNDLE=${ca.certPath}     # Python requests`,
          `#   export NODE_EXTRA_CA_CERTS=${ca.certPath}    # Node, besides its own CAs`,
        ]),
    `export MON_BASE_URL=${sandbox.url}`,
    `export MON_API_KEY=${sandbox.apiKey}`,
    '',
  ].join('\n');
}

/** `--speed 60` reads as "an hour a minute". */
function speedText(speed: number): string {
  if (speed === 1) return 'real time';
  if (speed % 86_400 === 0) return `${speed / 86_400} day${speed === 86_400 ? '' : 's'} a second`;
  if (speed % 3_600 === 0) return `${speed / 3_600} hour${speed === 3_600 ? '' : 's'} a second`;
  if (speed % 60 === 0) return `${speed / 60} hour${speed === 60 ? '' : 's'} a minute`;
  return `${speed} seconds a second`;
}

/** Where a serving sandbox says its address: `<state file>.serving`. */
export const servingFileOf = (stateFile: string): string => `${stateFile}.serving`;

/** The sandbox serving this state's data, if one runs (its process is alive). */
export function servingSandbox(stateFile: string): { url: string; apiKey: string } | undefined {
  let text: string;
  try {
    text = readFileSync(servingFileOf(stateFile), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const found = JSON.parse(text) as { url?: unknown; apiKey?: unknown; pid?: unknown };
    if (typeof found.url !== 'string' || typeof found.apiKey !== 'string' || typeof found.pid !== 'number')
      return undefined;
    process.kill(found.pid, 0);
    return { url: found.url, apiKey: found.apiKey };
  } catch {
    // not JSON, or its process is gone: a sandbox killed without its clean-up
    return undefined;
  }
}

/**
 * One call of a sandbox's control routes (`/_sandbox/tick`, `/_sandbox/trigger`) over plain
 * node:http: the sandbox never uses the API client. Rejects with the socket's error.
 */
export function callControl(
  base: string,
  apiKey: string,
  route: 'tick' | 'trigger',
  params: Record<string, string>,
  caCert?: string,
): Promise<{ status: number; body: unknown }> {
  const body = new URLSearchParams({ ...params, api_key: apiKey }).toString();
  const target = new URL(`${CONTROL_PREFIX}${route}`, base);
  // https: the local CA besides Node's own (a sandbox is on loopback: isLoopbackHost holds for it)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const trust = target.protocol === 'https:' && caCert !== undefined ? { ca: [...rootCertificates, caCert] } : {};
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        ...trust,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        timeout: 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // not the sandbox: the caller reports the status
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 120 s')));
    req.on('error', reject);
    req.end(body);
  });
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
  for (const name of names.filter((one) => STATE_FILE_NAME.test(one)))
    if (await resetSandbox(join(configDir, name))) count++;
  return count;
}
