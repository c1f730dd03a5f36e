/**
 * Deterministic demo data. The same seed, computer count and clock give the same state, byte
 * for byte. Times are placed "around today" relative to the clock at seeding time.
 *
 * Flags are spread by index (not only by chance) so that even the default 40 computers hold
 * every case: missing, hidden, pending removal, re-key, issues, each mute type, each status.
 */
import {
  OTHER_ACCOUNT,
  PRIMARY_ACCOUNT,
  STATE_FORMAT,
  STATE_VERSION,
  type AccountId,
  type CatalogRec,
  type ComputerRec,
  type ExpirationRec,
  type GroupRec,
  type MuteRec,
  type NoteRec,
  type Platform,
  type PluginResultRec,
  type PluginStatus,
  type StateData,
  type UserRec,
} from './model.js';
import { Prng, slugify } from './prng.js';

const DAY = 86_400;
const HOUR = 3_600;
const GB = 1_000_000_000;

export interface SeedOptions {
  seed: number;
  computers: number;
  nowMs: number;
}

interface GroupSpec {
  name: string;
  domain: string;
  code: string;
  description: string | null;
  hidden: boolean;
}

const PRIMARY_GROUPS: GroupSpec[] = [
  { name: 'Acme Design', domain: 'acmedesign.example', code: 'ACME', description: 'Design studio, two floors. Contact Dana before rebooting render nodes.', hidden: false },
  { name: 'Northwind Clinic', domain: 'northwindclinic.example', code: 'NWC', description: 'Medical practice: front desk, exam rooms and the records server.', hidden: false },
  { name: 'Blue Harbor Legal', domain: 'blueharborlegal.example', code: 'BHL', description: null, hidden: false },
  { name: 'Summit Engineering', domain: 'summit-eng.example', code: 'SUM', description: 'Build servers and engineering workstations.', hidden: false },
  { name: 'Old Office (retired)', domain: 'acmedesign.example', code: 'OLD', description: 'Machines from the closed Elm Street office, kept for reference.', hidden: true },
];

