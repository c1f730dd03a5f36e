import { EXIT_CODES, NAGIOS_STATES } from '../errors.js';
import { METRIC_FAMILIES } from '../output/metric-families.js';
import { FORMAT_DESCRIPTIONS, OUTPUT_FORMATS } from '../output/types.js';

/**
 * The help topics: `mon help <topic>` prints one, `npm run generate` writes each as
 * docs/help/<topic>.md and all of them into the man page (src/completion/docs.ts, man.ts). Each
 * table lives here or beside the code that acts on it (the exit codes in errors.ts, the formats
 * in output/types.ts), once. Text is plain, with `code` in backticks.
 */
export type TopicBlock =
  | { kind: 'text'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'table'; head: readonly string[]; rows: readonly (readonly string[])[] }
  /** Shell lines, shown as `$ …` in help. */
  | { kind: 'examples'; lines: readonly string[] };

export interface Topic {
  name: string;
  /** The heading: help's first line, the docs page's title, the man page's section. */
  title: string;
  summary: string;
  blocks: readonly TopicBlock[];
}

/**
 * Every environment variable mon reads (test/unit/topics.test.ts checks the MON_ ones against
 * the source). A flag beats its variable, which beats the profile.
 */
export const ENVIRONMENT: readonly { name: string; meaning: string }[] = [
  {
    name: 'MON_BASE_URL',
    meaning:
      "the account's base URL, https://<subdomain>.<service-domain> (like --base-url); with MON_API_KEY, no profile is needed",
  },
  {
    name: 'MON_API_KEY',
    meaning: "the API key, instead of the profile's (there is no flag: a key does not belong in shell history or ps)",
  },
  { name: 'MON_PROFILE', meaning: 'saved profile to use (like -p)' },
  {
    name: 'MON_PROFILES',
    meaning:
      'comma-separated profiles a read spans (like --profiles); MON_API_KEY, MON_BASE_URL and MON_PROFILE do not apply to them',
  },
  {
    name: 'MON_CONFIG_DIR',
    meaning:
      "where profiles, the sandbox's state, the rate ledger, the states of --changes and the daily history live (default: the platform's config folder, e.g. ~/.config/mon-nodejs; found from the home folder the system gives the user when HOME is empty, never from the current folder); a relative MON_CONFIG_DIR is taken from the current folder, and one that starts with ~ (which no shell expanded) is refused",
  },
  {
    name: 'MON_HISTORY',
    meaning:
      "MON_HISTORY=0 records no daily snapshot: by default every read of a whole account (`mon status`, `mon report`, `mon alerts`, each refresh of `mon metrics serve`) keeps that day's counts in the config folder for the trends of `mon report` (`mon history`)",
  },
  {
    name: 'MON_TIMEOUT',
    meaning: 'seconds per request: connect, headers and body together (default 30; like --timeout)',
  },
  { name: 'MON_RETRIES', meaning: 'retries after the first attempt, 0..10 (default 5; like --retries)' },
  {
    name: 'MON_DEADLINE',
    meaning:
      'seconds the whole command may take, waits and retries included (default 3600); when it passes, mon stops and exits 8, also when it is held by a reader that stopped reading its output (an answer that has not reached its reader is no success). It also bounds a --jq filter, and, only when it is set, reading --from, --body-file and --api-key-stdin (counted from the start of the read; unset, mon waits, since a person may be typing), and the wait for another run with the same --changes NAME (exit 1)',
  },
  {
    name: 'MON_MAX_RESPONSE',
    meaning: 'the most one response may be: bytes, or with K, M or G, from 1K to 500M (default 32M)',
  },
  {
    name: 'MON_RATE_LIMIT',
    meaning:
      "<requests>/<seconds>, the client's own budget, shared by every mon process of the user and key (default 400/60, the API's limit); lower it when other tools use the same key, e.g. 200/60; raised past 400 a minute for the service itself (not a sandbox on loopback), mon warns that 429 answers will follow. A wait of more than a second shows on a terminal (--verbose says it once in a pipe)",
  },
  {
    name: 'MON_EVENTS_SECRET',
    meaning:
      "`events listen`: the secret a sender must present, as the webhook URL's last segment (…/events/SECRET) or as `Authorization: Bearer SECRET`; at least 16 characters; needed to listen off loopback. Compared in constant time, never printed",
  },
  {
    name: 'MON_COMPLETION_TTL',
    meaning:
      'seconds the names Tab offers (groups, computers, plugins, note and expiration uids) are kept before a Tab refreshes them in the background (default 300); a Tab never waits for the API, it offers the names it has',
  },
  {
    name: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY',
    meaning:
      'proxies, as every Node tool reads them (also in lower case): http://[user:password@]host:port, https://… or socks5://…; anything else is exit 2',
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    meaning:
      'PEM file of a private CA or a TLS-inspecting proxy; certificates are always verified (NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored, and mon says so)',
  },
  {
    name: 'NO_COLOR, FORCE_COLOR, TERM',
    meaning:
      'colour (by default only ever on a terminal, and not when TERM is dumb; FORCE_COLOR turns it on anyway); with TERM=dumb a progress line is rewritten over spaces, never with an escape',
  },
  {
    name: 'NODE_COMPILE_CACHE',
    meaning:
      "folder of mon's start-up code cache (default: mon-code-cache-<uid> in the temporary folder, 0700); Node 22 and later keep their own compile cache there too",
  },
  { name: 'NODE_DISABLE_COMPILE_CACHE', meaning: '1: no start-up code cache; every run compiles the bundle' },
  {
    name: 'TMPDIR',
    meaning:
      'the temporary folder (default /tmp): a sorted --all read of more than 1,000 computers keeps their text there in a file only its owner can read, removed from the folder as soon as it is open, so memory stays flat; where no file can be made the read holds them in memory (--verbose says so)',
  },
];

