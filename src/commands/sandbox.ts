import { sandboxCaCert, sandboxStateError, sandboxStateFile } from '../config/paths.js';
import { AuthError, NetworkError, NotFoundError, UsageError } from '../errors.js';
import { DEMO_ACCOUNT_NAME, demoAccountKey } from '../config/sandbox-identity.js';
import { parseDuration } from '../validate/when.js';
import { terminalSafe } from '../text/escape.js';
import { verb, type ResourceSpec } from '../spec/spec.js';

/** Which demo data: the options `serve` and `reset` share. */
const DATA_OPTIONS = [
  {
    flags: '--account <name>',
    description: 'a demo account of its own: its own data, key and state (a-z, 0-9 and -, up to 32)',
    rule: {
      type: 'name',
      pattern: DEMO_ACCOUNT_NAME,
      says: 'a demo account name (a-z, 0-9 and -, up to 32, starting with a letter or digit)',
    },
  },
  {
    flags: '--computers <n>',
    description: 'how many computers to seed (default 40); another size is another state',
    rule: { type: 'int', min: 1, max: 100000 },
  },
  {
    flags: '--seed <n>',
    description: "seed of the demo data (default 1, or one of the account's own); another seed is another state",
    rule: { type: 'int', min: 0, max: 2147483647 },
  },
] as const;

const TRIGGER_EVENTS = /^(test|connection_test|tick|missing|alert|warning|ok)$/;