const FIRST = ['Anna', 'Ben', 'Chloé', 'David', 'Emma', 'Farid', 'Grace', 'Hiro', 'Inès', 'Jonas', 'Kofi', 'Lena', 'Mateo', 'Nora', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Yara', 'Zoe'];
const LAST = ['Berg', 'Okafor', 'Martin', 'Nakamura', 'Silva', 'Haddad', 'Kowalski', 'Nguyen', 'Larsen', 'Moreau', 'Patel', 'Schmidt', 'Rossi', 'Andersen', 'García', 'Kim'];

interface ModelSpec {
  id: string;
  name: string;
  processor: string;
  year: number;
  /** newest supported OS, '0.0.0' = supports the latest release */
  osMax: string;
  ramGb: number[];
  diskGb: number[];
  upgradeable: boolean;
  ramSpeed: string | null;
  ramMax: string | null;
  smc: string | null;
  serial: 'apple' | 'dell' | 'lenovo' | 'hp' | 'microsoft' | 'vm';
  laptop: boolean;
}

const MAC_MODELS: ModelSpec[] = [
  { id: 'MacBookPro18,3', name: 'MacBook Pro (14-inch, 2021)', processor: 'Apple M1 Pro', year: 2021, osMax: '0.0.0', ramGb: [16, 32], diskGb: [512, 1000], upgradeable: false, ramSpeed: 'LPDDR5', ramMax: null, smc: null, serial: 'apple', laptop: true },
  { id: 'MacBookPro18,1', name: 'MacBook Pro (16-inch, 2021)', processor: 'Apple M1 Pro', year: 2021, osMax: '0.0.0', ramGb: [16, 32], diskGb: [512, 1000], upgradeable: false, ramSpeed: 'LPDDR5', ramMax: null, smc: null, serial: 'apple', laptop: true },
  { id: 'Mac15,3', name: 'MacBook Pro (14-inch, Nov 2023)', processor: 'Apple M3', year: 2023, osMax: '0.0.0', ramGb: [8, 16, 24], diskGb: [512, 1000], upgradeable: false, ramSpeed: 'LPDDR5', ramMax: null, smc: null, serial: 'apple', laptop: true },
  { id: 'Mac14,2', name: 'MacBook Air (M2, 2022)', processor: 'Apple M2', year: 2022, osMax: '0.0.0', ramGb: [8, 16], diskGb: [256, 512], upgradeable: false, ramSpeed: 'LPDDR5', ramMax: null, smc: null, serial: 'apple', laptop: true },
  { id: 'MacBookAir10,1', name: 'MacBook Air (M1, 2020)', processor: 'Apple M1', year: 2020, osMax: '0.0.0', ramGb: [8, 16], diskGb: [256, 512], upgradeable: false, ramSpeed: 'LPDDR4X', ramMax: null, smc: null, serial: 'apple', laptop: true },
  { id: 'iMac21,1', name: 'iMac (24-inch, M1, 2021)', processor: 'Apple M1', year: 2021, osMax: '0.0.0', ramGb: [8, 16], diskGb: [256, 512], upgradeable: false, ramSpeed: 'LPDDR4X', ramMax: null, smc: null, serial: 'apple', laptop: false },
  { id: 'Mac14,3', name: 'Mac mini (2023)', processor: 'Apple M2', year: 2023, osMax: '0.0.0', ramGb: [8, 16, 24], diskGb: [256, 512], upgradeable: false, ramSpeed: 'LPDDR5', ramMax: null, smc: null, serial: 'apple', laptop: false },
  { id: 'Mac13,1', name: 'Mac Studio (2022)', processor: 'Apple M1 Max', year: 2022, osMax: '0.0.0', ramGb: [32, 64], diskGb: [512, 1000, 2000], upgradeable: false, ramSpeed: 'LPDDR5', ramMax: null, smc: null, serial: 'apple', laptop: false },
  { id: 'MacBookPro16,1', name: 'MacBook Pro (16-inch, 2019)', processor: '8-Core Intel Core i9 2.3 GHz', year: 2019, osMax: '15.1.1', ramGb: [16, 32], diskGb: [512, 1000], upgradeable: false, ramSpeed: 'DDR4 2667 MHz', ramMax: '64 GB', smc: '2.37f3', serial: 'apple', laptop: true },
  { id: 'MacBookPro14,1', name: 'MacBook Pro (13-inch, 2017, Two Thunderbolt 3 ports)', processor: 'Dual-Core Intel Core i5 2.3 GHz', year: 2017, osMax: '13.7.1', ramGb: [8], diskGb: [128, 256], upgradeable: false, ramSpeed: 'LPDDR3 2133 MHz', ramMax: '16 GB', smc: '2.43f6', serial: 'apple', laptop: true },
];

const WINDOWS_MODELS: ModelSpec[] = [
  { id: 'OptiPlex 7090', name: 'Dell OptiPlex 7090', processor: 'Intel Core i7-10700 @ 2.90GHz', year: 2021, osMax: '0.0.0', ramGb: [16, 32], diskGb: [256, 512], upgradeable: true, ramSpeed: 'DDR4 3200 MHz', ramMax: '128 GB', smc: null, serial: 'dell', laptop: false },
  { id: 'Latitude 5420', name: 'Dell Latitude 5420', processor: 'Intel Core i5-1145G7 @ 2.60GHz', year: 2021, osMax: '0.0.0', ramGb: [8, 16], diskGb: [256, 512], upgradeable: true, ramSpeed: 'DDR4 3200 MHz', ramMax: '64 GB', smc: null, serial: 'dell', laptop: true },
  { id: '21AH00BSUS', name: 'Lenovo ThinkPad T14 Gen 3', processor: 'Intel Core i7-1265U @ 1.80GHz', year: 2022, osMax: '0.0.0', ramGb: [16, 32], diskGb: [512], upgradeable: true, ramSpeed: 'DDR4 3200 MHz', ramMax: '48 GB', smc: null, serial: 'lenovo', laptop: true },
  { id: 'HP EliteBook 840 G8 Notebook PC', name: 'HP EliteBook 840 G8', processor: 'Intel Core i5-1135G7 @ 2.40GHz', year: 2021, osMax: '0.0.0', ramGb: [8, 16], diskGb: [256, 512], upgradeable: true, ramSpeed: 'DDR4 3200 MHz', ramMax: '64 GB', smc: null, serial: 'hp', laptop: true },
  { id: 'Surface Laptop 5', name: 'Microsoft Surface Laptop 5', processor: '12th Gen Intel Core i5-1235U', year: 2022, osMax: '0.0.0', ramGb: [8, 16], diskGb: [256, 512], upgradeable: false, ramSpeed: 'LPDDR5x', ramMax: null, smc: null, serial: 'microsoft', laptop: true },
  { id: 'OptiPlex 3050', name: 'Dell OptiPlex 3050', processor: 'Intel Core i5-6500 @ 3.20GHz', year: 2017, osMax: '10.0.19045', ramGb: [8], diskGb: [256], upgradeable: true, ramSpeed: 'DDR4 2400 MHz', ramMax: '32 GB', smc: null, serial: 'dell', laptop: false },
];

const LINUX_MODELS: ModelSpec[] = [
  { id: 'PowerEdge R650', name: 'Dell PowerEdge R650', processor: 'Intel Xeon Silver 4314 @ 2.40GHz', year: 2022, osMax: '0.0.0', ramGb: [64, 128], diskGb: [960, 1920], upgradeable: true, ramSpeed: 'DDR4 3200 MHz', ramMax: '2 TB', smc: null, serial: 'dell', laptop: false },
  { id: 'ProLiant DL360 Gen10', name: 'HPE ProLiant DL360 Gen10', processor: 'Intel Xeon Gold 5218 @ 2.30GHz', year: 2020, osMax: '0.0.0', ramGb: [64, 192], diskGb: [960], upgradeable: true, ramSpeed: 'DDR4 2933 MHz', ramMax: '3 TB', smc: null, serial: 'hp', laptop: false },
  { id: '11MNS00A00', name: 'Lenovo ThinkCentre M70q Gen 2', processor: 'Intel Core i5-11400T @ 1.30GHz', year: 2021, osMax: '0.0.0', ramGb: [16], diskGb: [512], upgradeable: true, ramSpeed: 'DDR4 3200 MHz', ramMax: '64 GB', smc: null, serial: 'lenovo', laptop: false },
  { id: 'Standard PC (Q35 + ICH9, 2009)', name: 'KVM virtual machine', processor: 'AMD EPYC 7763 64-Core Processor (4 vCPU)', year: 2023, osMax: '0.0.0', ramGb: [4, 8, 16], diskGb: [80, 160], upgradeable: true, ramSpeed: null, ramMax: null, smc: null, serial: 'vm', laptop: false },
];

interface OsSpec {
  name: string;
  number: string;
}

const MAC_OS: OsSpec[] = [
  { name: 'macOS Sequoia 15.1.1', number: '15.1.1' },
  { name: 'macOS Sequoia 15.0.1', number: '15.0.1' },
  { name: 'macOS Sonoma 14.7.1', number: '14.7.1' },
  { name: 'macOS Ventura 13.7.1', number: '13.7.1' },
];
const WINDOWS_OS: OsSpec[] = [
  { name: 'Microsoft Windows 11 Pro 23H2', number: '10.0.22631' },
  { name: 'Microsoft Windows 11 Pro 24H2', number: '10.0.26100' },
  { name: 'Microsoft Windows 10 Pro 22H2', number: '10.0.19045' },
];
const LINUX_OS: OsSpec[] = [
  { name: 'Ubuntu 22.04.5 LTS', number: '22.04' },
  { name: 'Ubuntu 24.04.1 LTS', number: '24.04' },
  { name: 'Debian GNU/Linux 12 (bookworm)', number: '12' },
  { name: 'Rocky Linux 9.4 (Blue Onyx)', number: '9.4' },
];

interface PluginSpec {
  name: string;
  slug: string;
  visible: boolean;
  details: Record<PluginStatus, string>;
}

const plugin = (name: string, slug: string, ok: string, warning: string, alert: string, info: string, visible = true): PluginSpec => ({
  name,
  slug,
  visible,
  details: { OK: ok, Warning: warning, Alert: alert, Informational: info },
});

const COMMON_PLUGINS: PluginSpec[] = [
  plugin('Disk Space', 'disk_space', 'Boot volume has 41% free.', 'Boot volume has 9% free (threshold 10%).', 'Boot volume has 2% free. Applications may fail to save.', 'Boot volume usage grew 12 GB in 7 days.'),
  plugin('SMART Status', 'smart_status', 'All disks verified.', 'Disk0 reports 14 reallocated sectors.', 'Disk0 SMART status: FAILING. Back up this computer now.', 'SMART data not available for external disks.'),
  plugin('Agent Health', 'agent_health', 'Agent running, last check-in on time.', 'Agent restarted 3 times in 24 hours.', 'Agent could not write its cache.', 'Agent updated to the latest version.', false),
];
const MAC_PLUGINS: PluginSpec[] = [
  plugin('macOS Updates', 'macos_updates', 'No updates pending.', '2 updates pending for 9 days.', 'Security update pending for 31 days.', 'macOS 15.2 is available.'),
  plugin('Battery Health', 'battery_health', 'Battery condition Normal, 212 cycles.', 'Battery condition Service Recommended, 1012 cycles.', 'Battery is swelling or not charging.', 'Battery maximum capacity 88%.'),
  plugin('FileVault', 'filevault', 'FileVault is on.', 'FileVault is encrypting (64%).', 'FileVault is off.', 'Recovery key escrowed.'),
  plugin('Time Machine', 'time_machine', 'Last backup 2 hours ago.', 'Last backup 6 days ago.', 'No backup for 23 days.', 'Backup disk 71% full.'),
  plugin('Gatekeeper and XProtect', 'gatekeeper', 'Gatekeeper enabled, XProtect current.', 'XProtect definitions 9 days old.', 'Gatekeeper disabled.', 'XProtect updated today.'),
  plugin('Configuration Profiles', 'config_profiles', 'Expected profiles installed.', '1 profile expires in 12 days.', 'MDM enrollment profile missing.', '4 profiles installed.', false),
];
const WINDOWS_PLUGINS: PluginSpec[] = [
  plugin('Windows Update', 'windows_update', 'No updates pending.', '3 updates pending, reboot required.', 'Cumulative update failed to install (0x800f0922).', 'Feature update 24H2 available.'),
  plugin('Microsoft Defender', 'defender', 'Real-time protection on, signatures current.', 'Signatures 5 days old.', 'Threat detected and quarantined: Trojan:Win32/Wacatac.', 'Quick scan completed.'),
  plugin('BitLocker', 'bitlocker', 'C: protected.', 'BitLocker suspended until next reboot.', 'C: not encrypted.', 'Recovery key backed up.'),
  plugin('Event Log Errors', 'event_log', 'No critical events in 24 hours.', '17 application errors in 24 hours.', 'Unexpected shutdown (Kernel-Power 41) twice today.', 'Event log rotated.'),
];
const LINUX_PLUGINS: PluginSpec[] = [
  plugin('Package Updates', 'package_updates', 'All packages current.', '12 updates pending (3 security).', 'Kernel security update pending for 35 days.', 'Reboot scheduled for Sunday 03:00.'),
  plugin('Load Average', 'load_average', 'Load 0.42 0.51 0.47.', 'Load 7.9 on 8 cores for 20 minutes.', 'Load 31.2 on 8 cores.', 'Load peak 5.1 during nightly backup.'),
  plugin('Memory', 'memory', 'Memory use 38%.', 'Memory use 91%, swap in use.', 'OOM killer invoked (postgres).', 'Memory use peaked at 72%.'),
  plugin('RAID Status', 'raid_status', 'md0 clean [UU].', 'md0 resyncing (43%).', 'md0 degraded [U_].', 'Monthly array check scheduled.'),
  plugin('SSH Configuration', 'ssh_config', 'Password login disabled.', 'Root login permitted with key.', 'Password login enabled for root.', '3 authorized keys.'),
];

const PLUGIN_POOLS: Record<Platform, PluginSpec[]> = {
  mac: [...COMMON_PLUGINS, ...MAC_PLUGINS],
  windows: [...COMMON_PLUGINS, ...WINDOWS_PLUGINS],
  linux: [...COMMON_PLUGINS, ...LINUX_PLUGINS],
};

const MANUFACTURERS = ['Apple', 'Microsoft', 'Adobe', 'Dell', 'Lenovo', 'JetBrains'];
const PRODUCTS = [
  'AppleCare+ for Mac',
  'Microsoft 365 Business Premium',
  'Adobe Creative Cloud All Apps',
  'Dell ProSupport Plus',
  'Lenovo Premier Support',
  'JetBrains All Products Pack',
  'Windows Server 2022 Standard',
];

const SERIAL_ALPHABET = 'BCDFGHJKLMNPQRTVWXYZ0123456789';
const UPPER_ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

function serialFor(rng: Prng, kind: ModelSpec['serial']): string | null {
  switch (kind) {
    case 'apple':
      return rng.chars(SERIAL_ALPHABET, 10);
    case 'dell':
      return rng.chars(UPPER_ALNUM, 7);
    case 'lenovo':
      return `PF${rng.chars(UPPER_ALNUM, 6)}`;
    case 'hp':
      return `5CG${rng.int(1000, 9999)}${rng.chars(UPPER_ALNUM, 3)}`;
    case 'microsoft':
      return String(rng.int(10, 99)) + String(rng.int(1000000000, 9999999999));
    case 'vm':
      return null;
  }
}

function mac(rng: Prng, prefix: string): string {
  const parts = [prefix];
  for (let i = 0; i < 3; i++) parts.push(rng.hex(2));
  return parts.join(':');
}

function uptime(rng: Prng): string {
  const days = rng.int(0, 40);
  return `${days} day${days === 1 ? '' : 's'}, ${rng.int(0, 23)}:${String(rng.int(0, 59)).padStart(2, '0')}`;
}

const asciiCache = new Map<string, string>();
/** login names and e-mail local parts without accents (Chloé -> chloe) */
function ascii(s: string): string {
  let out = asciiCache.get(s);
  if (out === undefined) {
    out = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    asciiCache.set(s, out);
  }
  return out;
}

function dayStart(sec: number): number {
  return sec - (sec % DAY);
}

interface Ctx {
  rng: Prng;
  now: number;
  groups: GroupRec[];
  computers: ComputerRec[];
  pluginResults: PluginResultRec[];
  /** running index over all plugin results: spreads mutes evenly */
  pluginCounter: number;
}

function makeGroup(ctx: Ctx, account: AccountId, spec: GroupSpec, i: number): GroupRec {
  const created = ctx.now - (900 - i * 97) * DAY - ctx.rng.int(0, DAY);
  return {
    uid: ctx.rng.uid('g_'),
    account,
    slug: slugify(spec.name),
    name: spec.name,
    description: spec.description,
    reference_email: `it@${spec.domain}`,
    hidden: spec.hidden,
    show_contact_menu: !spec.hidden,
    // seeded groups had installers built long ago: ready at read time
    installers_requested_at_ms: i % 2 === 0 ? created * 1000 : null,
    created_at: created,
  };
}

function makeComputer(ctx: Ctx, account: AccountId, i: number, group: GroupRec, spec: GroupSpec): ComputerRec {
  const { rng, now } = ctx;
  const bucket = i % 10;
  const platform: Platform = bucket < 5 ? 'mac' : bucket < 8 ? 'windows' : 'linux';
  const model = rng.pick(platform === 'mac' ? MAC_MODELS : platform === 'windows' ? WINDOWS_MODELS : LINUX_MODELS);
  let os = rng.pick(platform === 'mac' ? MAC_OS : platform === 'windows' ? WINDOWS_OS : LINUX_OS);
  if (platform === 'mac' && model.osMax === '13.7.1') os = MAC_OS[3] ?? os;
  if (platform === 'windows' && model.osMax === '10.0.19045') os = WINDOWS_OS[2] ?? os;
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const user = ascii(`${first}.${last}`.toLowerCase());
  const seq = String(i + 1).padStart(3, '0');

  let computerName: string;
  if (platform === 'mac') {
    const short = model.name.replace(/ \(.*$/, '');
    computerName = model.laptop ? `${first}’s ${short}` : `${spec.code} ${short} ${seq}`;
  } else if (platform === 'windows') {
    computerName = `${spec.code}-${model.laptop ? 'LT' : 'WS'}-${seq}`;
  } else {
    computerName = `${spec.code.toLowerCase()}-srv-${seq}`;
  }

  // Last reports: most within the last three days; every 8th is past its missing threshold.
  const stale = i % 8 === 3;
  const staleNotWatched = i % 16 === 14;
  const reportMissingAfter = i % 12 === 5 ? 14 : i % 12 === 9 ? 3 : 7;
  let lastReport: number;
  if (stale) lastReport = now - (reportMissingAfter + 1) * DAY - rng.int(0, 45 * DAY);
  else if (staleNotWatched) lastReport = now - rng.int(10, 30) * DAY;
  // silent for a while, where the computer's own tolerance decides: 14 days (not missing), 3 days (missing)
  else if (i % 24 === 5) lastReport = now - rng.int(8, 12) * DAY - rng.int(0, DAY - 1);
  else if (i % 24 === 9) lastReport = now - 4 * DAY - rng.int(0, 2 * DAY);
  else lastReport = now - Math.floor(rng.next() ** 2 * 3 * DAY) - rng.int(30, 600);
  const created = Math.min(lastReport - DAY, now - rng.int(30, 480) * DAY);

  const ram = rng.pick(model.ramGb);
  const disk = rng.pick(model.diskGb) * GB;
  const used = Math.floor(disk * (0.18 + rng.next() * 0.78));
  const isServer = platform === 'linux';
  const watched = !staleNotWatched && !(isServer && i % 5 === 3 && !stale);
  const manufactured = Date.UTC(model.year, rng.int(0, 11), rng.int(1, 28)) / 1000;
  const apple = model.serial === 'apple';
  const warrantyActive = manufactured > now - 3 * 365 * DAY;
  const serial = serialFor(rng, model.serial);

  return {
    uid: rng.uid('c_'),
    account,
    client_id: rng.uuid(),
    description: i % 7 === 0 ? `${isServer ? 'Rack 2, unit ' + String(rng.int(1, 40)) : 'Desk ' + String(rng.int(1, 60))}. ${rng.pick(['Shared login.', 'Do not reboot during office hours.', 'Loaner while the usual machine is repaired.', 'Handle with care: customer data.'])}` : null,
    agent_version: rng.pick(['4.3.2', '4.3.2', '4.3.1', '4.2.7']),
    last_report: lastReport,
    last_update: lastReport,
    registration_date: created,
    created_at: created,
    group: group.uid,
    computer_name: computerName,
    custom_name: i % 9 === 4 ? `${first} ${last} (${model.laptop ? 'laptop' : 'desk'})` : null,
    reference_email: i % 4 === 1 ? `${user}@${spec.domain}` : null,
    last_user: isServer ? rng.pick(['root', 'deploy', null]) : user,
    serial_number: serial,
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
    config_description: apple ? `${model.name.replace(/ \(.*$/, '')} ${model.processor.replace(/^Apple /, '')}/${ram}GB/${rng.pick(model.diskGb)}GB` : null,
    ram_installed: `${ram} GB`,
    ram_installed_in_bytes: String(ram * 1024 ** 3),
    ram_speed: model.ramSpeed,
    ram_upgradeable: model.upgradeable,
    ram_max_maker: model.ramMax,
    ram_max_actual: model.ramMax,
    boot_volume_capacity_in_bytes: disk,
    boot_volume_usage_in_bytes: used,
    processor: model.processor,
    current_uptime: uptime(rng),
    smc_version: model.smc,
    primary_ip: isServer ? `10.20.${rng.int(0, 3)}.${rng.int(10, 250)}` : `192.168.${rng.int(1, 20)}.${rng.int(20, 250)}`,
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
    report_if_missing: watched,
    report_missing_after: reportMissingAfter,
    ignore_missing_until: null,
    rekey_requested: i % 19 === 4,
    pending_removal: i % 17 === 11,
    agent_removed: i % 34 === 28,
    has_issue: i % 6 === 2,
    hidden: i % 15 === 7 || spec.hidden,
    platform,
    beacon_reporting: i % 10 === 0,
    beacon_missing_threshold_in_minutes: i % 10 === 0 ? 15 : 5,
    create_ticket_on_beacon_found: i % 20 === 0,
  };
}

function pickStatus(rng: Prng, forceProblem: boolean): PluginStatus {
  if (forceProblem) return rng.chance(0.5) ? 'Alert' : 'Warning';
  const r = rng.next();
  return r < 0.62 ? 'OK' : r < 0.77 ? 'Warning' : r < 0.87 ? 'Alert' : 'Informational';
}

function muteFor(ctx: Ctx, n: number): MuteRec | null {
  if (n % 41 === 3) return { type: 'ignored' };
  if (n % 47 === 5) return { type: 'timed', until: ctx.now + ctx.rng.int(1, 14) * DAY + 6 * HOUR, ticket_url: null };
  if (n % 53 === 7) return { type: 'ticket', ticket_number: String(4100 + n), ticket_url: `https://helpdesk.example/tickets/${4100 + n}` };
  // timed mutes that have already run out read back as unmuted
  if (n % 59 === 9) return { type: 'timed', until: ctx.now - ctx.rng.int(1, 10) * DAY, ticket_url: null };
  return null;
}

function makePluginResults(ctx: Ctx, computer: ComputerRec): void {
  const { rng } = ctx;
  const pool = PLUGIN_POOLS[computer.platform];
  const count = rng.int(3, Math.min(8, pool.length));
  // stable partial shuffle: keep the catalogue order in the output
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(rng.int(0, pool.length - 1));
  let problemForced = false;
  for (let k = 0; k < pool.length; k++) {
    if (!chosen.has(k)) continue;
    const spec = pool[k];
    if (!spec) continue;
    const n = ctx.pluginCounter++;
    const force = computer.has_issue && !problemForced && spec.visible;
    if (force) problemForced = true;
    const status = pickStatus(rng, force);
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
      mute: muteFor(ctx, n),
    });
  }
}

