/**
 * The fleet commands (docs/design/cli-contract.md, Fleet commands): across the account, beside the endpoint
 * commands. Declared here; the work is in src/fleet, loaded only when one of them runs.
 */
import type { AccountOutcome, Context } from '../context.js';
import { MonError, UsageError } from '../errors.js';
import { GROUP_COLUMN } from '../output/columns.js';
import type { ResultFilter, Scope, SelectedResult } from '../fleet/selection.js';
import type { StatusReport } from '../fleet/status.js';
import { drained } from '../output/drain.js';
import { statusRank } from '../model/plugin-result.js';
import { CHANGES_OPTIONS, verb, WHOLE_LIST_OPTIONS } from '../spec/spec.js';
import type { Range } from '../validate/range.js';
import { changeSpecOf, colourWanted, renderOptions, type View } from './actions.js';
import { changesWanted, type ChangesRequest } from '../changes/request.js';
import { PLUGIN_RESULT_FIELDS } from './fields.js';
import { MUTE_COMPARED, muteSummary } from './plugin.js';
import { GROUP_OPTION, openSelection, selectionOf, selectorOptions } from './selectors.js';

/** One row per plugin result: its computer and group by name (the JSON keeps them as objects). */
export const ALERTS_VIEW: View = {
  columns: [
    { key: 'computer', get: (row) => (row.computer as { name?: unknown } | null)?.name, maxWidth: 28 },
    { ...GROUP_COLUMN, maxWidth: 24 },
    { key: 'plugin', get: (row) => row.name, maxWidth: 28 },
    { key: 'status', kind: 'status' },
    { key: 'last_run', kind: 'time' },
    // First line only, cut on a terminal; a pipe keeps it whole on one line.
    {
      key: 'details',
      get: (row) => (typeof row.details === 'string' ? row.details.trim().split(/\r?\n|\r/)[0] : row.details),
      maxWidth: 48,
    },
    { key: 'mute', get: muteSummary },
  ],
  fields: [...PLUGIN_RESULT_FIELDS, 'computer', 'group', 'plugin', 'mute'],
  changes: { noun: 'plugin results', compare: ['status', MUTE_COMPARED] },
};

const byText = (a: unknown, b: unknown): number =>
  String(a ?? '').localeCompare(String(b ?? ''), 'en', { sensitivity: 'base' });

/** The table's order: Alert before Warning, then group, computer and plugin names. */
export function compareAlerts(a: SelectedResult, b: SelectedResult): number {
  return (
    statusRank(a.status) - statusRank(b.status) ||
    byText(a.group?.name, b.group?.name) ||
    byText(a.computer.name, b.computer.name) ||
    byText(a.name, b.name) ||
    byText(a.uid, b.uid)
  );
}

/**
 * `mon alerts`: the selection through the output module. Machine formats stream page by page
 * as the API sends computers; a table (which waits for every row anyway) is sorted.
 */
async function runAlerts(
  ctx: Context,
  scope: Scope,
  filter: ResultFilter,
  changes?: ChangesRequest,
  count = false,
): Promise<void> {
  const render = renderOptions(ctx, ALERTS_VIEW);
  const client = await ctx.client();
  const { plannedRequests } = await import('../fleet/selection.js');
  if (await ctx.dryRun.shows(plannedRequests(client, scope))) return;
  const selection = await openSelection(ctx, client, scope, filter);
  const nowSec = Math.floor(ctx.now() / 1000);
  // A read of the whole account records the day (it lists no expirations: the day keeps those an earlier read found).
  const history = (await import('../history/record.js')).historyRecorder(ctx, scope);
  const recorded = () => history?.record({ expirationsRead: false });
  if (changes) {
    const { listChanges } = await import('../changes/track.js');
    await listChanges(ctx, changes, changeSpecOf(ALERTS_VIEW), render, async (sink) => {
      for await (const page of selection.results(nowSec, history?.computer)) sink.push(page);
      // An unknown --computer or --plugin fails the run before anything is printed or saved.
      selection.checkNamed();
    });
    await recorded();
    return;
  }
  if (count) {
    let total = 0;
    for await (const page of selection.results(nowSec, history?.computer)) total += page.length;
    selection.checkNamed();
    await recorded();
    return ctx.output.count(total, render);
  }
  const renderer = await ctx.output.list(render);
  const table = render.format === 'table';
  const rows: SelectedResult[] = [];
  for await (const page of selection.results(nowSec, history?.computer)) {
    if (table) {
      rows.push(...page);
      continue;
    }
    renderer.push(page);
    await drained(ctx.io.stdout, ctx.signal);
  }
  if (table) {
    // An unknown name fails before the table is printed: no table that looks complete.
    selection.checkNamed();
    renderer.push(rows.sort(compareAlerts));
  }
  renderer.end();
  selection.checkNamed();
  await recorded();
  if (rows.length === 0 && table) ctx.notice('No plugin results match.');
}

