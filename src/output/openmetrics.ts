/**
 * `mon status -o openmetrics`: the figures of `status` in the OpenMetrics text format, for the
 * node_exporter textfile collector or any scraper. The metric names and labels are a contract
 * (README, help topic fleet): a change breaks dashboards.
 */
import { EXPIRATION_WINDOWS, type ExpirationWindow, type StatusReport } from './status-report.js';
import { PLUGIN_STATUSES } from '../plugin-result.js';
import { METRIC_FAMILIES, type MetricName } from './metric-families.js';
import { terminalSafe } from './escape.js';

/** One account's outcome: its report and how long reading it took, or a failure (mon_up 0). */
export interface AccountFigures {
  account: string;
  report?: StatusReport;
  readSeconds?: number;
}

type Labels = Record<string, string>;

interface Family {
  name: MetricName;
  samples: { labels: Labels; value: number }[];
}

/**
 * A label value as the format wants it: backslash, double quote and line feed escaped, and what
 * a terminal would act on (a group named with escape sequences) shown as escape.ts shows it.
 */
export function labelValue(text: string): string {
  return terminalSafe(text, '\n').replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

const sample = (name: string, labels: Labels, value: number): string =>
  `${name}{${Object.entries(labels)
    .map(([key, text]) => `${key}="${labelValue(text)}"`)
    .join(',')}} ${Number.isFinite(value) ? value : 'NaN'}`;

/** The whole exposition: every family with HELP and TYPE (and UNIT), then `# EOF`. */
export function renderOpenMetrics(accounts: readonly AccountFigures[]): string {
  const family = (name: MetricName): Family => ({ name, samples: [] });
  const computers = family('mon_computers');
  const missing = family('mon_computers_missing');
  const hidden = family('mon_computers_hidden');
  const results = family('mon_plugin_results');
  const expirations = family('mon_expirations');
  const up = family('mon_up');
  const duration = family('mon_read_duration_seconds');

  for (const { account, report, readSeconds } of accounts) {
    up.samples.push({ labels: { account }, value: report ? 1 : 0 });
    if (!report) continue;
    duration.samples.push({ labels: { account }, value: readSeconds ?? 0 });
    for (const group of report.groups) {
      const name = group.name ?? '';
      for (const [platform, n] of Object.entries(group.platforms)) computers.samples.push({ labels: { account, group: name, platform }, value: n });
      missing.samples.push({ labels: { account, group: name }, value: group.missing });
      hidden.samples.push({ labels: { account, group: name }, value: group.hidden });
      for (const muted of ['false', 'true'] as const) {
        const counts = muted === 'true' ? group.results.muted : group.results.unmuted;
        // Every documented status, zero included, so a series does not vanish when it reaches 0; then any other the API sends.
        const statuses = [...PLUGIN_STATUSES, ...Object.keys(counts).filter((status) => !(PLUGIN_STATUSES as readonly string[]).includes(status))];
        for (const status of statuses) results.samples.push({ labels: { account, group: name, status, muted }, value: counts[status] ?? 0 });
      }
    }
    expirations.samples.push({ labels: { account, window: 'expired' }, value: report.expirations.expired });
    for (const window of Object.keys(EXPIRATION_WINDOWS) as ExpirationWindow[]) expirations.samples.push({ labels: { account, window }, value: report.expirations.windows[window] });
  }

  const lines: string[] = [];
  for (const { name, samples } of [computers, missing, hidden, results, expirations, up, duration]) {
    const { help, ...rest } = METRIC_FAMILIES.find((one) => one.name === name)!;
    lines.push(`# TYPE ${name} gauge`);
    if ('unit' in rest) lines.push(`# UNIT ${name} ${rest.unit}`);
    lines.push(`# HELP ${name} ${help}`);
    for (const { labels, value } of samples) lines.push(sample(name, labels, value));
  }
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}
