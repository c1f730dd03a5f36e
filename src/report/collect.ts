/**
 * What `mon report` shows of one account, read once: the counts of `mon status` (the same
 * collectStatus, so the same numbers by construction) and, from the same pages, the details a
 * customer reads: the inventory, what needs attention, expirations due, and distributions for
 * the charts.
 */
import { MAX_PER_PAGE, readWhole, type ApiClient } from '../api/client.js';
import { collectStatus, type StatusReport } from '../fleet/status.js';
import type { Scope } from '../fleet/selection.js';
import { parseTime } from '../time/parse.js';
import { BOOT_BANDS, bootBand, text } from '../history/snapshot.js';
import type { HistoryRecorder } from '../history/record.js';
import {
  attentionRows,
  countSecurity,
  inventoryRow,
  securityTally,
  type AttentionRow,
  type InventoryRow,
  type SecurityCheck,
} from './computer-rows.js';
import { endOfSupportOf, supportState, type EndOfSupport } from './end-of-support.js';

export type { AttentionRow, InventoryRow, SecurityCheck } from './computer-rows.js';

type Item = Record<string, unknown>;

/** An expiration due within the window, or one that has ended. */
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
  /** Expirations that have ended, the latest first (as many as status counts expired). */
  expired: DueRow[];
  /** Boot volumes at 90% and over, the fullest first. */
  fullVolumes: InventoryRow[];
  /** Systems past or near their vendor's end of support, the earliest end first. */
  endOfSupport: { system: EndOfSupport; state: 'past' | 'soon'; computers: InventoryRow[] }[];
  /** Security checks the plugin results carry (empty where they carry none). */
  security: SecurityCheck[];
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
const FULL_PERCENT = 90;

/** Reads the account once and keeps what the report shows. */
export async function collectReport(
  client: ApiClient,
  account: string,
  scope: Scope,
  nowMs: number,
  sinceMs: number | undefined,
  onPage?: (read: { computers: number; total?: number | undefined }) => void,
  history?: Pick<HistoryRecorder, 'computer' | 'expiration'>,
): Promise<ReportData> {
  const nowSec = Math.floor(nowMs / 1000);
  const inventory: InventoryRow[] = [];
  const attention: AttentionRow[] = [];
  const byUid = new Map<string, InventoryRow>();
  const expirations: Item[] = [];
  const security = securityTally();
  const status = await collectStatus(client, scope, nowMs, 30 * 86_400, {
    onPage,
    onComputer: (entry) => {
      history?.computer(entry);
      const row = inventoryRow(entry);
      inventory.push(row);
      byUid.set(text(entry.computer.uid), row);
      countSecurity(security, row, entry.results, nowSec);
      attention.push(...attentionRows(row, entry.results, nowSec));
    },
    onExpiration: (expiration) => {
      history?.expiration(expiration);
      expirations.push(expiration);
    },
  });
  // One collator for every comparison: localeCompare with options makes one per call.
  const { compare } = new Intl.Collator('en', { sensitivity: 'base' });
  inventory.sort((a, b) => compare(a.group, b.group) || compare(a.name, b.name));
  attention.sort(byAttention(compare));
  const { due, expired, months } = await expirationRows(client, expirations, dueRowOf(byUid, status), nowMs);
  return {
    account,
    nowMs,
    status,
    inventory,
    missing: inventory.filter((row) => row.missing).sort((a, b) => (a.lastReportMs ?? 0) - (b.lastReportMs ?? 0)),
    attention,
    due,
    expired,
    fullVolumes: fullVolumes(inventory, compare),
    endOfSupport: endOfSupportRows(inventory, nowMs),
    security: securityChecks(security),
    osVersions: osVersions(inventory),
    bootUse: bootUse(inventory),
    expiringByMonth: [...months],
    ...(sinceMs !== undefined && {
      since: {
        sinceMs,
        newComputers: inventory.filter((row) => row.registeredMs !== undefined && row.registeredMs >= sinceMs),
      },
    }),
  };
}

/** An expiration as a row, with its computer's name and group (else the expiration's group). */
function dueRowOf(byUid: Map<string, InventoryRow>, status: StatusReport): (expiration: Item, at: number) => DueRow {
  return (expiration, at) => {
    const computer = byUid.get(uidOf(expiration.computer) ?? '');
    return {
      what: dueWhat(expiration),
      computer: computer?.name ?? '',
      group: computer?.group ?? groupName(expiration.group, status),
      expiresMs: at,
    };
  };
}

