/**
 * A computer and its plugin results, made from its plan. Every value comes from the PRNG in a
 * fixed order: what the record is made from is drawn first (draft), then the record's own
 * values in the order its fields are listed, so the same seed gives the same computer, byte
 * for byte.
 */
import type { AccountId, ComputerRec, GroupRec, MuteRec, Platform, PluginStatus } from '../model.js';
import type { Prng } from '../prng.js';
import { DAY, GB, HOUR, type SeedContext } from './context.js';
import type { GroupSpec } from './groups.js';
import {
  LINUX_MODELS,
  LINUX_OS,
  MAC_MODELS,
  MAC_OS,
  type ModelSpec,
  type OsSpec,
  WINDOWS_MODELS,
  WINDOWS_OS,
} from './models.js';
import { FIRST, LAST } from './names.js';
import type { Plan } from './plan.js';
import { PLUGIN_POOLS } from './plugins.js';
import type { Health } from './shares.js';
import { ascii, mac, serialFor, uptime } from './values.js';

/** What the fields of a computer record are made from, drawn before the record is written out. */
interface Draft {
  rng: Prng;
  account: AccountId;
  i: number;
  group: GroupRec;
  spec: GroupSpec;
  plan: Plan;
  platform: Platform;
  isServer: boolean;
  model: ModelSpec;
  os: OsSpec;
  first: string;
  last: string;
  user: string;
  computerName: string;
  reporting: Reporting;
  created: number;
  ram: number;
  disk: number;
  used: number;
  manufactured: number;
  apple: boolean;
  warrantyActive: boolean;
  serial: string | null;
}

/** Half mac, 30 % windows, 20 % linux by index; a model of the platform and an OS that model runs. */
function pickHardware(rng: Prng, i: number): { platform: Platform; model: ModelSpec; os: OsSpec } {
  const bucket = i % 10;
  const platform: Platform = bucket < 5 ? 'mac' : bucket < 8 ? 'windows' : 'linux';
  const model = rng.pick(platform === 'mac' ? MAC_MODELS : platform === 'windows' ? WINDOWS_MODELS : LINUX_MODELS);
  let os = rng.pick(platform === 'mac' ? MAC_OS : platform === 'windows' ? WINDOWS_OS : LINUX_OS);
  if (platform === 'mac' && model.osMax === '13.7.1') os = MAC_OS[3] ?? os;
  if (platform === 'windows' && model.osMax === '10.0.19045') os = WINDOWS_OS[2] ?? os;
  return { platform, model, os };
}