function catalog(ctx: Ctx, account: AccountId, names: string[], prefix: string): CatalogRec[] {
  return names.map((name, i) => ({
    uid: ctx.rng.uid(prefix),
    account,
    slug: slugify(name),
    name,
    created_at: ctx.now - (700 - i * 31) * DAY,
  }));
}

function findCatalog(list: CatalogRec[], name: string): CatalogRec {
  const item = list.find((x) => x.name === name);
  if (!item) throw new Error(`seed: no catalogue entry ${name}`);
  return item;
}

function makeExpirations(ctx: Ctx, account: AccountId, groups: GroupRec[], computers: ComputerRec[], makers: CatalogRec[], products: CatalogRec[]): ExpirationRec[] {
  const { rng, now } = ctx;
  const out: ExpirationRec[] = [];
  const today = dayStart(now);
  const add = (e: Omit<ExpirationRec, 'uid' | 'account' | 'created_at' | 'updated_at'>): void => {
    const created = now - rng.int(20, 400) * DAY;
    out.push({ uid: rng.uid('e_'), account, ...e, created_at: created, updated_at: created + rng.int(0, 10) * DAY });
  };
  const apple = findCatalog(makers, 'Apple');
  const dell = findCatalog(makers, 'Dell');
  const microsoft = findCatalog(makers, 'Microsoft');
  const adobe = findCatalog(makers, 'Adobe');
  const jetbrains = findCatalog(makers, 'JetBrains');

  const macs = computers.filter((c) => c.platform === 'mac' && c.serial_number !== null).slice(0, 6);
  [-45, -3, 12, 40, 200, 330].forEach((days, k) => {
    const c = macs[k];
    if (!c || c.serial_number === null) return;
    add({ license_key: c.serial_number, expires_at: today + days * DAY, expiration_manufacturer: apple.uid, expiration_product: findCatalog(products, 'AppleCare+ for Mac').uid, group: c.group, computer: c.uid, renewable: k % 2 === 0, notes: days < 0 ? 'Coverage lapsed; replacement planned for next budget.' : null });
  });
  const dells = computers.filter((c) => c.model_name.startsWith('Dell') && c.serial_number !== null).slice(0, 3);
  [-120, 25, 400].forEach((days, k) => {
    const c = dells[k];
    if (!c || c.serial_number === null) return;
    add({ license_key: c.serial_number, expires_at: today + days * DAY, expiration_manufacturer: dell.uid, expiration_product: findCatalog(products, 'Dell ProSupport Plus').uid, group: c.group, computer: c.uid, renewable: true, notes: null });
  });
  const visible = groups.filter((g) => !g.hidden);
  [18, 90, 150, 300].forEach((days, k) => {
    const g = visible[k];
    if (!g) return;
    add({ license_key: `M365-${rng.chars(UPPER_ALNUM, 5)}-${rng.chars(UPPER_ALNUM, 5)}`, expires_at: today + days * DAY, expiration_manufacturer: microsoft.uid, expiration_product: findCatalog(products, 'Microsoft 365 Business Premium').uid, group: g.uid, computer: null, renewable: true, notes: `${rng.int(5, 40)} seats, annual commitment.` });
  });
  const first = visible[0];
  if (first) {
    add({ license_key: `ADB-${rng.chars(UPPER_ALNUM, 12)}`, expires_at: today - 10 * DAY, expiration_manufacturer: adobe.uid, expiration_product: findCatalog(products, 'Adobe Creative Cloud All Apps').uid, group: first.uid, computer: null, renewable: true, notes: 'Renewal invoice sent to finance.' });
  }
  const eng = visible[3] ?? first;
  if (eng) {
    add({ license_key: `JB-${rng.chars(UPPER_ALNUM, 10)}`, expires_at: today + 60 * DAY, expiration_manufacturer: jetbrains.uid, expiration_product: findCatalog(products, 'JetBrains All Products Pack').uid, group: eng.uid, computer: null, renewable: false, notes: null });
  }
  return out;
}

