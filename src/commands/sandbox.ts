import { sandboxStateError, sandboxStateFile } from '../config/paths.js';
import { UsageError } from '../errors.js';
import { DEMO_ACCOUNT_NAME } from '../config/sandbox-identity.js';
import { verb, type ResourceSpec } from '../spec/spec.js';
import { dryRunLocally } from './actions.js';

/** Which demo data: the options `serve` and `reset` share. */
const DATA_OPTIONS = [
  {
    flags: '--account <name>',
    description: 'a demo account of its own: its own data, key and state (a-z, 0-9 and -, up to 32)',
    rule: { type: 'name', pattern: DEMO_ACCOUNT_NAME, says: 'a demo account name (a-z, 0-9 and -, up to 32, starting with a letter or digit)' },
  },
  { flags: '--computers <n>', description: 'how many computers to seed (default 40); another size is another state', rule: { type: 'int', min: 1, max: 100000 } },
  { flags: '--seed <n>', description: 'seed of the demo data (default 1, or one of the account\'s own); another seed is another state', rule: { type: 'int', min: 0, max: 2147483647 } },
] as const;

/** A port that cannot be listened on is the user's to change (exit 2), not a bug. */
function listenError(error: NodeJS.ErrnoException, port: number | undefined, host: string): UsageError | undefined {
  // EACCES of the state file, not of the port: the same code from another call.
  if (error.syscall !== 'listen') return undefined;
  const hint = `choose another with --port <n>, or --port 0 for any free port`;
  if (error.code === 'EADDRINUSE') return new UsageError(`--port ${port ?? 0}: port ${port ?? 0} on ${host} is already in use`, hint);
  if (error.code === 'EACCES') return new UsageError(`--port ${port ?? 0}: not allowed to listen on port ${port ?? 0} (ports below 1024 need privileges)`, hint);
  return undefined;
}

/** `mon sandbox`: the v2.5 API on loopback with demo data (cli-contract.md, The sandbox). */
export const sandbox: ResourceSpec = {
  name: 'sandbox',
  summary: 'Serve the v2.5 API with demo data, no account needed',
  examples: ['mon sandbox', 'mon sandbox --port 8025', 'mon sandbox reset'],
  verbs: [
    verb({
      name: 'serve',
      jsonOutput: false,
      isDefault: true,
      untilStopped: true,
      summary: 'Run the sandbox in the foreground until Ctrl-C; prints its base URL and key',
      options: [
        { flags: '--port <port>', description: 'port to listen on (default: any free port)', rule: { type: 'int', min: 0, max: 65535 } },
        { flags: '--host <host>', description: 'loopback address to listen on', choices: ['127.0.0.1', 'localhost', '::1'], defaultText: '127.0.0.1' },
        ...DATA_OPTIONS,
        { flags: '--rate-limit <n/s>', description: 'requests each key may send per S seconds (default 400/60, as the API)', rule: { type: 'rate' } },
      ],
      examples: ['mon sandbox', 'mon sandbox --port 8025 --computers 10000', 'mon sandbox --account north --port 0', 'mon sandbox --rate-limit 4000/60'],
      async run({ opts }, ctx) {
        const identity = { account: opts.account, computers: opts.computers, seed: opts.seed };
        const where = `${opts.host ?? '127.0.0.1'}:${opts.port ?? 'any free port'}`;
        if (dryRunLocally(ctx, `serve the sandbox's API on ${where} with the data of ${sandboxStateFile(ctx.configDir, identity)}`)) return;
        const { serveForeground } = await import('../sandbox/index.js');
        await serveForeground({
          stateFile: sandboxStateFile(ctx.configDir, identity),
          identity,
          port: opts.port,
          host: opts.host,
          rateLimit: opts.rateLimit,
          io: ctx.io as never,
          signal: ctx.signal,
        }).catch((error: NodeJS.ErrnoException) => {
          throw listenError(error, opts.port, opts.host ?? '127.0.0.1') ?? sandboxStateError(error, ctx.configDir) ?? error;
        });
      },
    }),
    verb({
      name: 'reset',
      jsonOutput: false,
      summary: 'Restore the demo data: forget every change made in the sandbox (the default data, the data named, or --all)',
      options: [...DATA_OPTIONS, { flags: '--all', description: 'every sandbox state: each account, size and seed' }],
      examples: ['mon sandbox reset', 'mon sandbox reset --computers 10000', 'mon sandbox reset --all'],
      async run({ opts }, ctx) {
        const { resetSandbox, resetEverySandbox } = await import('../sandbox/index.js');
        if (opts.all) {
          if (opts.account !== undefined || opts.computers !== undefined || opts.seed !== undefined) {
            throw new UsageError('--all resets every sandbox state: give it alone, or name one with --account, --computers and --seed');
          }
          if (dryRunLocally(ctx, 'remove every sandbox state')) return;
          const count = await resetEverySandbox(ctx.configDir);
          ctx.notice(count > 0 ? `Sandbox reset: ${count} state${count === 1 ? '' : 's'} removed; the demo data is restored on the next start.` : 'Sandbox already fresh: nothing to reset.');
          return;
        }
        if (dryRunLocally(ctx, "forget every change made in the sandbox's data")) return;
        const existed = await resetSandbox(sandboxStateFile(ctx.configDir, { account: opts.account, computers: opts.computers, seed: opts.seed }));
        ctx.notice(existed ? 'Sandbox reset: the demo data is restored on its next start.' : 'Sandbox already fresh: nothing to reset.');
      },
    }),
  ],
};
