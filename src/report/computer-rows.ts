/**
 * One computer of the account as the report keeps it: its inventory row, its results that need
 * attention, and what its results say of security.
 */
import { isMissing, type ScopedComputer } from '../fleet/selection.js';
import { bootPercent, computerName, numberOf, text } from '../history/snapshot.js';
import { isHidden, isMuted } from '../model/plugin-result.js';
import { parseTime } from '../time/parse.js';

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

/** A plugin result as the report lists it, with its computer. */
interface ResultRow {
  computer: string;
  url: string | undefined;
  group: string;
  plugin: string;
  status: string;
  details: string;
}

/** A plugin result that needs attention: an unmuted, visible Alert or Warning. */
export interface AttentionRow extends ResultRow {
  lastRunMs: number | undefined;
}

/** One kind of security check, and the computers whose results of it are not OK. */
export interface SecurityCheck {
  kind: string;
  /** Computers with a result of this kind. */
  checked: number;
  ok: number;
  failing: (ResultRow & { muted: boolean })[];
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

/** Each kind of security check, none counted yet. */
export function securityTally(): Map<string, SecurityCheck> {
  return new Map(SECURITY_KINDS.map(([kind]) => [kind, { kind, checked: 0, ok: 0, failing: [] }]));
}

/** The computer's page on the service, for a link. */
const linkOf = (computer: Item): string | undefined => {
  const url = text(computer.computer_url);
  // Only a web address becomes a link: a value the API sends is not trusted to be one.
  return /^https?:\/\//i.test(url) ? url : undefined;
};

/** One computer as the inventory shows it. */
export function inventoryRow({ computer, group }: ScopedComputer): InventoryRow {
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
export function countSecurity(
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
      check.failing.push({ ...resultRow(row, result), muted: isMuted(result, nowSec) });
    }
  }
}

/** A computer's results that need attention: visible, not muted, Alert or Warning. */
export function attentionRows(row: InventoryRow, results: readonly Item[], nowSec: number): AttentionRow[] {
  return results
    .filter(
      (result) =>
        !isHidden(result) && !isMuted(result, nowSec) && (result.status === 'Alert' || result.status === 'Warning'),
    )
    .map((result) => ({ ...resultRow(row, result), lastRunMs: parseTime(result.last_run) }));
}

function resultRow(row: InventoryRow, result: Item): ResultRow {
  return {
    computer: row.name,
    url: row.url,
    group: row.group,
    plugin: text(result.name) || text(result.slug),
    status: text(result.status),
    details: firstLine(result),
  };
}