const environment: Topic = {
  name: 'environment',
  title: 'Environment variables',
  summary: 'The environment variables mon reads',
  blocks: [
    {
      kind: 'table',
      head: ['Variable', 'Meaning'],
      rows: ENVIRONMENT.map((variable) => [variable.name, variable.meaning]),
    },
    {
      kind: 'text',
      text: 'A flag beats the environment, which beats the profile. A bad value in any of them is exit 2 before anything is sent.',
    },
    {
      kind: 'examples',
      lines: [
        'MON_PROFILE=acme ./nightly.sh',
        'MON_BASE_URL=http://127.0.0.1:8025 MON_API_KEY=sbx_live_demo_4f6c2a9e1b7d mon computers list',
      ],
    },
  ],
};

const exitCodes: Topic = {
  name: 'exit-codes',
  title: 'Exit codes',
  summary: 'What each exit code means; which are worth a retry',
  blocks: [
    {
      kind: 'table',
      head: ['Code', 'Meaning', 'Retry later?'],
      rows: EXIT_CODES.map((row) => [row.code, row.meaning, row.retry]),
    },
    {
      kind: 'text',
      text: `\`mon status --check\` is the one exception: it exits as a Nagios plugin does (${NAGIOS_STATES.map((state, code) => `${code} ${state}`).join(', ')}, for any error), because monitors read it.`,
    },
    {
      kind: 'text',
      text: '`plugin mute|unmute` with selectors sends one PUT per result: when some fail, the others are still done, every failed uid is listed, and the exit code is that of the failures (the code most of them share; of codes equally common, the first met). Once 8 PUTs in a row reach no answer (unreachable, timed out: the service is down), no more are sent and the rest are counted as not sent, rather than each waiting out its retries.',
    },
  ],
};