/** -o json prints the report; --fields keeps its top-level keys. */
const STATUS_VIEW: View = {
  columns: [],
  fields: ['scope', 'computers', 'plugin_results', 'top_plugins', 'groups', 'expirations'],
};

/** What one account's `status` holds until every account has finished (--profiles). */
interface HeldStatus {
  report: StatusReport;
  readSeconds: number;
  /** When the read ended, in seconds since the epoch (mon_last_success_timestamp_seconds). */
  lastSuccess: number;
}

interface StatusOptions {
  scope: Scope;
  withinSec: number;
  check: boolean;
  /** Thresholds given on the command line, by option key (warningAlerts…). */
  thresholds: Partial<Record<string, Range>>;
}

/**
 * `mon status`: the report as text with bars, as one JSON object, or as one Nagios line; with
 * --check returns the Nagios exit code of its line. With -o openmetrics for one account, every
 * failure once the account is known still prints its metrics, mon_up 0 (a scraper reads that the
 * account is down), and the exit code says why.
 */
async function runStatus(ctx: Context, options: StatusOptions): Promise<number | void> {
  if (ctx.globals.output !== 'openmetrics' || ctx.dryRun.on) return readStatus(ctx, options);
  const { accountName } = await import('../target.js');
  const account = ctx.output.account ? undefined : await accountName(ctx);
  try {
    return await readStatus(ctx, options);
  } catch (error) {
    // How old the account's figures are: the last whole read that succeeded, as the history recorded it.
    const lastSuccess = await (await import('../history/record.js')).lastRecordedRead(ctx, options.scope);
    const failed = { ...(lastSuccess !== undefined && { lastSuccess }) } satisfies Partial<HeldStatus>;
    if (ctx.output.account) {
      ctx.output.account.hold(failed);
      throw error;
    }
    const { renderOpenMetrics } = await import('../output/openmetrics.js');
    ctx.io.stdout.write(renderOpenMetrics([{ account: account!, ...failed }]));
    ctx.answerWhole();
    throw error;
  }
}