const when = (sec: number): string => `${new Date(sec * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A change of state the sandbox made, as its trigger route answers it (src/sandbox/README.md). */
interface Transition {
  at: number;
  client_id: string;
  name: string;
  previous: string;
  status: string;
}

/** One webhook delivery of a trigger. */
interface Delivery {
  url: string;
  delivered: boolean;
  status?: number;
  error?: string;
  attempts: number;
}

/** What the trigger route answers: its fields depend on the event. */
interface TriggerReply extends Partial<Transition> {
  now: number;
  transitions: Transition[];
  event_id: string;
  deliveries: Delivery[];
  last_report: number;
}

/** What `sandbox trigger` prints: one line per thing that happened. */
function triggerReport(event: string, body: TriggerReply): string {
  const change = (t: Transition): string =>
    `${when(t.at)}  ${terminalSafe(String(t.client_id))}  ${terminalSafe(String(t.name))}: ${t.previous} -> ${t.status}\n`;
  const deliveries = (list: Delivery[]): string =>
    list.length === 0
      ? 'no webhook address: start the sandbox with --webhook URL\n'
      : list
          .map(
            (d) =>
              `${terminalSafe(String(d.url))}: ${d.delivered ? 'delivered' : 'failed'} (${d.status !== undefined ? `HTTP ${d.status}` : terminalSafe(String(d.error))}${d.attempts > 1 ? `, ${d.attempts} attempts` : ''})\n`,
          )
          .join('');
  switch (event) {
    case 'tick':
      return `simulated clock now ${when(body.now)}; ${body.transitions.length} change${body.transitions.length === 1 ? '' : 's'} of state\n${body.transitions.map(change).join('')}`;
    case 'test':
      return `test delivery ${body.event_id}\n${deliveries(body.deliveries)}`;
    case 'connection_test':
      return deliveries(body.deliveries);
    case 'missing':
      return `${terminalSafe(String(body.client_id))} stopped reporting at ${when(body.last_report)}: it reads missing now\n`;
    default:
      return change(body as Transition);
  }
}

/** A port that cannot be listened on is the user's to change (exit 2), not a bug. */
function listenError(error: NodeJS.ErrnoException, port: number | undefined, host: string): UsageError | undefined {
  // EACCES of the state file, not of the port: the same code from another call.
  if (error.syscall !== 'listen') return undefined;
  const hint = `choose another with --port <n>, or --port 0 for any free port`;
  if (error.code === 'EADDRINUSE')
    return new UsageError(`--port ${port ?? 0}: port ${port ?? 0} on ${host} is already in use`, hint);
  if (error.code === 'EACCES')
    return new UsageError(
      `--port ${port ?? 0}: not allowed to listen on port ${port ?? 0} (ports below 1024 need privileges)`,
      hint,
    );
  return undefined;
}

/** `mon sandbox`: the v2.5 API on loopback with demo data (docs/design/cli-contract.md, The sandbox). */
export const sandbox: ResourceSpec = {
  name: 'sandbox',
  summary: 'Serve the v2.5 API with demo data, no account needed',
  examples: [
    'mon sandbox',
    'mon sandbox --port 8025',
    'mon sandbox serve --live',
    'mon sandbox trigger test',
    'mon sandbox reset',
  ],
  verbs: [
    verb({
      name: 'serve',
      jsonOutput: false,
      isDefault: true,
      untilStopped: true,
      summary: 'Run the sandbox in the foreground until Ctrl-C; prints its base URL and key',
      options: [
        {
          flags: '--port <port>',
          description: 'port to listen on (default: any free port)',
          rule: { type: 'int', min: 0, max: 65535 },
        },
        {
          flags: '--host <host>',
          description: 'loopback address to listen on',
          choices: ['127.0.0.1', 'localhost', '::1'],
          defaultText: '127.0.0.1',
        },
        ...DATA_OPTIONS,
        {
          flags: '--rate-limit <n/s>',
          description: 'requests each key may send per S seconds (default 400/60, as the API)',
          rule: { type: 'rate' },
        },
        {
          flags: '--tls',
          description:
            'serve HTTPS, with a certificate of a local CA made once in the config folder (mon trusts it; the banner says how others can)',
        },
        {
          flags: '--live',
          description:
            'a living fleet: simulated time passes, computers report, go missing and come back, checks change state, new computers enrol (kept in memory)',
        },
        {
          flags: '--speed <n>',
          description: 'with --live: simulated seconds per real second (60: an hour a minute)',
          rule: { type: 'int', min: 1, max: 86400 },
          defaultText: '60',
        },
        {
          flags: '--webhook <url>',
          description: "POST each plugin result's change of state to this address as JSON (repeatable)",
          rule: { type: 'url', max: 2048 },
          repeatable: true,
        },
      ],
      examples: [
        'mon sandbox',
        'mon sandbox --port 8025 --computers 10000',
        'mon sandbox --account north --port 0',
        'mon sandbox --rate-limit 4000/60',
        'mon sandbox serve --live --speed 3600 --webhook http://127.0.0.1:9000/hook',
        'mon sandbox serve --tls',
      ],
      async run({ opts }, ctx) {
        if (opts.speed !== undefined && opts.live !== true)
          throw new UsageError(
            '--speed: sets how fast a living fleet moves, so it goes with --live',
            'add --live, or leave out --speed',
          );
        const identity = { account: opts.account, computers: opts.computers, seed: opts.seed };
        const where = `${opts.host ?? '127.0.0.1'}:${opts.port ?? 'any free port'}`;
        if (
          ctx.dryRun.changesNothing(
            `serve the sandbox's API on ${where} with the data of ${sandboxStateFile(ctx.configDir, identity)}`,
          )
        )
          return;
        const { serveForeground } = await import('../sandbox/index.js');
        await serveForeground({
          stateFile: sandboxStateFile(ctx.configDir, identity),
          identity,
          port: opts.port,
          host: opts.host,
          rateLimit: opts.rateLimit,
          live: opts.live === true ? { speed: opts.speed ?? 60 } : undefined,
          tls: opts.tls === true ? { configDir: ctx.configDir } : undefined,
          webhooks: opts.webhook,
          io: ctx.io as never,
          signal: ctx.signal,
        }).catch((error: NodeJS.ErrnoException) => {
          throw (
            listenError(error, opts.port, opts.host ?? '127.0.0.1') ?? sandboxStateError(error, ctx.configDir) ?? error
          );
        });
      },
    }),
    verb({
      name: 'trigger',
      jsonOutput: false,
      summary: 'Make a running sandbox send a test delivery, move its clock or force a change',
      description:
        "Acts on the sandbox that MON_BASE_URL names, else on the one serving this config folder's data (the options name which data). EVENT is one of: test (a synthetic webhook delivery, event_id svc_test_…), connection_test (does each webhook address answer?), tick DURATION (a living fleet's clock jumps ahead: 90m, 6h, 3d), missing [CLIENT-ID] (a computer stops reporting and reads missing), alert, warning or ok [PLUGIN-RESULT-UID or CLIENT-ID] (a plugin result changes state, with its webhook event).",
      args: [
        {
          name: 'event',
          description: 'test, connection_test, tick, missing, alert, warning or ok',
          rule: {
            type: 'name',
            pattern: TRIGGER_EVENTS,
            says: 'one of test, connection_test, tick, missing, alert, warning, ok',
          },
        },
        {
          name: 'target',
          description:
            "tick: how far (90m, 6h, 3d); missing: a computer's client id; alert, warning, ok: a plugin result's pr_ uid or a client id",
          optional: true,
          rule: { type: 'text', max: 191, nonEmpty: true },
        },
      ],
      options: [...DATA_OPTIONS],
      examples: [
        'mon sandbox trigger test',
        'mon sandbox trigger tick 1d',
        'mon sandbox trigger missing',
        'mon sandbox trigger alert pr_4k2j8s0d1x9q7c',
      ],
      async run({ args, opts }, ctx) {
        const event = args.event ?? '';
        const params: Record<string, string> = {};
        if (event === 'tick') {
          const seconds = args.target === undefined ? undefined : parseDuration(args.target);
          if (seconds === undefined || seconds < 1 || seconds > 366 * 86_400)
            throw new UsageError(
              `tick: give how far the clock jumps, a duration from 1s to 366d (90m, 6h, 3d)${args.target === undefined ? '' : `, not '${args.target}'`}`,
              'mon sandbox trigger tick 1d',
            );
          params.seconds = String(seconds);
        } else {
          if (args.target !== undefined && (event === 'test' || event === 'connection_test'))
            throw new UsageError(
              `${event}: takes no target (it goes to every --webhook address)`,
              `mon sandbox trigger ${event}`,
            );
          params.kind = event;
          if (args.target !== undefined) params.target = args.target;
        }
        const { callControl, servingSandbox, SANDBOX_API_KEY } = await import('../sandbox/index.js');
        const identity = { account: opts.account, computers: opts.computers, seed: opts.seed };
        const named = ctx.env.MON_BASE_URL;
        const found =
          named !== undefined && named !== ''
            ? {
                url: named.replace(/\/+$/, ''),
                apiKey:
                  ctx.env.MON_API_KEY ?? (opts.account !== undefined ? demoAccountKey(opts.account) : SANDBOX_API_KEY),
              }
            : servingSandbox(sandboxStateFile(ctx.configDir, identity));
        if (found === undefined)
          throw new UsageError(
            "no sandbox serves this config folder's data",
            'start one with `mon sandbox serve` (in another terminal), or set MON_BASE_URL to the one to use',
          );
        if (
          ctx.dryRun.changesNothing(
            `POST ${found.url}/_sandbox/${event === 'tick' ? 'tick' : 'trigger'} ${new URLSearchParams(params).toString()}`,
          )
        )
          return;
        let reply: { status: number; body: unknown };
        try {
          reply = await callControl(
            found.url,
            found.apiKey,
            event === 'tick' ? 'tick' : 'trigger',
            params,
            sandboxCaCert(ctx.configDir),
          );
        } catch (error) {
          throw new NetworkError(
            `cannot reach the sandbox at ${found.url}: ${(error as Error).message}`,
            'is it still running? `mon sandbox serve` starts one',
          );
        }
        const body = reply.body as TriggerReply | null;
        if (reply.status !== 200) {
          const details = Array.isArray(body) ? String(body[0]?.details ?? '') : `HTTP ${reply.status}`;
          if (reply.status === 401)
            throw new AuthError(
              `the sandbox at ${found.url} refused the key: ${details}`,
              'MON_API_KEY must be the key its banner shows',
            );
          if (reply.status === 404)
            throw new NotFoundError(details, 'leave out the target to let the sandbox choose one');
          throw new UsageError(
            details,
            reply.status === 409 ? 'start it with `mon sandbox serve --live`' : 'see `mon sandbox trigger --help`',
          );
        }
        ctx.io.stdout.write(triggerReport(event, body ?? ({} as TriggerReply)));
      },
    }),
    verb({
      name: 'reset',
      jsonOutput: false,
      summary:
        'Restore the demo data: forget every change made in the sandbox (the default data, the data named, or --all)',
      options: [...DATA_OPTIONS, { flags: '--all', description: 'every sandbox state: each account, size and seed' }],
      examples: ['mon sandbox reset', 'mon sandbox reset --computers 10000', 'mon sandbox reset --all'],
      async run({ opts }, ctx) {
        const { resetSandbox, resetEverySandbox } = await import('../sandbox/index.js');
        if (opts.all) {
          if (opts.account !== undefined || opts.computers !== undefined || opts.seed !== undefined) {
            throw new UsageError(
              '--all resets every sandbox state: give it alone, or name one with --account, --computers and --seed',
            );
          }
          if (ctx.dryRun.changesNothing('remove every sandbox state')) return;
          const count = await resetEverySandbox(ctx.configDir);
          ctx.notice(
            count > 0
              ? `Sandbox reset: ${count} state${count === 1 ? '' : 's'} removed; the demo data is restored (a sandbox serving it starts over at its next request).`
              : 'Sandbox already fresh: nothing to reset.',
          );
          return;
        }
        if (ctx.dryRun.changesNothing("forget every change made in the sandbox's data")) return;
        const existed = await resetSandbox(
          sandboxStateFile(ctx.configDir, { account: opts.account, computers: opts.computers, seed: opts.seed }),
        );
        ctx.notice(
          existed
            ? 'Sandbox reset: the demo data is restored (a sandbox serving it starts over at its next request).'
            : 'Sandbox already fresh: nothing to reset.',
        );
      },
    }),
  ],
};