function makeNotes(ctx: Ctx, account: AccountId, groups: GroupRec[], computers: ComputerRec[]): NoteRec[] {
  const { rng, now } = ctx;
  const out: NoteRec[] = [];
  const add = (owner: { computer?: ComputerRec; group?: GroupRec }, body: string, priv: boolean, email: boolean, report: boolean): void => {
    out.push({
      uid: rng.uid('n_'),
      account,
      computer: owner.computer?.uid ?? null,
      group: owner.group?.uid ?? null,
      body,
      created_at: now - rng.int(1, 200) * DAY - rng.int(0, DAY),
      private: priv,
      include_in_email: email,
      include_in_report: report,
    });
  };
  const [g0, g1, g2, g3] = groups;
  const c = (k: number): ComputerRec | undefined => computers[k % Math.max(1, computers.length)];
  if (g0) add({ group: g0 }, 'Office hours are 8:00–18:00 CET. Schedule reboots after 19:00.', false, true, true);
  if (g0) add({ group: g0 }, 'Landlord rewires the server closet on the 14th; expect downtime.', true, false, false);
  if (g1) add({ group: g1 }, 'HIPAA: never copy patient exports to laptops.\nEscalate encryption alerts the same day.', false, true, true);
  if (g2) add({ group: g2 }, 'Billing contact: Rosa García, extension 214.', true, false, false);
  if (g3) add({ group: g3 }, 'Build servers are patched on the first Sunday of the month.', false, false, true);
  const computerNotes: [string, boolean, boolean, boolean][] = [
    ['Battery replaced under AppleCare, old one recycled.', false, false, true],
    ['User reports fan noise under load; monitor temperature.', false, true, false],
    ['Local admin password rotated; stored in the vault.', true, false, false],
    ['Scheduled for replacement in Q3.', false, false, true],
    ['Disk cloned to spare before the OS upgrade.', true, false, false],
    ['Docking station firmware updated to 01.00.22.', false, false, false],
    ['Machine shared by the night shift — do not enable auto-logout.', false, true, true],
  ];
  computerNotes.forEach(([body, priv, email, report], k) => {
    const computer = c(k * 5 + 1);
    if (computer) add({ computer }, body, priv, email, report);
  });
  return out;
}