async function readStatus(ctx: Context, options: StatusOptions): Promise<number | void> {
  const render = options.check ? undefined : renderOptions(ctx, STATUS_VIEW);
  const client = await ctx.client();
  const [{ collectStatus, plannedStatusRequests }, { readingComputers }] = await Promise.all([
    import('../fleet/status.js'),
    import('../fleet/selection.js'),
  ]);
  if (await ctx.dryRun.shows(plannedStatusRequests(client, options.scope))) return;
  const { createProgress } = await import('../output/progress.js');
  // Progress only where a person watches (a terminal), never under --check (a monitor reads it).
  const progress = createProgress(ctx.io.stderr, ctx.now, ctx.globals.quiet || options.check, ctx.rateWait);
  let report: StatusReport;
  const started = ctx.now();
  const history = (await import('../history/record.js')).historyRecorder(ctx, options.scope);
  try {
    report = await collectStatus(client, options.scope, ctx.now(), options.withinSec, {
      onPage: (read) => progress.update(readingComputers(read)),
      ...(history && { onComputer: history.computer, onExpiration: history.expiration }),
    });
  } finally {
    progress.done();
  }
  await history?.record();
  const readSeconds = (ctx.now() - started) / 1000;
  // One account of many: the reports are shown together once every account has finished.
  if (ctx.output.account) {
    ctx.output.account.hold({ report, readSeconds, lastSuccess: ctx.now() / 1000 } satisfies HeldStatus);
    return;
  }
  if (render?.format === 'openmetrics') {
    const { renderOpenMetrics } = await import('../output/openmetrics.js');
    const { accountName } = await import('../target.js');
    ctx.io.stdout.write(
      renderOpenMetrics([{ account: await accountName(ctx), report, readSeconds, lastSuccess: ctx.now() / 1000 }]),
    );
    return;
  }
  if (!render) {
    const { evaluate, thresholdsFrom } = await import('../fleet/check.js');
    const { code, line } = evaluate(report, thresholdsFrom(options.thresholds));
    ctx.io.stdout.write(`${line}\n`);
    return code;
  }
  if (render.format === 'table' && !render.fields) {
    const { renderStatus } = await import('../output/status.js');
    renderStatus(report, ctx.io.stdout, colourWanted(ctx, ctx.io.stdout.isTTY === true));
    return;
  }
  await ctx.output.object(report as unknown as Record<string, unknown>, render);
}

const [STATUS_SELECTOR, ...OTHER_SELECTORS] = selectorOptions('Alert and Warning');

const THRESHOLDS = [
  ['warningAlerts', '--warning-alerts <range>', 'WARNING when unmuted alerts are outside this range'],
  [
    'criticalAlerts',
    '--critical-alerts <range>',
    'CRITICAL when unmuted alerts are outside this range (default: 0, so any alert)',
  ],
  [
    'warningWarnings',
    '--warning-warnings <range>',
    'WARNING when unmuted warnings are outside this range (default: 0)',
  ],
  ['criticalWarnings', '--critical-warnings <range>', 'CRITICAL when unmuted warnings are outside this range'],
  ['warningMissing', '--warning-missing <range>', 'WARNING when missing computers are outside this range (default: 0)'],
  ['criticalMissing', '--critical-missing <range>', 'CRITICAL when missing computers are outside this range'],
] as const;

export const alerts = verb({
  name: 'alerts',
  summary: 'Plugin results that need attention, account-wide',
  description:
    'Default: status Alert or Warning, not muted, visible. One row per plugin result; the table is sorted Alert before Warning, then group, computer and plugin. JSON and ndjson give the plugin result as the API sent it plus `computer` {uid, client_id, name} and `group` {uid, name}, streamed as pages arrive. An unknown --group is exit 4 before anything is read; an unknown --computer or --plugin is exit 4 once the whole account has been read (the API lists plugins nowhere else). The computer filters of `computers list` (--platform, --serial-number, --asset-id, --created-after, --reference-email…) are sent with the read of the computers. --count prints the number of results that match. With --changes NAME: only results new, gone or changed (status, mute) since the last run with NAME.',
  fields: ALERTS_VIEW.fields,
  options: [
    STATUS_SELECTOR,
    { flags: '--muted', description: 'only muted results' },
    { flags: '--include-muted', description: 'muted and unmuted results alike' },
    ...OTHER_SELECTORS,
    ...WHOLE_LIST_OPTIONS,
    ...CHANGES_OPTIONS,
  ],
  constraints: {
    atMostOne: [
      ['muted', 'includeMuted'],
      ['count', 'changes'],
    ],
  },
  reads: true,
  examples: [
    'mon alerts',
    'mon alerts --group "Acme Design" --status Alert',
    'mon alerts --plugin "Disk Space" --include-muted -o csv > disk.csv',
    'mon alerts --ran-since 24h -o ndjson | jq -r .computer.name',
    'mon alerts --platform windows --status alert --count',
    'mon --profiles acme,northwind alerts -o csv > alerts.csv',
    'mon alerts --changes morning -q',
  ],
  async run({ opts }, ctx) {
    const { scope, filter } = selectionOf(
      opts,
      {
        statuses: ['Alert', 'Warning'],
        muted: opts.muted === true ? 'muted' : opts.includeMuted === true ? 'any' : 'unmuted',
      },
      (line) => ctx.notice(line),
    );
    await runAlerts(ctx, scope, filter, changesWanted(opts), opts.count === true);
  },
});