/** Alerts before warnings, then by group, computer and check. */
function byAttention(compare: (a: string, b: string) => number): (a: AttentionRow, b: AttentionRow) => number {
  return (a, b) =>
    (a.status === b.status ? 0 : a.status === 'Alert' ? -1 : 1) ||
    compare(a.group, b.group) ||
    compare(a.computer, b.computer) ||
    compare(a.plugin, b.plugin);
}

/** The computers whose boot volume is FULL_PERCENT full or more, fullest first. */
function fullVolumes(inventory: readonly InventoryRow[], compare: (a: string, b: string) => number): InventoryRow[] {
  return inventory
    .filter((row) => row.bootUsedPercent !== undefined && row.bootUsedPercent >= FULL_PERCENT)
    .sort((a, b) => b.bootUsedPercent! - a.bootUsedPercent! || compare(a.name, b.name));
}

/** The security checks some computer has, each with its failing results by computer, then check. */
function securityChecks(security: Map<string, SecurityCheck>): SecurityCheck[] {
  // The order the API lists computers in is not the reader's.
  return [...security.values()]
    .filter((check) => check.checked > 0)
    .map((check) => ({
      ...check,
      failing: check.failing.sort((a, b) => a.computer.localeCompare(b.computer) || a.plugin.localeCompare(b.plugin)),
    }));
}

/** The expirations due within DUE_DAYS and those expired, named by the catalogue; the count per month of the next twelve. */
async function expirationRows(
  client: ApiClient,
  expirations: readonly Item[],
  rowOf: (expiration: Item, at: number) => DueRow,
  nowMs: number,
): Promise<{ due: DueRow[]; expired: DueRow[]; months: Map<string, number> }> {
  const due: DueRow[] = [];
  const expired: DueRow[] = [];
  const months = new Map<string, number>();
  for (let i = 0; i < 12; i++) months.set(monthOf(addMonths(nowMs, i)), 0);
  for (const expiration of expirations) {
    const at = parseTime(expiration.expires_at);
    if (at === undefined) continue;
    // Before now, as status counts it expired.
    if (at < Math.floor(nowMs / 1000) * 1000) {
      expired.push(rowOf(expiration, at));
      continue;
    }
    if (at < nowMs) continue;
    const month = monthOf(at);
    if (months.has(month)) months.set(month, months.get(month)! + 1);
    if (at > nowMs + DUE_DAYS * 86_400_000) continue;
    due.push(rowOf(expiration, at));
  }
  // Expirations name their product by uid: the catalogue names them (one list, read only when something is shown).
  if (due.length > 0 || expired.length > 0) {
    const names = new Map<string, string>();
    for (const page of await readWhole(() =>
      client.pages('expirationProducts.list', {}, { all: true, perPage: MAX_PER_PAGE }),
    ))
      for (const product of page.items) names.set(text(product.uid), text(product.name));
    for (const row of [...due, ...expired]) row.what = names.get(row.what) ?? row.what;
  }
  due.sort((a, b) => a.expiresMs - b.expiresMs || a.what.localeCompare(b.what));
  expired.sort((a, b) => b.expiresMs - a.expiresMs || a.what.localeCompare(b.what));
  return { due, expired, months };
}

/** The computers on a system past or near its end of support, by system, soonest end first. */
function endOfSupportRows(inventory: readonly InventoryRow[], nowMs: number): ReportData['endOfSupport'] {
  const eos = new Map<EndOfSupport, { system: EndOfSupport; state: 'past' | 'soon'; computers: InventoryRow[] }>();
  for (const row of inventory) {
    const system = endOfSupportOf(row.os);
    const state = system && supportState(system, nowMs);
    if (!system || !state) continue;
    let entry = eos.get(system);
    if (!entry) eos.set(system, (entry = { system, state, computers: [] }));
    entry.computers.push(row);
  }
  return [...eos.values()].sort((a, b) => a.system.ends.localeCompare(b.system.ends));
}

/** How many computers run each OS version, most first. */
function osVersions(inventory: readonly InventoryRow[]): [string, number][] {
  const osCounts = new Map<string, number>();
  for (const row of inventory) osCounts.set(row.os || 'unknown', (osCounts.get(row.os || 'unknown') ?? 0) + 1);
  return [...osCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** How many computers' boot volumes fall in each band of use. */
function bootUse(inventory: readonly InventoryRow[]): [string, number][] {
  const bands = BOOT_BANDS.map(([label]) => [label, 0] as [string, number]);
  for (const row of inventory) {
    if (row.bootUsedPercent === undefined) continue;
    const band = bootBand(row.bootUsedPercent);
    bands.find(([label]) => label === band)![1]++;
  }
  return bands;
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
