import { UsageError } from '../errors.js';
import { knownSecrets } from '../api/secrets.js';
import { verb, type ResourceSpec } from '../spec/spec.js';
import { colourWanted } from './view.js';

/** The secret a sender off loopback presents: from the environment, never a flag (shell history, ps). */
export const EVENTS_SECRET_ENV = 'MON_EVENTS_SECRET';
/** A secret shorter than this is refused: it is guessed, not kept. */
export const MIN_EVENTS_SECRET = 16;

const SELECTORS = [
  {
    flags: '--severity <word>',
    description: 'only events of this severity (alert, warning, ok…; repeat or comma-separate for any of them)',
    repeatable: true,
  },
  {
    flags: '--group <name>',
    description: 'only events of this group (name or uid as the event carries it; repeatable)',
    repeatable: true,
  },
  {
    flags: '--computer <name>',
    description: 'only events of this computer (name or client id as the event carries it; repeatable)',
    repeatable: true,
  },
  { flags: '--plugin <name>', description: 'only events of this plugin (repeatable)', repeatable: true },
  {
    flags: '--include-tests',
    description:
      'show and hand on test deliveries (svc_test, connection_test) too; without it they are answered and noted on stderr',
  },
] as const;

/** `mon events`: the service's outgoing webhooks (api-v2.5, Events), received. */
export const events: ResourceSpec = {
  name: 'events',
  summary: "Receive the service's webhooks: show, hand on",
  examples: [
    'mon events listen',
    'mon events listen --output-file events.ndjson',
    "mon events listen --severity alert --exec './notify.sh'",
  ],
  verbs: [
    verb({
      name: 'listen',
      untilStopped: true,
      writesOutputFile: true,
      jsonLines: true,
      reads: false,
      summary: "Receive the service's webhooks until stopped",
      description: [
        "Listens for the deliveries of the service's outgoing webhooks and prints one line per event: on a terminal the time, account, computer, group, plugin and transition; in a pipe, with -o json|ndjson or --jq, the event as sent with what mon understood under `_mon`. The URL to give the service is printed on stderr once listening.",
        'A delivery is answered 2xx only once it is handled (accepted by --forward-to, run by --exec, appended to --output-file as ndjson and synced to disk, printed), otherwise 503 so the service sends it again; a delivery seen before (its event_id, or its body when it has none) is answered 2xx and not shown again, also after a restart with the same --output-file.',
        `Listens on loopback unless told: another address needs a secret in ${EVENTS_SECRET_ENV} (at least ${MIN_EVENTS_SECRET} characters; the sender puts it as the URL's last segment, or sends Authorization: Bearer) and --tls-cert/--tls-key or --insecure. Bodies over 1 MiB get 413, other methods 405, slow senders 408. Ctrl-C or SIGTERM stops taking deliveries, finishes those in flight and exits 130/143. \`mon help events\` says more.`,
      ].join('\n\n'),
      options: [
        { flags: '--listen <host:port>', description: 'address to listen on', defaultText: '127.0.0.1:8787' },
        {
          flags: '--path <path>',
          description: 'path deliveries are posted to',
          defaultText: '/events',
          rule: { type: 'text', max: 200, nonEmpty: true },
        },
        { flags: '--tls-cert <file>', description: 'serve HTTPS with this PEM certificate (chain), with --tls-key' },
        { flags: '--tls-key <file>', description: 'the PEM key of --tls-cert' },
        { flags: '--insecure', description: 'serve plain HTTP on an address other than loopback' },
        ...SELECTORS,
        {
          flags: '--forward-to <url>',
          description:
            'post each delivery on to this URL (body and content type as received); a delivery it does not accept with 2xx is answered 503',
          rule: { type: 'url' },
        },
        {
          flags: '--exec <command>',
          description:
            'run this shell command for each event, the event (JSON) on its stdin; a failure is logged and counted',
        },
        {
          flags: '--exec-parallel <n>',
          description: 'how many --exec commands run at once, 1..32',
          defaultText: '4',
          rule: { type: 'int', min: 1, max: 32 },
        },
        {
          flags: '--exec-timeout <duration>',
          description: 'how long one --exec command may run (then it is stopped and counted as failed)',
          defaultText: '30s',
          rule: { type: 'duration' },
        },
        { flags: '--max-events <n>', description: 'stop after this many events', rule: { type: 'int', min: 1 } },
        { flags: '--for <duration>', description: 'stop after this long (30s, 10m, 2h)', rule: { type: 'duration' } },
      ],
      constraints: { together: [['tlsCert', 'tlsKey']] },
      examples: [
        'mon events listen',
        'mon events listen --listen 127.0.0.1:9000 --path /hooks/monitoring',
        'mon events listen --severity alert,warning --group Servers -o ndjson',
        'mon events listen --output-file events.ndjson --exec ./to-chat.sh',
        'mon events listen --forward-to http://127.0.0.1:3000/webhook',
        'MON_EVENTS_SECRET=$(cat secret) mon events listen --listen 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem',
        "mon events listen --max-events 1 --jq '._mon.transition'",
      ],
      async run({ opts }, ctx) {
        const { listenForEvents } = await import('../events/run.js');
        const format = ctx.globals.output;
        if (format !== 'table' && format !== 'json' && format !== 'ndjson') {
          throw new UsageError(
            `-o ${format}: \`mon events listen\` prints a line per event, or JSON (-o json or ndjson)`,
          );
        }
        const secret = ctx.env.MON_EVENTS_SECRET;
        if (secret !== undefined && secret.length < MIN_EVENTS_SECRET) {
          throw new UsageError(
            `${EVENTS_SECRET_ENV}: at least ${MIN_EVENTS_SECRET} characters (it has ${secret.length})`,
            'e.g. MON_EVENTS_SECRET=$(openssl rand -hex 16)',
          );
        }
        if (secret !== undefined) knownSecrets.add(secret);
        const path = opts.path ?? '/events';
        if (!path.startsWith('/') || /[\s?#]/.test(path))
          throw new UsageError(`--path ${JSON.stringify(path)}: must start with / and hold no spaces, ? or #`);
        const listen = opts.listen ?? '127.0.0.1:8787';
        if (ctx.dryRun.changesNothing(`listen on ${listen}${path} for the service's webhooks`)) return;
        const human = format === 'table' && ctx.globals.jq === undefined && ctx.io.stdout.isTTY === true;
        return listenForEvents(ctx, {
          listen,
          path,
          secret,
          secretSource: EVENTS_SECRET_ENV,
          tlsCert: opts.tlsCert,
          tlsKey: opts.tlsKey,
          insecure: opts.insecure === true,
          filter: {
            severity: opts.severity,
            group: opts.group,
            computer: opts.computer,
            plugin: opts.plugin,
            includeTests: opts.includeTests === true,
          },
          forwardTo: opts.forwardTo,
          exec: opts.exec,
          execParallel: opts.execParallel ?? 4,
          execTimeoutMs: (opts.execTimeout ?? 30) * 1000,
          outputFile: ctx.globals.outputFile,
          maxEvents: opts.maxEvents,
          forMs: opts.for === undefined ? undefined : opts.for * 1000,
          human: human ? { color: colourWanted(ctx, true) } : undefined,
        });
      },
    }),
  ],
};
