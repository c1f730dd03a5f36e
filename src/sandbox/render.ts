/**
 * Records to API objects: derived fields are computed here with the request's clock, and
 * expand (api-v2.5 conventions 8) replaces uids by objects, dotted keys nesting.
 */
import {
  DASHBOARD_URL,
  type CatalogRec,
  type ComputerRec,
  type ExpirationRec,
  type GroupRec,
  type MuteRec,
  type NoteRec,
  type PluginResultRec,
  type UserRec,
} from './model.js';
import type { Store } from './store.js';

const DAY = 86_400;
const GB = 1_000_000_000;

/** Installers are ready this long after they were requested (api-v2.5, Group installers). */
export const MAC_INSTALLER_DELAY_MS = 20_000;
export const WINDOWS_INSTALLER_DELAY_MS = 60_000;

/** expand[]=computer.plugin_results,group -> { computer: { plugin_results: {} }, group: {} } */
export type ExpandTree = Map<string, ExpandTree>;

export function parseExpand(values: readonly string[]): ExpandTree {
  const root: ExpandTree = new Map();
  for (const value of values) {
    for (const key of value.split(',')) {
      let node = root;
      for (const part of key.trim().split('.')) {
        if (part === '') continue;
        let child = node.get(part);
        if (!child) {
          child = new Map();
          node.set(part, child);
        }
        node = child;
      }
    }
  }
  return root;
}

const NO_EXPAND: ExpandTree = new Map();

export interface RenderCtx {
  store: Store;
  nowMs: number;
  nowSec: number;
  /** computed once per request on first use: visible/hidden computer counts per group */
  counts?: Map<string, { visible: number; hidden: number }>;
}

/** missing: report_if_missing and no report within report_missing_after days (api-v2.5, Computer flags). */
export function isMissing(c: ComputerRec, nowSec: number): boolean {
  if (!c.report_if_missing) return false;
  if (c.ignore_missing_until !== null && nowSec < c.ignore_missing_until) return false;
  return nowSec - c.last_report > c.report_missing_after * DAY;
}

/** The mute in force: a timed mute whose end has passed no longer counts. */
export function activeMute(pr: PluginResultRec, nowSec: number): MuteRec | null {
  const mute = pr.mute;
  if (mute === null) return null;
  if (mute.type === 'timed' && mute.until <= nowSec) return null;
  return mute;
}

function groupCounts(ctx: RenderCtx): Map<string, { visible: number; hidden: number }> {
  if (ctx.counts) return ctx.counts;
  const counts = new Map<string, { visible: number; hidden: number }>();
  for (const c of ctx.store.computers.items) {
    let entry = counts.get(c.group);
    if (!entry) {
      entry = { visible: 0, hidden: 0 };
      counts.set(c.group, entry);
    }
    if (c.hidden) entry.hidden++;
    else entry.visible++;
  }
  ctx.counts = counts;
  return counts;
}

export function renderGroup(ctx: RenderCtx, g: GroupRec): Record<string, unknown> {
  const counts = groupCounts(ctx).get(g.uid) ?? { visible: 0, hidden: 0 };
  const built = g.installers_requested_at_ms;
  const base = `${DASHBOARD_URL}/installers/${g.slug}`;
  return {
    uid: g.uid,
    slug: g.slug,
    name: g.name,
    description: g.description,
    group_url: `${DASHBOARD_URL}/groups/${g.slug}`,
    reference_email: g.reference_email,
    contact_email: g.reference_email,
    hidden: g.hidden,
    show_contact_menu: g.show_contact_menu,
    visible_computer_count: counts.visible,
    hidden_computer_count: counts.hidden,
    mac_installer_ready: built !== null && ctx.nowMs >= built + MAC_INSTALLER_DELAY_MS,
    mac_installer_url: built === null ? null : `${base}/MonitoringAgent-${g.slug}.pkg`,
    windows_installer_ready: built !== null && ctx.nowMs >= built + WINDOWS_INSTALLER_DELAY_MS,
    windows_installer_url: built === null ? null : `${base}/MonitoringAgent-${g.slug}.msi`,
    created_at: g.created_at,
  };
}