export const status = verb({
  name: 'status',
  openMetrics: true,
  summary: 'What needs attention now, or --check for Nagios',
  description:
    'Computers (total, missing, hidden, pending removal, by platform), plugin results (unmuted Alert and Warning, muted, hidden), the plugins with the most unmuted alerts, groups ranked by unmuted alerts and missing computers, and expirations (expired, expiring within --within). -o json prints one object with every count.\n\n-o openmetrics prints the figures in the OpenMetrics text format for Prometheus (the node_exporter textfile collector): mon_computers{account,group,platform}, mon_computers_missing{account,group}, mon_computers_hidden{account,group}, mon_plugin_results{account,group,status,muted}, mon_top_plugin_alerts{account,plugin} (the ten plugins with the most unmuted alerts), mon_expirations{account,window} (expired, 30d, 90d), mon_up{account}, mon_read_duration_seconds{account}, mon_last_success_timestamp_seconds{account} and mon_build_info{version}; groups are labelled group and group_uid. An account that fails has mon_up 0 and no other samples but mon_last_success_timestamp_seconds when the history mon keeps holds an earlier whole read of it (when that read began), and the exit code says why (9 across accounts). With --output-file PATH the file is replaced whole whatever the exit code (the file a textfile collector reads).\n\n--check prints one line in the Nagios plugin format and exits 0 OK, 1 WARNING, 2 CRITICAL or 3 UNKNOWN (any error). Across accounts (--profiles, --all-profiles): a block per account and their total (-o json: {accounts, total}); --check gives the worst state and names each account with its state. Thresholds are ranges of the Nagios plugin guidelines: N alerts outside 0..N, N: below N, ~:N above N, A:B outside A..B, @A:B inside A..B.',
  options: [
    GROUP_OPTION,
    {
      flags: '--within <duration>',
      description: 'how far ahead an expiration counts as expiring (30d, 2w)',
      rule: { type: 'duration' },
      defaultText: '30d',
    },
    { flags: '--check', description: 'print one Nagios plugin line and exit 0, 1, 2 or 3' },
    ...THRESHOLDS.map(([, flags, description]) => ({
      flags,
      description: `${description}; with --check`,
      rule: { type: 'range' as const },
    })),
  ],
  examples: [
    'mon status',
    'mon status --group "Acme Design" --group "Northwind Clinic" -o json',
    'mon status --check',
    'mon --all-profiles status -o openmetrics --output-file /var/lib/node_exporter/textfile/mon.prom',
    'mon status --check --warning-alerts 0 --critical-alerts 5 --critical-missing 10',
    'mon --all-profiles status --check',
  ],
  reads: true,
  async run({ opts }, ctx) {
    const given = THRESHOLDS.filter(([key]) => opts[key] !== undefined);
    if (opts.check !== true && given.length > 0) {
      throw new UsageError(`${given[0]![1].split(' ')[0]}: thresholds apply only with --check`, 'add --check');
    }
    if (opts.check === true && ctx.globals.output === 'openmetrics')
      throw new UsageError(
        '--check: prints one Nagios line, -o openmetrics the metrics: choose one',
        'a monitor runs `mon status --check`, a scraper `mon status -o openmetrics`',
      );
    if (opts.check === true && ctx.globals.jq !== undefined)
      throw new UsageError(
        '--check: prints one Nagios line, not JSON, so it does not go with --jq',
        'use `mon status --jq …` for the counts as JSON',
      );
    const output = ctx.globals.output;
    if (opts.check === true && output !== 'table')
      throw new UsageError(
        `--check: prints one Nagios line, so -o ${output} does not apply`,
        `a monitor runs \`mon status --check\`; for the counts, \`mon status -o ${output}\``,
      );
    // One nested report (counts by platform, by group, the top plugins), not rows of a table.
    if (output === 'csv' || output === 'tsv')
      throw new UsageError(
        `-o ${output}: \`mon status\` prints one report of nested counts, not rows`,
        'use -o json (or --jq) for the counts, -o openmetrics for Prometheus, or the table',
      );
    return runStatus(ctx, {
      scope: { groups: opts.group },
      withinSec: opts.within ?? 30 * 86_400,
      check: opts.check === true,
      thresholds: Object.fromEntries(given.map(([key]) => [key, opts[key]])),
    });
  },
  async acrossAccounts(outcomes, { opts }, ctx) {
    if (ctx.dryRun.on) return;
    if (opts.check === true) {
      const { evaluateAccounts, thresholdsFrom } = await import('../fleet/check.js');
      const given = Object.fromEntries(
        THRESHOLDS.filter(([key]) => opts[key] !== undefined).map(([key]) => [key, opts[key] as Range]),
      );
      const accounts = outcomes.map(({ profile, held, error }) =>
        error === undefined
          ? { profile, report: (held as HeldStatus).report }
          : { profile, failure: failureText(error) },
      );
      const { code, line } = evaluateAccounts(accounts, thresholdsFrom(given));
      ctx.io.stdout.write(`${line}\n`);
      // The Nagios codes, whichever accounts failed: a monitor reads 0..3 only (never 9).
      return code;
    }
    await showStatusAcrossAccounts(ctx, outcomes);
  },
});

