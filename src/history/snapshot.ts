/**
 * One day of an account as mon keeps it (`mon history`): the counts a monthly report draws its
 * trends from, and the set of alerting results so that resolved and new can be told apart.
 * Built from the pages a whole read streams (`collectStatus`'s visitor), so a snapshot costs no
 * request of its own. It holds counts and names, never a key.
 */
import { parseTime } from '../time/parse.js';
import { isHidden, isMuted } from '../model/plugin-result.js';
import { isMissing, type ScopedComputer } from '../fleet/selection.js';

export const SNAPSHOT_FORMAT = 'mon-history';
export const SNAPSHOT_VERSION = 1;

/** Boot volume use in bands: a label and the percentage it stays under. */
export const BOOT_BANDS: readonly [string, number][] = [
  ['under 50%', 50],
  ['50–70%', 70],
  ['70–80%', 80],
  ['80–90%', 90],
  ['90% and over', Infinity],
];

/** The band of a boot volume's use. */
export const bootBand = (percent: number): string => BOOT_BANDS.find(([, under]) => percent < under)![0];

/** The most alerting results one snapshot names: past it the set is cut, and says so. */
export const MAX_ALERTING = 20_000;

/** One unmuted, visible Alert or Warning: [computer uid, computer name, plugin, status]. */
export type AlertingResult = [string, string, string, 'Alert' | 'Warning'];

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  /** The UTC day it stands for, YYYY-MM-DD (the last read of the day replaces earlier ones). */
  day: string;
  /** When it was read, ISO 8601. */
  taken_at: string;
  /** The account as people name it: the profile, or the base URL's host. */
  account: string;
  computers: {
    total: number;
    missing: number;
    hidden: number;
    platforms: Record<string, number>;
    os: Record<string, number>;
    boot: Record<string, number>;
  };
  alerts: { total: number; by_plugin: Record<string, number>; by_group: Record<string, number> };
  warnings: { total: number; by_plugin: Record<string, number>; by_group: Record<string, number> };
  /** Null when the read that made it did not read the expirations (`mon alerts`) and no earlier read of the day did. */
  expirations: { expired: number; within_30d: number; within_90d: number } | null;
  alerting: AlertingResult[];
  /** True when the set was cut at MAX_ALERTING. */
  alerting_cut?: true;
}

const add = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};
/** A string or number field as text, else ''. */
export const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
/** A numeric field (a number or a numeric string), else undefined. */
export const numberOf = (value: unknown): number | undefined => {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** A computer as people name it: its custom name, else its own, else an id. */
export const computerName = (computer: Record<string, unknown>): string =>
  text(computer.custom_name) || text(computer.computer_name) || text(computer.client_id) || text(computer.uid);

/** A boot volume's use in percent, from the percentage or the two byte counts. */
export function bootPercent(computer: Record<string, unknown>): number | undefined {
  const capacity = numberOf(computer.boot_volume_capacity_in_bytes);
  const used = numberOf(computer.boot_volume_usage_in_bytes);
  return (
    numberOf(computer.boot_volume_usage_percent) ??
    (capacity && used !== undefined ? (used / capacity) * 100 : undefined)
  );
}

/** UTC day of a time. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Gathers a snapshot as a read streams: `computer` for each computer of the whole account,
 * `expiration` for each expiration, then `finish` with the counts the read made.
 */
export class SnapshotBuilder {
  private readonly counts = { total: 0, missing: 0, hidden: 0, alerts: 0, warnings: 0 };
  private readonly platforms: Record<string, number> = {};
  private readonly os: Record<string, number> = {};
  private readonly boot: Record<string, number> = Object.fromEntries(BOOT_BANDS.map(([label]) => [label, 0]));
  private readonly alertsBy = { plugin: {} as Record<string, number>, group: {} as Record<string, number> };
  private readonly warningsBy = { plugin: {} as Record<string, number>, group: {} as Record<string, number> };
  private readonly alerting: AlertingResult[] = [];
  private cut = false;
  private expirations: { expired: number; within_30d: number; within_90d: number } | null = null;

  constructor(private readonly nowMs: number) {}

  /** Counted as `mon status` counts (src/fleet/status.ts): the tests hold the two equal. */
  computer({ computer, group, results }: ScopedComputer): void {
    this.counts.total++;
    if (isMissing(computer)) this.counts.missing++;
    if (computer.hidden === true) this.counts.hidden++;
    add(this.platforms, text(computer.platform) || 'unknown');
    add(this.os, text(computer.os_version) || 'unknown');
    const percent = bootPercent(computer);
    if (percent !== undefined) add(this.boot, bootBand(percent));
    const nowSec = Math.floor(this.nowMs / 1000);
    const groupName = group?.name ?? '(no group)';
    for (const result of results) {
      if (result.status !== 'Alert' && result.status !== 'Warning') continue;
      if (isHidden(result) || isMuted(result, nowSec)) continue;
      const plugin = text(result.name) || text(result.slug);
      const by = result.status === 'Alert' ? this.alertsBy : this.warningsBy;
      this.counts[result.status === 'Alert' ? 'alerts' : 'warnings']++;
      add(by.plugin, plugin);
      add(by.group, groupName);
      if (this.alerting.length < MAX_ALERTING)
        this.alerting.push([text(computer.uid), computerName(computer), plugin, result.status]);
      else this.cut = true;
    }
  }

  expiration(expiration: Record<string, unknown>): void {
    const at = parseTime(expiration.expires_at);
    this.expirations ??= { expired: 0, within_30d: 0, within_90d: 0 };
    if (at === undefined) return;
    if (at < this.nowMs) this.expirations.expired++;
    else if (at <= this.nowMs + 30 * 86_400_000) this.expirations.within_30d++;
    if (at >= this.nowMs && at <= this.nowMs + 90 * 86_400_000) this.expirations.within_90d++;
  }

  /** The snapshot; `expirationsRead`: the read listed the expirations (even none). */
  finish(account: string, expirationsRead: boolean): Snapshot {
    const { total, missing, hidden, alerts, warnings } = this.counts;
    const sorted = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    this.alerting.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      day: dayOf(this.nowMs),
      taken_at: new Date(this.nowMs).toISOString(),
      account,
      computers: { total, missing, hidden, platforms: sorted(this.platforms), os: sorted(this.os), boot: this.boot },
      alerts: { total: alerts, by_plugin: sorted(this.alertsBy.plugin), by_group: sorted(this.alertsBy.group) },
      warnings: { total: warnings, by_plugin: sorted(this.warningsBy.plugin), by_group: sorted(this.warningsBy.group) },
      expirations: expirationsRead ? (this.expirations ?? { expired: 0, within_30d: 0, within_90d: 0 }) : null,
      alerting: this.alerting,
      ...(this.cut && { alerting_cut: true as const }),
    };
  }
}

/** Whether a parsed value is a snapshot this mon can read (else it is skipped as damaged). */
export function isSnapshot(value: unknown): value is Snapshot {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  const counts = (v: unknown) =>
    typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>).total === 'number';
  return (
    s.format === SNAPSHOT_FORMAT &&
    s.version === SNAPSHOT_VERSION &&
    typeof s.day === 'string' &&
    /^\d{4}-\d\d-\d\d$/.test(s.day) &&
    counts(s.computers) &&
    counts(s.alerts) &&
    counts(s.warnings) &&
    Array.isArray(s.alerting)
  );
}