/** A decimal as the service renders it: a JSON string, at least one digit after the point ("30.33", "30.0"). */
export function decimal(n: number): string {
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

function humanBytes(bytes: number | null): string | null {
  if (bytes === null) return null;
  return bytes >= 1000 * GB ? `${(bytes / (1000 * GB)).toFixed(2)} TB` : `${(bytes / GB).toFixed(2)} GB`;
}

/**
 * A computer as the API answers it: one object literal, the fields in the API's order, a table
 * more than code. Kept whole: built from spread groups of fields it cost V8 about fifteen times
 * as much, on the path every computer list takes.
 */
export function renderComputer(
  ctx: RenderCtx,
  c: ComputerRec,
  expand: ExpandTree = NO_EXPAND,
): Record<string, unknown> {
  const group = ctx.store.groups.get(c.group);
  const refGroup = group?.reference_email ?? null;
  const reference = c.reference_email ?? refGroup;
  const capacity = c.boot_volume_capacity_in_bytes;
  const usage = c.boot_volume_usage_in_bytes;
  const out: Record<string, unknown> = {
    uid: c.uid,
    client_id: c.client_id,
    svc_id: c.client_id,
    description: c.description,
    agent_version: c.agent_version,
    build_number: c.agent_version,
    last_report: c.last_report,
    last_update: c.last_update,
    registration_date: c.registration_date,
    created_at: c.created_at,
    group: c.group,
    computer_name: c.computer_name,
    custom_name: c.custom_name,
    computer_url: `${DASHBOARD_URL}/computers/${c.uid}`,
    reference_email: reference,
    contact_email: reference,
    reference_email_computer: c.reference_email,
    reference_email_group: refGroup,
    last_user: c.last_user,
    serial_number: c.serial_number,
    os_version: c.os_version,
    os_version_number: c.os_version_number,
    os_version_number_max: c.os_version_number_max,
    model_identifier: c.model_identifier,
    model_name: c.model_name,
    maker_product_description: c.product_description,
    product_description: c.product_description,
    estimated_manufacture_date: c.estimated_manufacture_date,
    care_eligibility: c.care_eligibility,
    warranty_status: c.warranty_status,
    estimated_purchase_date: c.estimated_purchase_date,
    config_description: c.config_description,
    ram_installed: c.ram_installed,
    ram_installed_in_bytes: c.ram_installed_in_bytes,
    ram_speed: c.ram_speed,
    ram_upgradeable: c.ram_upgradeable,
    ram_max_maker: c.ram_max_maker,
    ram_max_actual: c.ram_max_actual,
    boot_volume_capacity_in_bytes: capacity,
    boot_volume_usage_in_bytes: usage,
    boot_volume_capacity: humanBytes(capacity),
    boot_volume_usage: humanBytes(usage),
    boot_volume_usage_percent:
      capacity && usage !== null ? decimal(Math.round((usage / capacity) * 10_000) / 100) : null,
    processor: c.processor,
    current_uptime: c.current_uptime,
    smc_version: c.smc_version,
    primary_ip: c.primary_ip,
    active_mac_address: c.active_mac_address,
    system_mac_address: c.system_mac_address,
    asset_id: c.asset_id,
    // the samples' spelling (the field table writes ard_field_1): README, Payload forms
    ard_field1: c.ard_field_1,
    ard_field2: c.ard_field_2,
    ard_field3: c.ard_field_3,
    ard_field4: c.ard_field_4,
    remote_a_id: c.remote_a_id,
    remote_a_release: c.remote_a_release,
    remote_a_unattended: c.remote_a_unattended,
    remote_b_url: c.remote_b_url,
    remote_c_url: c.remote_c_url,
    remote_d_url: c.remote_d_url,
    mdm_computer_id: c.mdm_computer_id,
    mdm_url: c.mdm_url,
    pkgmgr_identifier: c.pkgmgr_identifier,
    internal_notes: c.internal_notes,
    public_notes: c.public_notes,
    updates_enabled: c.updates_enabled,
    settings_enabled: c.settings_enabled,
    report_if_missing: c.report_if_missing,
    report_missing_after: c.report_missing_after,
    ignore_missing_until: c.ignore_missing_until,
    rekey_requested: c.rekey_requested,
    pending_removal: c.pending_removal,
    agent_removed: c.agent_removed,
    has_issue: c.has_issue,
    missing: isMissing(c, ctx.nowSec),
    hidden: c.hidden,
    platform: c.platform,
    beacon_reporting: c.beacon_reporting,
    beacon_missing_threshold_in_minutes: c.beacon_missing_threshold_in_minutes,
    create_ticket_on_beacon_found: c.create_ticket_on_beacon_found,
  };
  const groupExpand = expand.get('group');
  if (groupExpand) out.group = group ? renderGroup(ctx, group) : null;
  if (expand.has('plugin_results')) {
    out.plugin_results = ctx.store.resultsOf(c.uid).map((pr) => renderPluginResult(ctx, pr));
  }
  return out;
}

function utcMinute(sec: number): string {
  return `${new Date(sec * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Mute fields follow the field table: mute_description only when muted, ticket_number and
 * ticket_url only for ticket_muted, mute_until (and the sample's muted_until) only for
 * timed_mute; mute_type null when unmuted.
 */
export function renderPluginResult(ctx: RenderCtx, pr: PluginResultRec): Record<string, unknown> {
  const mute = activeMute(pr, ctx.nowSec);
  const out: Record<string, unknown> = {
    uid: pr.uid,
    name: pr.name,
    slug: pr.slug,
    status: pr.status,
    details: pr.details,
    last_run: pr.last_run,
    muted: mute !== null,
    mute_type: null,
  };
  if (mute?.type === 'ignored') {
    out.mute_type = 'muted_forever';
    out.mute_description = 'Muted forever';
  } else if (mute?.type === 'timed') {
    out.mute_type = 'timed_mute';
    out.mute_description = `Muted until ${utcMinute(mute.until)}`;
    out.mute_until = mute.until;
    // the field table's name and a sample's name for the same end time: README, Payload forms
    out.muted_until = mute.until;
  } else if (mute?.type === 'ticket') {
    out.mute_type = 'ticket_muted';
    out.mute_description = `Muted with ticket #${mute.ticket_number}`;
    out.ticket_number = mute.ticket_number;
    out.ticket_url = mute.ticket_url;
  }
  out.visible = pr.visible;
  return out;
}