const formats: Topic = {
  name: 'formats',
  title: 'Output formats',
  summary: 'Output formats (-o), --fields, --no-header and --jq',
  blocks: [
    {
      kind: 'text',
      text: 'stdout carries data only; notices, progress, prompts and errors go to stderr. `-o FORMAT` picks one of:',
    },
    {
      kind: 'table',
      head: ['Format', 'What it prints'],
      rows: OUTPUT_FORMATS.map((format) => [format, FORMAT_DESCRIPTIONS[format]]),
    },
    {
      kind: 'text',
      text: "A list read without --all or --limit that stops before the last record says so on stderr, after the data (`showing 50 of 312 - add --all for every page`). Control characters in the server's text are shown escaped in table, csv and tsv, but for line breaks and tabs: csv keeps them inside a quoted field (RFC 4180, as spreadsheets read a cell of several lines), tsv turns them into spaces (a record stays one line); json and ndjson carry them in JSON's own escapes. Values from a fixed list (formats, statuses, platforms) are taken in any case: `-o JSON`, `--status Missing`. `--count` prints only the number of items on every list.",
    },
    { kind: 'heading', text: '--fields' },
    {
      kind: 'text',
      text: "`--fields a,b,c` picks the columns of table, csv and tsv and the keys of json and ndjson. The keys are those of the API's objects plus the computed columns of the table, which are fields in every format. An unknown key is exit 2 with the nearest one. A `group` column is the group's name in table, csv and tsv in every command (`--fields group_uid` gives its uid); json keeps `group` as the API sends it. `--no-header` leaves out the header row of table, csv and tsv.",
    },
    {
      kind: 'table',
      head: ['Resource', 'Computed fields'],
      rows: [
        ['computers', 'name (custom name, else computer name), flags (missing, issue, hidden, removal, rekey)'],
        ['notes', 'owner (the computer or group), excerpt (the first line of the body)'],
        ['expirations', 'owner (the computer, else the group)'],
        ['plugin results', 'mute (until when, ticket, forever)'],
      ],
    },
    { kind: 'heading', text: '--jq' },
    {
      kind: 'text',
      text: "`--jq EXPR` runs jq (1.8, built in: no jq needed on the machine) over what the command prints as JSON, and prints the results one per line, strings raw, other values as compact JSON. It implies -o json: the filter runs once over the whole output (with --all, the array of every page, which jq reads as the pages come and holds whole), and prints nothing unless the command succeeds. With -o ndjson it runs once per item, a page at a time. Results are printed as jq yields them (`--jq 'range(infinite)' | head` prints at once). The filter is compiled before any request: a syntax error is exit 2; an error while it runs is exit 1 and stops it there (what it printed before stays, no further page is fetched); a filter that runs out of jq's memory (256 MB) is exit 1. jq runs in a thread of its own: Ctrl-C (130), SIGTERM (143) and MON_DEADLINE (exit 8) end any filter, even one that never ends. jq's $ENV is its own, not yours.",
    },
    {
      kind: 'examples',
      lines: [
        'mon computers list --all -o csv --fields client_id,name,last_report > computers.csv',
        'mon computers list --status missing --all -o tsv --no-header --fields client_id',
        "mon computers list --all --jq 'map(select(.missing)) | length'",
        'mon computers list --all -o ndjson --jq \'select(.platform == "mac") | .uid\'',
      ],
    },
  ],
};

const sandbox: Topic = {
  name: 'sandbox',
  title: 'The sandbox',
  summary: 'Try everything without an account',
  blocks: [
    {
      kind: 'text',
      text: 'The sandbox serves the whole v2.5 API on loopback from seeded demo data: groups, computers of three platforms (some missing), plugin results in every status, expirations, notes and users. `--sandbox` on any command starts one inside that command on a free port. Its data is kept in the config folder, so a change made by one command is seen by the next, until `mon sandbox reset`.',
    },
    {
      kind: 'text',
      text: 'Each set of demo data has its own state file in the config folder: sandbox.json for the default data (seed 1, 40 computers), sandbox-10000c.json for --computers 10000, sandbox-s7.json for --seed 7, sandbox-<NAME>.json for --account NAME. A sandbox started with other data never replaces what another sandbox (or mon --sandbox) is serving. `mon sandbox reset` forgets the default data; --computers, --seed and --account name another set; --all forgets every one.',
    },
    {
      kind: 'examples',
      lines: [
        'mon --sandbox computers list --status missing',
        'mon --sandbox alerts',
        'mon --sandbox status',
        'mon sandbox reset',
      ],
    },
    {
      kind: 'text',
      text: '`mon sandbox --port 8025` serves it in the foreground for other tools and scripts, and prints its base URL and the two `export` lines (MON_BASE_URL, MON_API_KEY) that point mon at it; Ctrl-C stops it. `--computers N` seeds a larger account (10000 for benchmarks). `--account NAME` serves a demo account of its own: its own data (its own seed unless --seed is given), its own key (in its export lines) and its own state; two of them, each saved as a profile, give --all-profiles two different accounts. `--rate-limit N/S` lets each key send N requests per S seconds (default 400/60, as the API). `mon sandbox --help` lists its options.',
    },
    {
      kind: 'text',
      text: "`mon sandbox serve --live` serves a fleet that lives, in memory: simulated time passes --speed times as fast (default 60, an hour a minute); computers report hourly, some go missing and come back, checks move between OK, Warning and Alert, timed mutes end, new computers enrol. The same --seed from the same start gives the same fleet. `--webhook URL` POSTs each plugin result's change of state as JSON. `mon sandbox trigger` acts on the running sandbox: test and connection_test deliveries, `tick 3d` (the clock jumps ahead), `missing`, `alert`, `warning`, `ok`.",
    },
    {
      kind: 'text',
      text: 'The sandbox account is named `@sandbox` where mon names accounts (`mon changes list`, the states of --changes).',
    },
  ],
};