/** An account's failure in a Nagios line: the message and its hint (evaluateAccounts cleans it into one line). */
function failureText(error: unknown): string {
  if (error instanceof MonError) return `${error.message}${error.hint ? ` — ${error.hint}` : ''}`;
  return 'unexpected error';
}

/** `status` across accounts: a block per account and their total; -o json an object per account and the total. */
async function showStatusAcrossAccounts(ctx: Context, outcomes: readonly AccountOutcome[]): Promise<void> {
  const { totalReport } = await import('../fleet/status.js');
  const render = renderOptions(ctx, STATUS_VIEW);
  if (render.format === 'openmetrics') {
    // Every account, a failed one as mon_up 0 and the time of its last recorded read; the exit code still says one failed.
    const { renderOpenMetrics } = await import('../output/openmetrics.js');
    const held = (outcome: AccountOutcome) => {
      const figures = outcome.held as Partial<HeldStatus> | undefined;
      return outcome.error === undefined
        ? figures
        : figures?.lastSuccess === undefined
          ? undefined
          : { lastSuccess: figures.lastSuccess };
    };
    ctx.io.stdout.write(renderOpenMetrics(outcomes.map((outcome) => ({ account: outcome.profile, ...held(outcome) }))));
    ctx.answerWhole();
    return;
  }
  const reports = outcomes
    .filter((outcome) => outcome.error === undefined && outcome.held !== undefined)
    .map(({ profile, held }) => ({ profile, report: (held as HeldStatus).report }));
  if (reports.length === 0) return;
  const total = totalReport(reports);
  if (render.format === 'table' && !render.fields) {
    const { renderStatus } = await import('../output/status.js');
    const colour = colourWanted(ctx, ctx.io.stdout.isTTY === true);
    const failed = outcomes.filter((outcome) => outcome.error !== undefined).map((outcome) => outcome.profile);
    for (const { profile, report } of reports) {
      ctx.io.stdout.write(`== Profile ${profile} ==\n`);
      renderStatus(report, ctx.io.stdout, colour);
      ctx.io.stdout.write('\n');
    }
    ctx.io.stdout.write(
      `== Total of ${reports.length === outcomes.length ? `${reports.length} profiles` : `${reports.length} of ${outcomes.length} profiles (${failed.join(', ')} failed)`} ==\n`,
    );
    renderStatus(total, ctx.io.stdout, colour);
    return;
  }
  const { pickFields } = await import('../output/columns.js');
  const pick = (report: StatusReport) => pickFields(report as unknown as Record<string, unknown>, render.fields);
  await ctx.output.object(
    { accounts: reports.map(({ profile, report }) => ({ profile, ...pick(report) })), total: pick(total) },
    { ...render, fields: undefined },
  );
}