export function renderCatalog(item: CatalogRec): Record<string, unknown> {
  return { uid: item.uid, slug: item.slug, name: item.name, created_at: item.created_at };
}

export function renderExpiration(
  ctx: RenderCtx,
  e: ExpirationRec,
  expand: ExpandTree = NO_EXPAND,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uid: e.uid,
    license_key: e.license_key,
    expires_at: e.expires_at,
    expiration_manufacturer: e.expiration_manufacturer,
    expiration_product: e.expiration_product,
    group: e.group,
    computer: e.computer,
    renewable: e.renewable,
    notes: e.notes,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
  // A dangling reference (the product was deleted since) expands to null: an unknown fact.
  if (expand.get('expiration_manufacturer')) {
    const m = ctx.store.expirationManufacturers.get(e.expiration_manufacturer);
    out.expiration_manufacturer = m ? renderCatalog(m) : null;
  }
  if (expand.get('expiration_product')) {
    const p = ctx.store.expirationProducts.get(e.expiration_product);
    out.expiration_product = p ? renderCatalog(p) : null;
  }
  expandOwner(ctx, out, e, expand);
  return out;
}

export function renderNote(ctx: RenderCtx, n: NoteRec, expand: ExpandTree = NO_EXPAND): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uid: n.uid,
    computer: n.computer,
    group: n.group,
    body: n.body,
    created_at: n.created_at,
    private: n.private,
    include_in_email: n.include_in_email,
    include_in_report: n.include_in_report,
  };
  expandOwner(ctx, out, n, expand);
  return out;
}

/** The group or computer an expiration or a note belongs to, expanded; a deleted one is null. */
function expandOwner(
  ctx: RenderCtx,
  out: Record<string, unknown>,
  owned: { group: string | null; computer: string | null },
  expand: ExpandTree,
): void {
  if (expand.get('group') && owned.group !== null) {
    const g = ctx.store.groups.get(owned.group);
    out.group = g ? renderGroup(ctx, g) : null;
  }
  const computer = expand.get('computer');
  if (computer && owned.computer !== null) {
    const c = ctx.store.computers.get(owned.computer);
    out.computer = c ? renderComputer(ctx, c, computer) : null;
  }
}

/** restricted_group_uids only for employees, permitted_group_uids only for end users. */
export function renderUser(u: UserRec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uid: u.uid,
    email: u.email,
    firstname: u.firstname,
    lastname: u.lastname,
    tfa_status: u.tfa_status,
    role: u.role,
    can_edit_contact_menu: u.can_edit_contact_menu,
    can_access_billing: u.can_access_billing,
    last_subdomain: u.last_subdomain,
    last_signin: u.last_signin,
    created_at: u.created_at,
  };
  if (u.role === 'employee') out.restricted_group_uids = u.restricted_group_uids ?? [];
  else out.permitted_group_uids = u.permitted_group_uids ?? [];
  return out;
}
