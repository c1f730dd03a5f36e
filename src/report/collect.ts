/**
 * What `mon report` shows of one account, read once: the counts of `mon status` (the same
 * collectStatus, so the same numbers by construction) and, from the same pages, the details a
 * customer reads: the inventory, what needs attention, expirations due, and distributions for
 * the charts.
 */
import { MAX_PER_PAGE, readWhole, type ApiClient } from '../api/client.js';
import { collectStatus, type StatusReport } from '../fleet/status.js';
import { isMissing, type Scope, type ScopedComputer } from '../fleet/selection.js';
import { parseTime } from '../time/parse.js';
import { isHidden, isMuted } from '../model/plugin-result.js';
import { BOOT_BANDS, bootBand, bootPercent, computerName, numberOf, text } from '../history/snapshot.js';
import type { HistoryRecorder } from '../history/record.js';
import { endOfSupportOf, supportState, type EndOfSupport } from './end-of-support.js';

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
  model: string;
  serial: string;
  /** The API's estimated manufacture date. */
  manufacturedMs: number | undefined;
  /** Only where the warranty-lookup integration gives it. */
  warranty: string;
  lastUser: string;
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

/** One kind of security check, and the computers whose results of it are not OK. */
export interface SecurityCheck {
  kind: string;
  /** Computers with a result of this kind. */
  checked: number;
  ok: number;
  failing: {
    computer: string;
    url: string | undefined;
    group: string;
    plugin: string;
    status: string;
    details: string;
    muted: boolean;
  }[];
}

/** Which plugin results speak of security, by their name or slug. */
const SECURITY_KINDS: readonly [string, RegExp][] = [
  ['Disk encryption', /filevault|bitlocker|encrypt|luks/i],
  [
    'Antivirus and malware protection',
    /defender|antivirus|anti-virus|malware|xprotect|endpoint protection|sophos|crowdstrike|sentinel/i,
  ],
  ['Pending updates', /updates?\b|patch/i],
];

const DUE_DAYS = 90;
const FULL_PERCENT = 90;

const linkOf = (computer: Item): string | undefined => {
  const url = text(computer.computer_url);
  // Only a web address becomes a link: a value the API sends is not trusted to be one.
  return /^https?:\/\//i.test(url) ? url : undefined;
};

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
  const security = new Map<string, SecurityCheck>(
    SECURITY_KINDS.map(([kind]) => [kind, { kind, checked: 0, ok: 0, failing: [] }]),
  );
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
  attention.sort(
    (a, b) =>
      (a.status === b.status ? 0 : a.status === 'Alert' ? -1 : 1) ||
      compare(a.group, b.group) ||
      compare(a.computer, b.computer) ||
      compare(a.plugin, b.plugin),
  );
  const rowOf = (expiration: Item, at: number): DueRow => {
    const computer = byUid.get(uidOf(expiration.computer) ?? '');
    return {
      what: dueWhat(expiration),
      computer: computer?.name ?? '',
      group: computer?.group ?? groupName(expiration.group, status),
      expiresMs: at,
    };
  };
  const { due, expired, months } = await expirationRows(client, expirations, rowOf, nowMs);
  return {
    account,
    nowMs,
    status,
    inventory,
    missing: inventory.filter((row) => row.missing).sort((a, b) => (a.lastReportMs ?? 0) - (b.lastReportMs ?? 0)),
    attention,
    due,
    expired,
    fullVolumes: inventory
      .filter((row) => row.bootUsedPercent !== undefined && row.bootUsedPercent >= FULL_PERCENT)
      .sort((a, b) => b.bootUsedPercent! - a.bootUsedPercent! || compare(a.name, b.name)),
    endOfSupport: endOfSupportRows(inventory, nowMs),
    // By computer, then check: the order the API lists computers in is not the reader's.
    security: [...security.values()]
      .filter((check) => check.checked > 0)
      .map((check) => ({
        ...check,
        failing: check.failing.sort((a, b) => a.computer.localeCompare(b.computer) || a.plugin.localeCompare(b.plugin)),
      })),
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

/** One computer as the inventory shows it. */
function inventoryRow({ computer, group }: ScopedComputer): InventoryRow {
  return {
    name: computerName(computer),
    url: linkOf(computer),
    group: group?.name ?? '',
    platform: text(computer.platform) || 'unknown',
    os: text(computer.os_version),
    ram: text(computer.ram_installed),
    bootCapacityBytes: numberOf(computer.boot_volume_capacity_in_bytes),
    bootUsedPercent: bootPercent(computer),
    lastReportMs: parseTime(computer.last_report),
    registeredMs: parseTime(computer.registration_date) ?? parseTime(computer.created_at),
    missing: isMissing(computer),
    model: text(computer.model_name) || text(computer.product_description) || text(computer.model_identifier),
    serial: text(computer.serial_number),
    manufacturedMs: parseTime(computer.estimated_manufacture_date),
    warranty: text(computer.warranty_status),
    lastUser: text(computer.last_user),
  };
}

/** The first line of a result's details. */
const firstLine = (result: Item): string =>
  text(result.details)
    .trim()
    .split(/\r?\n|\r/)[0] ?? '';

/** Counts a computer's security results: each kind checked once per computer, its OK results, its failing ones. */
function countSecurity(
  security: Map<string, SecurityCheck>,
  row: InventoryRow,
  results: readonly Item[],
  nowSec: number,
): void {
  const seen = new Set<string>();
  for (const result of results) {
    if (isHidden(result)) continue;
    const named = `${text(result.name)} ${text(result.slug)}`;
    const kind = SECURITY_KINDS.find(([, pattern]) => pattern.test(named))?.[0];
    if (kind === undefined) continue;
    const check = security.get(kind)!;
    if (!seen.has(kind)) {
      seen.add(kind);
      check.checked++;
    }
    if (result.status === 'OK') check.ok++;
    else if (result.status === 'Alert' || result.status === 'Warning') {
      check.failing.push({
        computer: row.name,
        url: row.url,
        group: row.group,
        plugin: text(result.name) || text(result.slug),
        status: text(result.status),
        details: firstLine(result),
        muted: isMuted(result, nowSec),
      });
    }
  }
}

/** A computer's results that need attention: visible, not muted, Alert or Warning. */
function attentionRows(row: InventoryRow, results: readonly Item[], nowSec: number): AttentionRow[] {
  return results
    .filter(
      (result) =>
        !isHidden(result) && !isMuted(result, nowSec) && (result.status === 'Alert' || result.status === 'Warning'),
    )
    .map((result) => ({
      computer: row.name,
      url: row.url,
      group: row.group,
      plugin: text(result.name) || text(result.slug),
      status: text(result.status),
      details: firstLine(result),
      lastRunMs: parseTime(result.last_run),
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
