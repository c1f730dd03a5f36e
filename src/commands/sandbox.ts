import { sandboxStateFile } from '../config/paths.js';
import { UsageError } from '../errors.js';
import { verb, type ResourceSpec } from '../spec/spec.js';

/** A port that cannot be listened on is the user's to change (exit 2), not a bug. */
function listenError(error: NodeJS.ErrnoException, port: number | undefined, host: string): UsageError | undefined {
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
      summary: 'Run the sandbox in the foreground until Ctrl-C; prints its base URL and key',
      options: [
        { flags: '--port <port>', description: 'port to listen on (default: any free port)', rule: { type: 'int', min: 0, max: 65535 } },
        { flags: '--host <host>', description: 'loopback address to listen on', choices: ['127.0.0.1', 'localhost', '::1'], defaultText: '127.0.0.1' },
        { flags: '--computers <n>', description: 'how many computers to seed (default 40; re-seeds when it changes)', rule: { type: 'int', min: 1, max: 100000 } },
        { flags: '--seed <n>', description: 'seed of the demo data (default 1; re-seeds when it changes)', rule: { type: 'int', min: 0, max: 2147483647 } },
      ],
      examples: ['mon sandbox', 'mon sandbox --port 8025 --computers 10000'],
      async run({ opts }, ctx) {
        const { serveForeground } = await import('../sandbox/cli.js');
        await serveForeground({
          stateFile: sandboxStateFile(ctx.configDir),
          port: opts.port,
          host: opts.host,
          computers: opts.computers,
          seed: opts.seed,
          io: ctx.io as never,
          signal: ctx.signal,
        }).catch((error: NodeJS.ErrnoException) => {
          throw listenError(error, opts.port, opts.host ?? '127.0.0.1') ?? error;
        });
      },
    }),
    {
      name: 'reset',
      jsonOutput: false,
      summary: 'Restore the demo data: forget every change made in the sandbox',
      examples: ['mon sandbox reset'],
      async run(_input, ctx) {
        const { resetSandbox } = await import('../sandbox/cli.js');
        const existed = await resetSandbox(sandboxStateFile(ctx.configDir));
        ctx.notice(existed ? 'Sandbox reset: the demo data is restored on its next start.' : 'Sandbox already fresh: nothing to reset.');
      },
    },
  ],
};
