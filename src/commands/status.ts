/**
 * `mon status` (docs/design/cli-contract.md, Fleet commands): what needs attention now, as text
 * with bars, JSON, OpenMetrics or one Nagios line, for one account or across accounts. Declared
 * here; the counts are src/fleet/status.ts's.
 */
import type { AccountOutcome, AnswerView, Context } from '../context.js';
import { MonError, UsageError } from '../errors.js';
import { pickFields } from '../output/columns.js';
import { readingComputers, type Scope } from '../fleet/selection.js';
import { collectStatus, plannedStatusRequests, totalReport, type StatusReport } from '../fleet/status.js';
import { evaluate, evaluateAccounts, thresholdsFrom } from '../fleet/check.js';
import { historyRecorder, lastRecordedRead } from '../history/record.js';
import { renderOpenMetrics } from '../output/openmetrics.js';
import { createProgress, lineOptions } from '../output/progress.js';
import { renderStatus } from '../output/status.js';
import { verb } from '../spec/spec.js';
import { accountName } from '../target.js';
import type { Range } from '../validate/range.js';
import { colourWanted, renderOptions, type View } from './view.js';
import { GROUP_OPTION } from './selectors.js';

/** -o json prints the report; --fields keeps its top-level keys. */
const STATUS_VIEW: View = {
  columns: [],
  fields: ['scope', 'computers', 'plugin_results', 'top_plugins', 'groups', 'expirations'],
};

/** What one account's `status` read: its report, how long the read took, when it ended. */
interface StatusFigures {
  report: StatusReport;
  readSeconds: number;
  /** When the read ended, in seconds since the epoch (mon_last_success_timestamp_seconds). */
  lastSuccess: number;
}

/** A read that failed leaves no report, and for -o openmetrics the last whole read the history recorded. */
type StatusAnswer = StatusFigures | { report?: undefined; lastSuccess?: number };

interface StatusOptions {
  scope: Scope;
  withinSec: number;
  check: boolean;
  /** Thresholds given on the command line, by option key (warningAlerts…). */
  thresholds: Partial<Record<string, Range>>;
}

/**
 * `mon status`: the report as text with bars, as one JSON object, or as one Nagios line; with
 * --check returns the Nagios exit code of its line. With -o openmetrics, every failure once the
 * account is known still prints its metrics, mon_up 0 (a scraper reads that the account is
 * down), and the exit code says why. The answer goes to the output (Output.answer), which shows
 * it alone or, across accounts, with the others' once all have finished.
 */
async function runStatus(ctx: Context, options: StatusOptions): Promise<number | void> {
  const view = statusView(ctx, options);
  let figures: StatusFigures | undefined;
  try {
    figures = await readStatus(ctx, options);
  } catch (error) {
    if (ctx.dryRun.on) throw error;
    // How old the account's figures are: the last whole read that succeeded, as the history recorded it.
    const lastSuccess = ctx.globals.output === 'openmetrics' ? await lastRecordedRead(ctx, options.scope) : undefined;
    await ctx.output.answer<StatusAnswer>({ ...(lastSuccess !== undefined && { lastSuccess }) }, view);
    throw error;
  }
  // --dry-run: the requests were shown, and nothing was read.
  return figures && ctx.output.answer<StatusAnswer>(figures, view);
}

/** Reads the report (undefined with --dry-run, which shows the requests instead). */
async function readStatus(ctx: Context, options: StatusOptions): Promise<StatusFigures | undefined> {
  // --fields is checked before any request.
  if (!options.check) renderOptions(ctx, STATUS_VIEW);
  const client = await ctx.client();
  if (await ctx.dryRun.shows(plannedStatusRequests(client, options.scope))) return undefined;
  // Progress only where a person watches (a terminal), never under --check (a monitor reads it).
  const progress = createProgress(
    ctx.io.stderr,
    ctx.now,
    { ...lineOptions(ctx), quiet: ctx.globals.quiet || options.check },
    ctx.rateWait,
  );
  let report: StatusReport;
  const started = ctx.now();
  const history = historyRecorder(ctx, options.scope);
  try {
    report = await collectStatus(client, options.scope, ctx.now(), options.withinSec, {
      onPage: (read) => progress.update(readingComputers(read)),
      ...(history && { onComputer: history.computer, onExpiration: history.expiration }),
    });
  } finally {
    progress.done();
  }
  await history?.record();
  return { report, readSeconds: (ctx.now() - started) / 1000, lastSuccess: ctx.now() / 1000 };
}