function makeUsers(ctx: Ctx, account: AccountId, groups: GroupRec[], subdomain: string, domain: string): UserRec[] {
  const { rng, now } = ctx;
  const [g0, g1, g2] = groups;
  const hiddenGroups = groups.filter((g) => g.hidden).map((g) => g.uid);
  const base = (firstname: string, lastname: string, role: UserRec['role'], tfa: boolean, admin: boolean): UserRec => ({
    uid: rng.uid('u_'),
    account,
    email: ascii(`${firstname}.${lastname}@${domain}`.toLowerCase()),
    firstname,
    lastname,
    tfa_status: tfa,
    role,
    can_edit_contact_menu: admin,
    can_access_billing: admin,
    last_subdomain: subdomain,
    last_signin: now - rng.int(1, 30 * 24) * HOUR,
    created_at: now - rng.int(100, 1200) * DAY,
  });
  const users: UserRec[] = [];
  users.push({ ...base('Alex', 'Morgan', 'employee', true, true), restricted_group_uids: [] });
  if (account === OTHER_ACCOUNT) return users;
  users.push({ ...base('Sam', 'Rivera', 'employee', true, false), restricted_group_uids: [...hiddenGroups, ...(g1 ? [g1.uid] : [])] });
  users.push({ ...base('Jordan', 'Lee', 'employee', false, false), restricted_group_uids: [] });
  users.push({ ...base('Pat', 'Kim', 'end_user', false, false), permitted_group_uids: g0 ? [g0.uid] : [], last_signin: null });
  users.push({ ...base('Robin', 'Díaz', 'end_user', true, false), permitted_group_uids: [g1, g2].filter((g): g is GroupRec => g !== undefined).map((g) => g.uid) });
  return users;
}

