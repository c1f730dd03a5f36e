/**
 * What the report draws from the days mon recorded (src/history): each figure day by day over
 * the period, and which alerting results were resolved or are new between its first and last
 * recorded day.
 */
import type { AlertingResult, Snapshot } from '../history/snapshot.js';

/** The period a report covers: its first and last UTC day (YYYY-MM-DD) and how it was asked for. */
export interface Period {
  fromDay: string;
  toDay: string;
  /** A calendar month (--period) or the days back from now (--since, or the default). */
  kind: 'month' | 'since';
}

export interface Trends {
  /** The days recorded in the period, oldest first. */
  days: string[];
  series: { key: 'computers' | 'missing' | 'alerts' | 'warnings'; label: string; values: number[] }[];
  /** Alerting results on the first recorded day and not on the last. */
  resolved: AlertingResult[];
  /** Alerting results on the last recorded day and not on the first. */
  new: AlertingResult[];
  /** Whether either day's set was cut (the lists may miss some). */
  cut: boolean;
}

const keyOf = (result: AlertingResult): string => `${result[0]}\u0000${result[2]}`;

/** The trends of the snapshots of a period, oldest first; undefined with fewer than two days. */
export function trendsOf(snapshots: readonly Snapshot[]): Trends | undefined {
  if (snapshots.length < 2) return undefined;
  const first = snapshots[0]!;
  const last = snapshots.at(-1)!;
  const before = new Set(first.alerting.map(keyOf));
  const after = new Set(last.alerting.map(keyOf));
  const byName = (a: AlertingResult, b: AlertingResult) => a[1].localeCompare(b[1]) || a[2].localeCompare(b[2]);
  return {
    days: snapshots.map((s) => s.day),
    series: [
      { key: 'computers', label: 'Computers', values: snapshots.map((s) => s.computers.total) },
      { key: 'missing', label: 'Computers not reporting', values: snapshots.map((s) => s.computers.missing) },
      { key: 'alerts', label: 'Open alerts', values: snapshots.map((s) => s.alerts.total) },
      { key: 'warnings', label: 'Open warnings', values: snapshots.map((s) => s.warnings.total) },
    ],
    resolved: first.alerting.filter((r) => !after.has(keyOf(r))).sort(byName),
    new: last.alerting.filter((r) => !before.has(keyOf(r))).sort(byName),
    cut: first.alerting_cut === true || last.alerting_cut === true,
  };
}

/** The UTC days of a calendar month YYYY-MM. */
export function monthPeriod(month: string): Period {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { fromDay: `${month}-01`, toDay: new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10), kind: 'month' };
}

/** From the day of `sinceMs` to the day of `nowMs`. */
export function sincePeriod(sinceMs: number, nowMs: number): Period {
  return {
    fromDay: new Date(sinceMs).toISOString().slice(0, 10),
    toDay: new Date(nowMs).toISOString().slice(0, 10),
    kind: 'since',
  };
}
