/**
 * `mon status --check`: one line in the Nagios plugin format and its exit code (Nagios plugin
 * guidelines: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN), so Icinga, Nagios, Checkmk, Zabbix or
 * Sensu can watch the account with no glue.
 */
import { terminalSafe } from '../text/escape.js';
import { NAGIOS_STATES } from '../errors.js';
import { breaches, parseRange, type Range } from '../validate/range.js';
import type { StatusReport } from './status.js';

export type Metric = 'alerts' | 'warnings' | 'missing';
export const METRICS: readonly Metric[] = ['alerts', 'warnings', 'missing'];

/** Warning and critical ranges per metric; a metric without one never raises that state. */
export type Thresholds = Record<Metric, { warning?: Range; critical?: Range }>;

/**
 * Defaults of docs/design/cli-contract.md: any unmuted Alert is CRITICAL, any unmuted Warning or missing
 * computer is WARNING ("0" alerts outside 0..0, that is above 0).
 */
export function defaultThresholds(): Thresholds {
  return {
    alerts: { critical: parseRange('0')! },
    warnings: { warning: parseRange('0')! },
    missing: { warning: parseRange('0')! },
  };
}

/**
 * The thresholds of a run: a metric given any threshold on the command line takes only those
 * given (`--critical-alerts 5` alone lets 1..5 alerts pass); the others keep their defaults.
 */
export function thresholdsFrom(given: Partial<Record<string, Range>>): Thresholds {
  const thresholds = defaultThresholds();
  for (const metric of METRICS) {
    const suffix = metric[0]!.toUpperCase() + metric.slice(1);
    const warning = given[`warning${suffix}`];
    const critical = given[`critical${suffix}`];
    if (warning || critical) thresholds[metric] = { warning, critical };
  }
  return thresholds;
}

const STATES = NAGIOS_STATES;

/**
 * Text for a Nagios line before its performance data (a group's name, an error's message): one
 * line (line breaks and the white space around them become one space), no '|' (the first one
 * starts the performance data: shown as '/'), nothing a terminal acts on (shown escaped). The
 * OK..CRITICAL lines and the UNKNOWN line of main() clean what they quote with it.
 */
export function nagiosText(text: string): string {
  return terminalSafe(text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').replace(/\|/g, '/')).trim();
}

/**
 * A performance data label (Nagios plugin guidelines, Performance data: 'label'=value;warn;crit;min):
 * cleaned as nagiosText, '=' (which no label may hold) shown as '_', and in single quotes, a quote
 * doubled, when it holds anything but letters, digits, '_', '.' and '-' (a space, ';', a quote).
 */
export function perfLabel(label: string): string {
  const clean = nagiosText(label).replace(/=/g, '_');
  return /^[\w.-]+$/.test(clean) ? clean : `'${clean.replace(/'/g, "''")}'`;
}

/** The line and exit code for a report. */
export function evaluate(report: StatusReport, thresholds: Thresholds): { code: 0 | 1 | 2; line: string } {
  const { code, summary, perf } = measure(report, thresholds);
  return { code, line: `MON ${STATES[code]} - ${summary} | ${perf.map(perfItem).join(' ')}` };
}

/**
 * Across accounts (`status --check --profiles a,b`): the worst state, with each account named
 * and its state and counts; an account that failed is UNKNOWN. CRITICAL outranks UNKNOWN, which
 * outranks WARNING (as check_multi and Icinga's cluster checks rank them): a confirmed critical
 * is what a monitor must see first. Performance data carries each account's metrics, prefixed
 * with its profile.
 */
export function evaluateAccounts(
  accounts: readonly ({ profile: string; report: StatusReport } | { profile: string; failure: string })[],
  thresholds: Thresholds,
): { code: 0 | 1 | 2 | 3; line: string } {
  const severity = [0, 2, 3, 1] as const;
  let worst: 0 | 1 | 2 | 3 = 0;
  const parts: string[] = [];
  const perf: string[] = [];
  for (const account of accounts) {
    if ('failure' in account) {
      if (severity[3] > severity[worst]) worst = 3;
      parts.push(`${nagiosText(account.profile)} UNKNOWN: ${nagiosText(account.failure)}`);
      continue;
    }
    const measured = measure(account.report, thresholds);
    if (severity[measured.code] > severity[worst]) worst = measured.code;
    parts.push(`${nagiosText(account.profile)} ${STATES[measured.code]}: ${measured.summary}`);
    perf.push(...measured.perf.map((item) => perfItem({ ...item, label: `${account.profile}_${item.label}` })));
  }
  return {
    code: worst,
    line: `MON ${STATES[worst]} - ${parts.join('; ')}${perf.length ? ` | ${perf.join(' ')}` : ''}`,
  };
}

/** One item of performance data: a measure and its thresholds, before its label is cleaned. */
interface Perf {
  label: string;
  /** value;warn;crit;min */
  data: string;
}

function perfItem({ label, data }: Perf): string {
  return `${perfLabel(label)}=${data}`;
}

/** A report's state, its summary (with its scope) and its performance data. */
function measure(report: StatusReport, thresholds: Thresholds): { code: 0 | 1 | 2; summary: string; perf: Perf[] } {
  const values: Record<Metric, number> = {
    alerts: report.plugin_results.alerts,
    warnings: report.plugin_results.warnings,
    missing: report.computers.missing,
  };
  let code: 0 | 1 | 2 = 0;
  for (const metric of METRICS) {
    const { warning, critical } = thresholds[metric];
    if (critical && breaches(critical, values[metric])) code = 2;
    else if (warning && breaches(warning, values[metric]) && code < 1) code = 1;
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const summary = `${plural(values.alerts, 'alert')}, ${plural(values.warnings, 'warning')}, ${values.missing} missing`;
  // 'label'=value;warn;crit;min (guidelines, Performance data).
  const perf = METRICS.map((metric) => ({
    label: metric,
    data: `${values[metric]};${thresholds[metric].warning?.text ?? ''};${thresholds[metric].critical?.text ?? ''};0`,
  }));
  // Group names are the server's: cleaned, so that the line stays one line with one '|'.
  const scope = report.scope.groups
    ? ` (${report.scope.groups.map((g) => nagiosText(g.name ?? g.uid)).join(', ')})`
    : '';
  return { code, summary: `${summary}${scope}`, perf };
}