/** Builds a fresh state. Pure: depends only on the options. */
export function seedState(opts: SeedOptions): StateData {
  if (!Number.isSafeInteger(opts.computers) || opts.computers < 0) throw new Error(`computers must be a non-negative integer, got ${opts.computers}`);
  const rng = new Prng(opts.seed);
  const ctx: Ctx = { rng, now: Math.floor(opts.nowMs / 1000), groups: [], computers: [], pluginResults: [], pluginCounter: 0 };

  // primary subscriber
  const groups = PRIMARY_GROUPS.map((spec, i) => makeGroup(ctx, PRIMARY_ACCOUNT, spec, i));
  const visible = groups.filter((g) => !g.hidden);
  const hiddenGroup = groups.find((g) => g.hidden);
  const computers: ComputerRec[] = [];
  for (let i = 0; i < opts.computers; i++) {
    const gi = i % 20 === 19 && hiddenGroup ? groups.indexOf(hiddenGroup) : groups.indexOf(visible[rng.int(0, visible.length - 1)] as GroupRec);
    const group = groups[gi] as GroupRec;
    const spec = PRIMARY_GROUPS[gi] as GroupSpec;
    const computer = makeComputer(ctx, PRIMARY_ACCOUNT, i, group, spec);
    computers.push(computer);
    makePluginResults(ctx, computer);
  }
  const makers = catalog(ctx, PRIMARY_ACCOUNT, MANUFACTURERS, 'em_');
  const products = catalog(ctx, PRIMARY_ACCOUNT, PRODUCTS, 'ep_');
  const expirations = makeExpirations(ctx, PRIMARY_ACCOUNT, groups, computers, makers, products);
  const notes = makeNotes(ctx, PRIMARY_ACCOUNT, groups, computers);
  const users = makeUsers(ctx, PRIMARY_ACCOUNT, groups, 'demo', 'sandbox.example');

  // second subscriber: a small separate data set whose items are 403 for the primary key
  const otherSpec: GroupSpec = { name: 'Contoso Labs', domain: 'contoso.example', code: 'CON', description: 'Another subscriber.', hidden: false };
  const otherGroup = makeGroup(ctx, OTHER_ACCOUNT, otherSpec, 1);
  const otherComputers = [makeComputer(ctx, OTHER_ACCOUNT, 0, otherGroup, otherSpec), makeComputer(ctx, OTHER_ACCOUNT, 8, otherGroup, otherSpec)];
  for (const c of otherComputers) makePluginResults(ctx, c);
  const otherMakers = catalog(ctx, OTHER_ACCOUNT, ['Apple'], 'em_');
  const otherProducts = catalog(ctx, OTHER_ACCOUNT, ['AppleCare+ for Mac'], 'ep_');
  const otherMaker = otherMakers[0] as CatalogRec;
  const otherProduct = otherProducts[0] as CatalogRec;
  const otherMac = otherComputers[0] as ComputerRec;
  const otherExpiration: ExpirationRec = {
    uid: rng.uid('e_'),
    account: OTHER_ACCOUNT,
    license_key: otherMac.serial_number ?? 'CON-0001',
    expires_at: dayStart(ctx.now) + 90 * DAY,
    expiration_manufacturer: otherMaker.uid,
    expiration_product: otherProduct.uid,
    group: otherGroup.uid,
    computer: otherMac.uid,
    renewable: true,
    notes: null,
    created_at: ctx.now - 30 * DAY,
    updated_at: ctx.now - 30 * DAY,
  };
  const otherNote: NoteRec = {
    uid: rng.uid('n_'),
    account: OTHER_ACCOUNT,
    computer: null,
    group: otherGroup.uid,
    body: 'Contoso lab machines are reimaged every Friday.',
    created_at: ctx.now - 12 * DAY,
    private: false,
    include_in_email: false,
    include_in_report: false,
  };
  const otherUsers = makeUsers(ctx, OTHER_ACCOUNT, [otherGroup], 'contoso', 'contoso.example');

  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    seed: opts.seed,
    computerCount: opts.computers,
    seededAtMs: opts.nowMs,
    rng: rng.state,
    groups: [...groups, otherGroup],
    computers: [...computers, ...otherComputers],
    pluginResults: ctx.pluginResults,
    expirations: [...expirations, otherExpiration],
    expirationManufacturers: [...makers, ...otherMakers],
    expirationProducts: [...products, ...otherProducts],
    notes: [...notes, otherNote],
    users: [...users, ...otherUsers],
  };
}
