/**
 * What `mon report` shows of one account, read once: the counts of `mon status` (the same
 * collectStatus, so the same numbers by construction) and, from the same pages, the details a
 * customer reads: the inventory, what needs attention, expirations due, and distributions for
 * the charts.
 */
import { MAX_PER_PAGE, readWhole, type ApiClient } from '../api/client.js';
import { collectStatus, type StatusReport } from '../fleet/status.js';
import { isMissing, type Scope } from '../fleet/selection.js';
import { parseTime } from '../api/time.js';
import { isHidden, isMuted } from '../plugin-result.js';

type Item = Record<string, unknown>;

/** One computer of the inventory table. */
export interface InventoryRow {
  name: string;
  url: string | undefined;
  group: string;
  platform: string;
  os: string;
  ram: string;
  bootCapacityBytes: number | undefined;
  bootUsedPercent: number | undefined;
  lastReportMs: number | undefined;
  /** When the service first saw it (registration_date, else created_at). */
  registeredMs: number | undefined;
  missing: boolean;
}

/** A plugin result that needs attention: an unmuted, visible Alert or Warning. */
export interface AttentionRow {
  computer: string;
  url: string | undefined;
  group: string;
  plugin: string;
  status: string;
  details: string;
  lastRunMs: number | undefined;
}

/** An expiration due within the window. */
export interface DueRow {
  what: string;
  computer: string;
  group: string;
  expiresMs: number;
}

export interface ReportData {
  account: string;
  nowMs: number;
  status: StatusReport;
  inventory: InventoryRow[];
  /** Missing computers, the longest missing first. */
  missing: InventoryRow[];
  attention: AttentionRow[];
  /** Expirations due in the next 90 days, soonest first. */
  due: DueRow[];
  /** Computers by operating system version (the most common first). */
  osVersions: [string, number][];
  /** Computers by boot volume use, in buckets of BOOT_BUCKETS. */
  bootUse: [string, number][];
  /** Expirations ending in each of the next twelve months (YYYY-MM), not yet ended. */
  expiringByMonth: [string, number][];
  /** --since: computers first registered since then (by their own timestamps), or undefined without --since. */
  since?: { sinceMs: number; newComputers: InventoryRow[] };
}

const DUE_DAYS = 90;
const BOOT_BUCKETS: [string, number][] = [
  ['under 50%', 50],
  ['50–70%', 70],
  ['70–80%', 80],
  ['80–90%', 90],
  ['90% and over', Infinity],
];

const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const numberOf = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};
const computerName = (computer: Item): string => text(computer.custom_name) || text(computer.computer_name) || text(computer.client_id) || text(computer.uid);
const linkOf = (computer: Item): string | undefined => {
  const url = text(computer.computer_url);
  // Only a web address becomes a link: a value the API sends is not trusted to be one.
  return /^https?:\/\//i.test(url) ? url : undefined;
};

