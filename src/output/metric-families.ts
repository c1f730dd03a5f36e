/**
 * The metric families of `mon status -o openmetrics`: the contract dashboards are built on.
 * One table, rendered into the exposition's HELP lines (openmetrics.ts) and into the help topic,
 * the docs and the man page (src/spec/topics.ts). No imports: help loads it.
 */
export const METRIC_FAMILIES = [
  {
    name: 'mon_computers',
    labels: ['account', 'group', 'group_uid', 'platform'],
    help: 'Computers, hidden ones included.',
  },
  { name: 'mon_computers_missing', labels: ['account', 'group', 'group_uid'], help: 'Missing computers.' },
  { name: 'mon_computers_hidden', labels: ['account', 'group', 'group_uid'], help: 'Hidden computers.' },
  {
    name: 'mon_plugin_results',
    labels: ['account', 'group', 'group_uid', 'status', 'muted'],
    help: 'Visible plugin results; status as the API sends it (OK, Warning, Alert, Informational, each present at 0 too), muted true or false as mon alerts decides it.',
  },
  {
    name: 'mon_top_plugin_alerts',
    labels: ['account', 'plugin'],
    help: 'Unmuted Alert results of the plugins with the most of them (the 10 of status top_plugins; a plugin out of the ten has no sample).',
  },
  {
    name: 'mon_expirations',
    labels: ['account', 'window'],
    help: 'Expirations; window expired (already ended), 30d or 90d (ending within that many days, not yet ended).',
  },
  { name: 'mon_up', labels: ['account'], help: '1 when every read of the account succeeded, 0 otherwise.' },
  {
    name: 'mon_read_duration_seconds',
    labels: ['account'],
    help: 'How long reading the account took.',
    unit: 'seconds',
  },
  {
    name: 'mon_last_success_timestamp_seconds',
    labels: ['account'],
    help: 'When the last read of the account that succeeded ended, in seconds since 1970; for an account status could not read, when its last recorded read began (mon history); absent while none is known.',
    unit: 'seconds',
  },
  { name: 'mon_build_info', labels: ['version'], help: 'Always 1; version is the mon that wrote the figures.' },
] as const;

export type MetricName = (typeof METRIC_FAMILIES)[number]['name'];
