/**
 * `mon status -o openmetrics`: the figures of `status` in the OpenMetrics text format, for the
 * node_exporter textfile collector or any scraper. The metric names and labels are a contract
 * (README, help topic fleet): a change breaks dashboards.
 */
import { EXPIRATION_WINDOWS, type ExpirationWindow, type StatusReport } from './status-report.js';
import { PLUGIN_STATUSES } from '../model/plugin-result.js';
import { METRIC_FAMILIES, type MetricName } from './metric-families.js';
import { terminalSafe } from '../text/escape.js';
import { VERSION } from '../version.js';

/**
 * One account's outcome: its report and how long reading it took, or a failure (mon_up 0);
 * `lastSuccess`, when the last read that succeeded ended (seconds since the epoch), kept across a
 * failure by a process that reads again (`mon metrics serve`).
 */
export interface AccountFigures {
  account: string;
  report?: StatusReport;
  readSeconds?: number;
  lastSuccess?: number;
  /** Whether the last read succeeded; by default, whether there is a report (a process that reads again keeps the last report after a failure). */
  up?: boolean;
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

/**
 * The whole exposition: every family with HELP and TYPE (and UNIT), then `# EOF`. Groups are
 * labelled by uid as well as name: two groups of one name are two label sets (a duplicate one
 * makes Prometheus drop the whole file), and a renamed group keeps its series' uid.
 */
export function renderOpenMetrics(accounts: readonly AccountFigures[], version: string = VERSION): string {
  const family = (name: MetricName): Family => ({ name, samples: [] });
  const computers = family('mon_computers');
  const missing = family('mon_computers_missing');
  const hidden = family('mon_computers_hidden');
  const results = family('mon_plugin_results');
  const topPlugins = family('mon_top_plugin_alerts');
  const expirations = family('mon_expirations');
  const up = family('mon_up');
  const duration = family('mon_read_duration_seconds');
  const lastSuccess = family('mon_last_success_timestamp_seconds');
  const build = family('mon_build_info');
  build.samples.push({ labels: { version }, value: 1 });

  for (const { account, report, readSeconds, lastSuccess: at, up: isUp } of accounts) {
    up.samples.push({ labels: { account }, value: (isUp ?? report !== undefined) ? 1 : 0 });
    if (at !== undefined) lastSuccess.samples.push({ labels: { account }, value: at });
    if (!report) continue;
    duration.samples.push({ labels: { account }, value: readSeconds ?? 0 });
    for (const group of report.groups) {
      const where = { account, group: group.name ?? '', group_uid: group.uid ?? '' };
      for (const [platform, n] of Object.entries(group.platforms))
        computers.samples.push({ labels: { ...where, platform }, value: n });
      missing.samples.push({ labels: where, value: group.missing });
      hidden.samples.push({ labels: where, value: group.hidden });
      for (const muted of ['false', 'true'] as const) {
        const counts = muted === 'true' ? group.results.muted : group.results.unmuted;
        // Every documented status, zero included, so a series does not vanish when it reaches 0; then any other the API sends.
        const statuses = [
          ...PLUGIN_STATUSES,
          ...Object.keys(counts).filter((status) => !(PLUGIN_STATUSES as readonly string[]).includes(status)),
        ];
        for (const status of statuses)
          results.samples.push({ labels: { ...where, status, muted }, value: counts[status] ?? 0 });
      }
    }
    for (const { name, alerts } of report.top_plugins)
      topPlugins.samples.push({ labels: { account, plugin: name }, value: alerts });
    expirations.samples.push({ labels: { account, window: 'expired' }, value: report.expirations.expired });
    for (const window of Object.keys(EXPIRATION_WINDOWS) as ExpirationWindow[])
      expirations.samples.push({ labels: { account, window }, value: report.expirations.windows[window] });
  }

  const lines: string[] = [];
  for (const { name, samples } of [
    computers,
    missing,
    hidden,
    results,
    topPlugins,
    expirations,
    up,
    duration,
    lastSuccess,
    build,
  ]) {
    const { help, ...rest } = METRIC_FAMILIES.find((one) => one.name === name)!;
    lines.push(`# TYPE ${name} gauge`);
    if ('unit' in rest) lines.push(`# UNIT ${name} ${rest.unit}`);
    lines.push(`# HELP ${name} ${help}`);
    for (const { labels, value } of samples) lines.push(sample(name, labels, value));
  }
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}

/**
 * The Prometheus text format (0.0.4) of an OpenMetrics exposition: the same families and
 * samples, without what that format does not have (`# UNIT`, `# EOF`).
 */
export function toPrometheusText(openMetrics: string): string {
  return openMetrics
    .split('\n')
    .filter((line) => !line.startsWith('# UNIT ') && line !== '# EOF')
    .join('\n');
}