/** `Chloé’s MacBook Pro` or `ACME iMac 007`, `NWC-LT-006`, `sum-srv-012`. */
function computerName(platform: Platform, model: ModelSpec, spec: GroupSpec, first: string, i: number): string {
  const seq = String(i + 1).padStart(3, '0');
  if (platform === 'mac') {
    const short = model.name.replace(/ \(.*$/, '');
    return model.laptop ? `${first}’s ${short}` : `${spec.code} ${short} ${seq}`;
  }
  if (platform === 'windows') return `${spec.code}-${model.laptop ? 'LT' : 'WS'}-${seq}`;
  return `${spec.code.toLowerCase()}-srv-${seq}`;
}

interface Reporting {
  reportMissingAfter: number;
  watched: boolean;
  lastReport: number;
}

/** Last reports: reporting computers within the last two days; the health state decides the rest. */
function reportingFor(rng: Prng, now: number, plan: Plan, isServer: boolean): Reporting {
  let reportMissingAfter = rng.chance(0.1) ? 14 : 7;
  let watched = !(isServer && rng.chance(0.2));
  let lastReport: number;
  switch (plan.health) {
    case 'missing':
      watched = true;
      // one in four has a short tolerance of its own: missing after 3 days, silent for 4 to 6
      if (plan.rank % 4 === 0) {
        reportMissingAfter = 3;
        lastReport = now - 4 * DAY - rng.int(0, 2 * DAY);
      } else {
        reportMissingAfter = 7;
        lastReport = now - 8 * DAY - rng.int(0, 45 * DAY);
      }
      break;
    case 'tolerated':
      // silent for 8 to 12 days, within its own 14-day tolerance: not missing
      watched = true;
      reportMissingAfter = 14;
      lastReport = now - rng.int(8, 12) * DAY - rng.int(0, DAY - 1);
      break;
    case 'silent':
      // silent for weeks but not watched: never missing
      watched = false;
      lastReport = now - rng.int(10, 30) * DAY;
      break;
    default:
      lastReport = now - Math.floor(rng.next() ** 2 * 2 * DAY) - rng.int(30, 600);
  }
  return { reportMissingAfter, watched, lastReport };
}

/** Draws everything the record is made from, in the PRNG's order. */
function draft(ctx: SeedContext, account: AccountId, i: number, group: GroupRec, spec: GroupSpec, plan: Plan): Draft {
  const { rng, now } = ctx;
  const { platform, model, os } = pickHardware(rng, i);
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const user = ascii(`${first}.${last}`.toLowerCase());
  const isServer = platform === 'linux';
  const reporting = reportingFor(rng, now, plan, isServer);
  const created = Math.min(reporting.lastReport - DAY, now - rng.int(30, 480) * DAY);
  const ram = rng.pick(model.ramGb);
  const disk = rng.pick(model.diskGb) * GB;
  const used = Math.floor(disk * (0.18 + rng.next() * 0.78));
  const manufactured = Date.UTC(model.year, rng.int(0, 11), rng.int(1, 28)) / 1000;
  return {
    rng,
    account,
    i,
    group,
    spec,
    plan,
    platform,
    isServer,
    model,
    os,
    first,
    last,
    user,
    computerName: computerName(platform, model, spec, first, i),
    reporting,
    created,
    ram,
    disk,
    used,
    manufactured,
    apple: model.serial === 'apple',
    warrantyActive: manufactured > now - 3 * 365 * DAY,
    serial: serialFor(rng, model.serial),
  };
}

/** `Desk 12. Shared login.` on one computer in seven, else null. */
function deskNote(rng: Prng, i: number, isServer: boolean): string | null {
  if (i % 7 !== 0) return null;
  const place = isServer ? `Rack 2, unit ${String(rng.int(1, 40))}` : `Desk ${String(rng.int(1, 60))}`;
  return `${place}. ${rng.pick(['Shared login.', 'Do not reboot during office hours.', 'Loaner while the usual machine is repaired.', 'Handle with care: customer data.'])}`;
}

/** `MacBook Pro M1 Pro/16GB/512GB` for an Apple model, else null. */
function appleConfig(rng: Prng, d: Draft): string | null {
  const { model, ram } = d;
  if (!d.apple) return null;
  return `${model.name.replace(/ \(.*$/, '')} ${model.processor.replace(/^Apple /, '')}/${ram}GB/${rng.pick(model.diskGb)}GB`;
}

/**
 * The record: one object literal in the order of the fields, so that every record has the same
 * shape (spreading groups of fields costs V8 about fifteen times as much) and the PRNG is read
 * in the order the fields are listed.
 */
function record(d: Draft): ComputerRec {
  const { rng, i, platform, isServer, model, os, spec, plan, apple, warrantyActive, manufactured, ram } = d;
  return {
    uid: rng.uid('c_'),
    account: d.account,
    client_id: rng.uuid(),
    description: deskNote(rng, i, isServer),
    agent_version: rng.pick(['4.3.2', '4.3.2', '4.3.1', '4.2.7']),
    last_report: d.reporting.lastReport,
    last_update: d.reporting.lastReport,
    registration_date: d.created,
    created_at: d.created,
    group: d.group.uid,
    computer_name: d.computerName,
    // every other custom name carries an apostrophe, which scripts must quote
    custom_name:
      i % 9 === 4 ? `${d.first} ${i % 18 === 13 ? "D'Amico" : d.last} (${model.laptop ? 'laptop' : 'desk'})` : null,
    reference_email: i % 4 === 1 ? `${d.user}@${spec.domain}` : null,
    last_user: isServer ? rng.pick(['root', 'deploy', null]) : d.user,
    serial_number: d.serial,
    os_version: os.name,
    os_version_number: os.number,
    os_version_number_max: model.osMax,
    model_identifier: model.id,
    model_name: model.name,
    product_description: model.name,
    estimated_manufacture_date: manufactured,
    care_eligibility: apple ? warrantyActive : null,
    warranty_status: apple ? (warrantyActive ? 'AppleCare+ active' : 'Out of warranty') : null,
    estimated_purchase_date: apple ? manufactured + rng.int(20, 120) * DAY : null,
    config_description: appleConfig(rng, d),
    ram_installed: `${ram} GB`,
    ram_installed_in_bytes: String(ram * 1024 ** 3),
    ram_speed: model.ramSpeed,
    ram_upgradeable: model.upgradeable,
    ram_max_maker: model.ramMax,
    ram_max_actual: model.ramMax,
    boot_volume_capacity_in_bytes: d.disk,
    boot_volume_usage_in_bytes: d.used,
    processor: model.processor,
    current_uptime: uptime(rng),
    smc_version: model.smc,
    primary_ip: isServer
      ? `10.20.${rng.int(0, 3)}.${rng.int(10, 250)}`
      : `192.168.${rng.int(1, 20)}.${rng.int(20, 250)}`,
    active_mac_address: mac(rng, platform === 'mac' ? 'a4:83:e7' : isServer ? 'b8:ca:3a' : '3c:22:fb'),
    system_mac_address: mac(rng, platform === 'mac' ? 'f0:18:98' : '00:50:56'),
    asset_id: i % 3 === 0 ? `${spec.code}-${String(1000 + i)}` : null,
    ard_field_1: platform === 'mac' && i % 4 === 0 ? spec.code : null,
    ard_field_2: platform === 'mac' && i % 4 === 0 ? (model.laptop ? 'Laptop' : 'Desktop') : null,
    ard_field_3: null,
    ard_field_4: null,
    remote_a_id: i % 5 === 1 ? String(rng.int(100_000_000, 1_999_999_999)) : null,
    remote_a_release: i % 5 === 1 ? '15' : null,
    remote_a_unattended: i % 5 === 1 ? rng.chance(0.5) : null,
    remote_b_url: i % 11 === 2 ? `https://remote-b.example/connect/${rng.hex(12)}` : null,
    remote_c_url: null,
    remote_d_url: null,
    mdm_computer_id: platform === 'mac' ? String(rng.int(100, 9999)) : null,
    mdm_url: platform === 'mac' ? `https://mdm.${spec.domain}/computers/${rng.int(100, 9999)}` : null,
    pkgmgr_identifier: platform === 'mac' && i % 3 !== 2 ? `${spec.code.toLowerCase()}-standard` : null,
    internal_notes: i % 10 === 6 ? 'Keyboard replaced under warranty.' : null,
    public_notes: i % 13 === 3 ? 'Call the front desk before any maintenance.' : null,
    updates_enabled: i % 23 !== 5,
    settings_enabled: true,
    report_if_missing: d.reporting.watched,
    report_missing_after: d.reporting.reportMissingAfter,
    ignore_missing_until: null,
    rekey_requested: plan.rekey,
    pending_removal: plan.pendingRemoval,
    agent_removed: plan.agentRemoved,
    has_issue: plan.health === 'alert',
    hidden: plan.hidden || spec.hidden,
    platform,
    beacon_reporting: i % 10 === 0,
    beacon_missing_threshold_in_minutes: i % 10 === 0 ? 15 : 5,
    create_ticket_on_beacon_found: i % 20 === 0,
  };
}

export function makeComputer(
  ctx: SeedContext,
  account: AccountId,
  i: number,
  group: GroupRec,
  spec: GroupSpec,
  plan: Plan,
): ComputerRec {
  return record(draft(ctx, account, i, group, spec, plan));
}

/** Health states whose computer carries no problem on a plugin. */
const NO_PROBLEM: ReadonlySet<Health> = new Set(['ok', 'missing', 'tolerated', 'silent']);

/** The status and mute of the one plugin that carries the computer's problem; `status` as drawn otherwise. */
function problem(
  ctx: SeedContext,
  health: Health,
  status: PluginStatus,
): { status: PluginStatus; mute: MuteRec | null } {
  const { rng, now } = ctx;
  switch (health) {
    case 'alert':
      return { status: 'Alert', mute: null };
    case 'warning':
      return { status: 'Warning', mute: null };
    case 'expired_mute':
      // muted for a while, the mute has run out: reads as an unmuted Warning
      return { status: 'Warning', mute: { type: 'timed', until: now - rng.int(1, 10) * DAY, ticket_url: null } };
    case 'muted_timed': {
      const muted = rng.chance(0.5) ? 'Alert' : 'Warning';
      return { status: muted, mute: { type: 'timed', until: now + rng.int(1, 14) * DAY + 6 * HOUR, ticket_url: null } };
    }
    case 'muted_ticket': {
      const muted = rng.chance(0.5) ? 'Alert' : 'Warning';
      const ticket = String(rng.int(4100, 9999));
      return {
        status: muted,
        mute: { type: 'ticket', ticket_number: ticket, ticket_url: `https://helpdesk.example/tickets/${ticket}` },
      };
    }
    case 'muted_ignored':
      return { status: rng.chance(0.5) ? 'Alert' : 'Warning', mute: { type: 'ignored' } };
    default:
      return { status, mute: null };
  }
}

export function makePluginResults(ctx: SeedContext, computer: ComputerRec, plan: Plan): void {
  const { rng } = ctx;
  const pool = PLUGIN_POOLS[computer.platform];
  const count = rng.int(3, Math.min(8, pool.length));
  // stable partial shuffle: keep the catalogue order in the output
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(rng.int(0, pool.length - 1));
  const service = pool.findIndex((p) => !p.visible);
  if (plan.serviceWarning && service >= 0) chosen.add(service);
  const visible = [...chosen].filter((k) => pool[k]?.visible).sort((a, b) => a - b);
  // the one plugin that carries the computer's problem, if it has one
  const problemAt = NO_PROBLEM.has(plan.health) ? -1 : rng.pick(visible);
  for (let k = 0; k < pool.length; k++) {
    if (!chosen.has(k)) continue;
    const spec = pool[k];
    if (!spec) continue;
    const drawn: PluginStatus = rng.chance(0.1) ? 'Informational' : 'OK';
    const { status, mute } = !spec.visible
      ? { status: plan.serviceWarning ? ('Warning' as const) : ('OK' as const), mute: null }
      : k === problemAt
        ? problem(ctx, plan.health, drawn)
        : { status: drawn, mute: null };
    ctx.pluginResults.push({
      uid: rng.uid('pr_'),
      account: computer.account,
      computer: computer.uid,
      name: spec.name,
      slug: spec.slug,
      status,
      details: spec.details[status],
      last_run: computer.last_report - rng.int(0, 2 * HOUR),
      visible: spec.visible,
      mute,
    });
  }
}