const fleet: Topic = {
  name: 'fleet',
  title: 'Fleet commands',
  summary: 'alerts, status, metrics, bulk mutes, --changes',
  blocks: [
    {
      kind: 'table',
      head: ['Command', 'What it does'],
      rows: [
        [
          'mon alerts',
          'one row per plugin result that needs attention across the account (Alert or Warning, not muted, visible); filters --group, --computer, --plugin, --status, --platform (each repeatable, meaning either), --missing, --since, and the computer filters of computers list (--serial-number, --asset-id, --created-after, --reference-email…); --count prints the number only',
        ],
        [
          'mon status',
          'counts at a glance: computers, plugin results, the top plugins and groups, expirations; -o json prints one object, -o openmetrics the figures for Prometheus',
        ],
        [
          'mon status --check',
          'one line in the Nagios plugin format, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN; thresholds as Nagios ranges (--warning-alerts, --critical-missing, ...)',
        ],
        [
          'mon plugin mute|unmute <selectors>',
          'every plugin result the selectors of alerts (or --from FILE) pick: a plan (a table on a terminal), confirm or --yes, --dry-run (the plan on stdout, no write), --max N (default 1000); Ctrl-C lets the PUTs on their way finish and counts them; a rerun does only what is left. A mute leaves every mute in force as it is; an unmute lifts every mute it picks, saying first how many are not timed (--timed-only: timed mutes only); unmute --from the rows a mute printed (-o ndjson) takes back exactly that mute',
        ],
        [
          '--changes NAME',
          'on every list and on alerts: only what is new, gone or changed since the last good run with NAME; the first run records a baseline',
        ],
        [
          '--profiles a,b / --all-profiles',
          "the same read across saved profiles, side by side (--parallel N, default 4): a PROFILE column or a profile key; one failed account is exit 9, the others' data printed whole",
        ],
      ],
    },
    {
      kind: 'examples',
      lines: [
        'mon alerts --group "Acme Design"',
        'mon plugin mute --group "Acme Design" --timed 2h --yes -o ndjson > window.ndjson',
        'mon plugin unmute --from window.ndjson --yes',
        'mon computers list --status missing --changes missing -q',
        'mon status --check --critical-alerts 5',
        'mon --all-profiles status',
      ],
    },
    { kind: 'text', text: 'Writes refuse --profiles and --all-profiles: run them once per account with -p NAME.' },
    { kind: 'heading', text: 'report' },
    {
      kind: 'text',
      text: "`mon report` writes the account as one self-contained HTML file (no script, nothing fetched; a --logo is embedded): the counts of status, charts, the computers needing attention, expirations due in 90 days and the inventory. --title, --logo and --footer put it under a provider's name; across accounts --output-dir DIR writes DIR/<profile>.html for each.",
    },
    { kind: 'heading', text: 'status -o openmetrics' },
    {
      kind: 'text',
      text: '`mon status -o openmetrics` prints the figures of status in the OpenMetrics text format, for the Prometheus node_exporter textfile collector or any scraper. It sends what status sends, no more. The families, all gauges, are the contract:',
    },
    {
      kind: 'table',
      head: ['Family', 'What it counts'],
      rows: METRIC_FAMILIES.map((family) => [`${family.name}{${family.labels.join(',')}}`, family.help]),
    },
    {
      kind: 'text',
      text: "`account` is the profile's name (or the base URL's host; sandbox for --sandbox); `group_uid` tells apart two groups of one name and keeps a renamed group's series. An account that fails, alone or among others, has mon_up 0 and no other sample but mon_last_success_timestamp_seconds when mon's history holds an earlier whole read of it (when that read began), and the exit code still says why (9 across accounts when some answered). `--output-file PATH` writes the file a textfile collector reads: a temporary beside it, renamed over it whatever the exit code, so a down account is installed as mon_up 0 and no temporary is left. Every other command refuses -o openmetrics (exit 2), and so does status with --jq or --fields (exit 2) or --check (3 UNKNOWN, as every error of --check).",
    },
    {
      kind: 'examples',
      lines: ['mon --all-profiles status -o openmetrics --output-file /var/lib/node_exporter/textfile/mon.prom'],
    },
    {
      kind: 'text',
      text: '`mon metrics serve` is an exporter with the same families: it reads each account every --refresh (5m), staggered, and answers /metrics and /probe?profile=NAME from what it read, never calling the API on a scrape; a failed read keeps the last figures with mon_up 0. Loopback unless --listen says otherwise, and then only with --auth-token-file and TLS or --insecure.',
    },
  ],
};