/** How `status` draws its answer: alone (on `ctx`), or with the other accounts'. */
function statusView(ctx: Context, options: StatusOptions): AnswerView<StatusAnswer> {
  return {
    alone: (answer) => showStatus(ctx, options, answer),
    together: (outcomes, main) =>
      options.check ? checkAccounts(main, options, outcomes) : showStatusAcrossAccounts(main, outcomes),
  };
}

/** One account's report in the format asked for; a failed read prints only its metrics (mon_up 0). */
async function showStatus(ctx: Context, options: StatusOptions, answer: StatusAnswer): Promise<number | void> {
  const { report } = answer;
  if (ctx.globals.output === 'openmetrics') {
    ctx.io.stdout.write(renderOpenMetrics([{ account: await accountName(ctx), ...answer }]));
    if (!report) ctx.delivery.answerWhole();
    return;
  }
  if (!report) return;
  if (options.check) {
    const { code, line } = evaluate(report, thresholdsFrom(options.thresholds));
    ctx.io.stdout.write(`${line}\n`);
    return code;
  }
  const render = renderOptions(ctx, STATUS_VIEW);
  if (render.format === 'table' && !render.fields) {
    renderStatus(report, ctx.io.stdout, colourWanted(ctx, ctx.io.stdout.isTTY === true));
    return;
  }
  await ctx.output.object(report as unknown as Record<string, unknown>, render);
}

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
});

/** An account's failure in a Nagios line: the message and its hint (evaluateAccounts cleans it into one line). */
function failureText(error: unknown): string {
  if (error instanceof MonError) return `${error.message}${error.hint ? ` — ${error.hint}` : ''}`;
  return 'unexpected error';
}

/** `status --check` across accounts: the worst state, naming each account with its own (a failed one UNKNOWN). */
async function checkAccounts(
  ctx: Context,
  options: StatusOptions,
  outcomes: readonly AccountOutcome<StatusAnswer>[],
): Promise<number> {
  const accounts = outcomes.map(({ profile, held, error }) =>
    error === undefined ? { profile, report: held!.report! } : { profile, failure: failureText(error) },
  );
  const { code, line } = evaluateAccounts(accounts, thresholdsFrom(options.thresholds));
  ctx.io.stdout.write(`${line}\n`);
  // The Nagios codes, whichever accounts failed: a monitor reads 0..3 only (never 9).
  return code;
}

/** `status` across accounts: a block per account and their total; -o json an object per account and the total. */
async function showStatusAcrossAccounts(
  ctx: Context,
  outcomes: readonly AccountOutcome<StatusAnswer>[],
): Promise<void> {
  const render = renderOptions(ctx, STATUS_VIEW);
  if (render.format === 'openmetrics') {
    // Every account, a failed one as mon_up 0 and the time of its last recorded read; the exit code still says one failed.
    const held = ({ held, error }: AccountOutcome<StatusAnswer>) =>
      error === undefined ? held : held?.lastSuccess === undefined ? undefined : { lastSuccess: held.lastSuccess };
    ctx.io.stdout.write(renderOpenMetrics(outcomes.map((outcome) => ({ account: outcome.profile, ...held(outcome) }))));
    ctx.delivery.answerWhole();
    return;
  }
  const reports = outcomes.flatMap(({ profile, held, error }) =>
    error === undefined && held?.report ? [{ profile, report: held.report }] : [],
  );
  if (reports.length === 0) return;
  const total = totalReport(reports);
  if (render.format === 'table' && !render.fields) return statusBlocks(ctx, outcomes, reports, total);
  const pick = (report: StatusReport) => pickFields(report as unknown as Record<string, unknown>, render.fields);
  await ctx.output.object(
    { accounts: reports.map(({ profile, report }) => ({ profile, ...pick(report) })), total: pick(total) },
    { ...render, fields: undefined },
  );
}

/** The table across accounts: `== Profile NAME ==` and its report, for each that answered, then their total. */
function statusBlocks(
  ctx: Context,
  outcomes: readonly AccountOutcome[],
  reports: readonly { profile: string; report: StatusReport }[],
  total: StatusReport,
): void {
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
}