/** Reads the account once and keeps what the report shows. */
export async function collectReport(client: ApiClient, account: string, scope: Scope, nowMs: number, sinceMs: number | undefined, onPage?: (read: { computers: number; total?: number | undefined }) => void): Promise<ReportData> {
  const nowSec = Math.floor(nowMs / 1000);
  const inventory: InventoryRow[] = [];
  const attention: AttentionRow[] = [];
  const byUid = new Map<string, InventoryRow>();
  const expirations: Item[] = [];
  const status = await collectStatus(client, scope, nowMs, 30 * 86_400, {
    onPage,
    onComputer: ({ computer, group, results }) => {
      const capacity = numberOf(computer.boot_volume_capacity_in_bytes);
      const used = numberOf(computer.boot_volume_usage_in_bytes);
      const percent = numberOf(computer.boot_volume_usage_percent) ?? (capacity && used !== undefined ? (used / capacity) * 100 : undefined);
      const row: InventoryRow = {
        name: computerName(computer),
        url: linkOf(computer),
        group: group?.name ?? '',
        platform: text(computer.platform) || 'unknown',
        os: text(computer.os_version),
        ram: text(computer.ram_installed),
        bootCapacityBytes: capacity,
        bootUsedPercent: percent,
        lastReportMs: parseTime(computer.last_report),
        registeredMs: parseTime(computer.registration_date) ?? parseTime(computer.created_at),
        missing: isMissing(computer),
      };
      inventory.push(row);
      byUid.set(text(computer.uid), row);
      for (const result of results) {
        if (isHidden(result) || isMuted(result, nowSec)) continue;
        if (result.status !== 'Alert' && result.status !== 'Warning') continue;
        attention.push({
          computer: row.name,
          url: row.url,
          group: row.group,
          plugin: text(result.name) || text(result.slug),
          status: text(result.status),
          details: text(result.details).trim().split(/\r?\n|\r/)[0] ?? '',
          lastRunMs: parseTime(result.last_run),
        });
      }
    },
    onExpiration: (expiration) => expirations.push(expiration),
  });
  // One collator for every comparison: localeCompare with options makes one per call.
  const { compare } = new Intl.Collator('en', { sensitivity: 'base' });
  inventory.sort((a, b) => compare(a.group, b.group) || compare(a.name, b.name));
  attention.sort((a, b) => (a.status === b.status ? 0 : a.status === 'Alert' ? -1 : 1) || compare(a.group, b.group) || compare(a.computer, b.computer) || compare(a.plugin, b.plugin));
  const missing = inventory.filter((row) => row.missing).sort((a, b) => (a.lastReportMs ?? 0) - (b.lastReportMs ?? 0));

  const due: DueRow[] = [];
  const months = new Map<string, number>();
  for (let i = 0; i < 12; i++) months.set(monthOf(addMonths(nowMs, i)), 0);
  for (const expiration of expirations) {
    const at = parseTime(expiration.expires_at);
    if (at === undefined || at < nowMs) continue;
    const month = monthOf(at);
    if (months.has(month)) months.set(month, months.get(month)! + 1);
    if (at > nowMs + DUE_DAYS * 86_400_000) continue;
    const computer = byUid.get(uidOf(expiration.computer) ?? '');
    due.push({ what: dueWhat(expiration), computer: computer?.name ?? '', group: computer?.group ?? groupName(expiration.group, status), expiresMs: at });
  }
  // Expirations name their product by uid: the catalogue names them (one list, read only when something is due).
  if (due.length > 0) {
    const names = new Map<string, string>();
    for (const page of await readWhole(() => client.pages('expirationProducts.list', {}, { all: true, perPage: MAX_PER_PAGE }))) for (const product of page.items) names.set(text(product.uid), text(product.name));
    for (const row of due) row.what = names.get(row.what) ?? row.what;
  }
  due.sort((a, b) => a.expiresMs - b.expiresMs || a.what.localeCompare(b.what));

  const osCounts = new Map<string, number>();
  for (const row of inventory) osCounts.set(row.os || 'unknown', (osCounts.get(row.os || 'unknown') ?? 0) + 1);
  const bootUse = BOOT_BUCKETS.map(([label]) => [label, 0] as [string, number]);
  for (const row of inventory) {
    if (row.bootUsedPercent === undefined) continue;
    const at = BOOT_BUCKETS.findIndex(([, under]) => row.bootUsedPercent! < under);
    bootUse[at]![1]++;
  }
  return {
    account,
    nowMs,
    status,
    inventory,
    missing,
    attention,
    due,
    osVersions: [...osCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    bootUse,
    expiringByMonth: [...months],
    ...(sinceMs !== undefined && { since: { sinceMs, newComputers: inventory.filter((row) => row.registeredMs !== undefined && row.registeredMs >= sinceMs) } }),
  };
}

/** YYYY-MM in UTC. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}

function uidOf(ref: unknown): string | undefined {
  if (typeof ref === 'string') return ref;
  if (ref && typeof ref === 'object' && typeof (ref as Item).uid === 'string') return (ref as Item).uid as string;
  return undefined;
}

function groupName(ref: unknown, status: StatusReport): string {
  const uid = uidOf(ref);
  return status.groups.find((group) => group.uid === uid)?.name ?? '';
}

/** What an expiration is: its product (by uid until the catalogue names it), else its license key or uid. */
function dueWhat(expiration: Item): string {
  const product = expiration.expiration_product;
  if (product && typeof product === 'object' && text((product as Item).name)) return text((product as Item).name);
  return uidOf(product) || text(expiration.license_key) || text(expiration.uid);
}