const events: Topic = {
  name: 'events',
  title: "The service's webhooks: mon events listen",
  summary: "The service's webhooks: receive, show, hand on",
  blocks: [
    {
      kind: 'text',
      text: '`mon events listen` is the receiver to give the service as its webhook address. Once listening it prints the URL on stderr (`Listening on http://127.0.0.1:8787/events`); --listen HOST:PORT and --path change it. Each event is one line on stdout: on a terminal the time, account, computer, group, plugin and transition (`OK → Alert`, the new severity in colour); in a pipe, with -o json|ndjson or with --jq (run on each event as it comes), the event as the service sent it, with what mon understood of it added under `_mon`.',
    },
    {
      kind: 'table',
      head: ['_mon key', 'What it holds'],
      rows: [
        [
          'kind',
          '`plugin` (severity, previous_severity or the status integers are present), `test` (a top-level svc_test, or an event_id starting svc_test_), `connection_test`, or `unknown`: any other payload, shown as sent (a body that is not a JSON object under `_mon.body`), never refused',
        ],
        ['id', 'what makes a retry known: the event_id, or `sha256:` of the body when there is none'],
        ['received_at', 'when mon received it (UTC)'],
        [
          'severity, previous_severity, transition',
          'the words as sent, in lower case; `OK → Alert` (or `0 → 2` from previous_status and new_status)',
        ],
        [
          'computer, group, plugin, account',
          'names read where the payload carries them (computer, group, plugin_result objects or strings; a computer by custom_name, else computer_name); account is the --profile given',
        ],
        [
          'client_id, group_uid',
          "the computer's client id and the group's uid, when the event carries them besides the names: --computer and --group match either",
        ],
        ['mute_type, is_hidden', 'as sent'],
      ],
    },
    {
      kind: 'text',
      text: "Nothing lost, nothing twice. A delivery is answered 2xx only once it is handled: accepted by --forward-to (its body and content type posted on), run by --exec (the event on the command's stdin, MON_EVENT_ID and MON_EVENT_KIND in its environment; at most --exec-parallel at once, each for at most --exec-timeout; a failure is logged and counted, never fatal), appended to --output-file as ndjson and synced to disk, and printed. Otherwise it is answered 503 and the service sends it again. A delivery already handled is answered 2xx and not shown again: the last 10,000 ids are remembered, and with --output-file read back from the file on start (a last line cut short by a crash is dropped: it was never acknowledged).",
    },
    {
      kind: 'text',
      text: 'Filters: --severity, --group, --computer and --plugin (repeatable or comma-separated, any of them, any case) pick the events shown and handed on; the others are answered and counted. Test deliveries and connection_test are answered and noted on stderr; --include-tests shows and hands them on. --max-events N and --for DURATION end it (exit 0); Ctrl-C or SIGTERM stop taking deliveries, finish those in flight and exit 130/143. It ends with a line on stderr saying what it received.',
    },
    {
      kind: 'text',
      text: "Safety. It listens on loopback by default. Another address needs a secret in MON_EVENTS_SECRET, which the sender presents as the URL's last segment or as `Authorization: Bearer`, and --tls-cert/--tls-key (PEM) or --insecure for plain HTTP. A wrong path or secret gets 404, another method 405, a body over 1 MiB 413, a sender too slow with its headers (10 s) or body (30 s) 408; none of them stops the listener, and the secret is never printed.",
    },
    {
      kind: 'text',
      text: 'To try it, the living sandbox sends these events: `mon sandbox serve --live --webhook http://127.0.0.1:8787/events` in another terminal, and `mon sandbox trigger alert` (or `test`, `connection_test`, `tick 1d`) makes one now. `mon help sandbox` and the sandbox guide say more.',
    },
    {
      kind: 'examples',
      lines: [
        'mon events listen',
        'mon events listen --severity alert --output-file events.ndjson --exec ./to-chat.sh',
        'mon events listen --forward-to http://127.0.0.1:3000/webhook',
        "mon events listen --max-events 1 --jq '._mon.transition'",
        'MON_EVENTS_SECRET=$(cat secret) mon events listen --listen 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem',
      ],
    },
  ],
};

/** The topics, in the order `mon help` lists them; the global options are a topic of their own (options). */
export const TOPICS: readonly Topic[] = [environment, exitCodes, formats, fleet, events, sandbox];

/** `mon help options`: the global options, read from the program itself (src/help.ts). */
export const OPTIONS_TOPIC = {
  name: 'options',
  title: 'Global options',
  summary: 'The global options, before or after any command',
} as const;

/** Every topic name `mon help` takes, for completions and the root help. */
export const TOPIC_NAMES: readonly string[] = [OPTIONS_TOPIC.name, ...TOPICS.map((topic) => topic.name)];
