/**
 * Deterministic demo data. The same seed, computer count and clock give the same state, byte
 * for byte. Times are placed "around today" relative to the clock at seeding time.
 *
 * The account looks like a real customer's on a normal morning (src/sandbox/README.md, Data):
 * each computer gets one health state and a few flags by proportion, drawn as exact counts
 * (not coin flips) over a shuffled order, so the proportions hold at 40 computers as at 10 000
 * and the small fleet still holds every case.
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
  /** share of the primary subscriber's computers (0 for an empty group) */
  share: number;
  description: string | null;
  hidden: boolean;
}

/** Share of the computers in each group: very different sizes, one empty group. */
const PRIMARY_GROUPS: GroupSpec[] = [
  {
    name: 'Acme Design',
    domain: 'acmedesign.example',
    code: 'ACME',
    share: 0.33,
    description: 'Design studio, two floors. Contact Dana before rebooting render nodes.',
    hidden: false,
  },
  {
    name: 'Northwind Clinic',
    domain: 'northwindclinic.example',
    code: 'NWC',
    share: 0.21,
    description: 'Medical practice: front desk, exam rooms and the records server.',
    hidden: false,
  },
  {
    name: 'Summit Engineering',
    domain: 'summit-eng.example',
    code: 'SUM',
    share: 0.15,
    description: 'Build servers and engineering workstations.',
    hidden: false,
  },
  {
    name: 'Blue Harbor Legal',
    domain: 'blueharborlegal.example',
    code: 'BHL',
    share: 0.1,
    description: null,
    hidden: false,
  },
  {
    name: 'Café Lumière',
    domain: 'cafelumiere.example',
    code: 'CAFE',
    share: 0.07,
    description: 'Two cafés and the roastery. Point-of-sale Macs at the counters.',
    hidden: false,
  },
  {
    name: "O'Brien & Sons Plumbing",
    domain: 'obrienplumbing.example',
    code: 'OBS',
    share: 0.05,
    description: "Office laptops; the vans' tablets are not monitored.",
    hidden: false,
  },
  {
    name: 'Atelier Hélène Dubois',
    domain: 'atelier-dubois.example',
    code: 'AHD',
    share: 0.03,
    description: null,
    hidden: false,
  },
  {
    name: 'Old Office (retired)',
    domain: 'acmedesign.example',
    code: 'OLD',
    share: 0.06,
    description: 'Machines from the closed Elm Street office, kept for reference.',
    hidden: true,
  },
  {
    name: 'Staging – new hires',
    domain: 'acmedesign.example',
    code: 'NEW',
    share: 0,
    description: 'Empty until the next intake: enrol new machines here first.',
    hidden: false,
  },
];

const FIRST = [
  'Anna',
  'Ben',
  'Chloé',
  'David',
  'Emma',
  'Farid',
  'Grace',
  'Hiro',
  'Inès',
  'Jonas',
  'Kofi',
  'Lena',
  'Mateo',
  'Nora',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Yara',
  'Zoë',
  'Renée',
  'Łukasz',
  'Siobhán',
];
const LAST = [
  'Berg',
  'Okafor',
  'Martin',
  'Nakamura',
  'Silva',
  'Haddad',
  'Kowalski',
  'Nguyen',
  'Larsen',
  'Moreau',
  'Patel',
  'Schmidt',
  'Rossi',
  'Andersen',
  'García',
  'Kim',
  "O'Connor",
  'Müller',
  'Núñez',
  "D'Amico",
];

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
  {
    id: 'MacBookPro18,3',
    name: 'MacBook Pro (14-inch, 2021)',
    processor: 'Apple M1 Pro',
    year: 2021,
    osMax: '0.0.0',
    ramGb: [16, 32],
    diskGb: [512, 1000],
    upgradeable: false,
    ramSpeed: 'LPDDR5',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: true,
  },
  {
    id: 'MacBookPro18,1',
    name: 'MacBook Pro (16-inch, 2021)',
    processor: 'Apple M1 Pro',
    year: 2021,
    osMax: '0.0.0',
    ramGb: [16, 32],
    diskGb: [512, 1000],
    upgradeable: false,
    ramSpeed: 'LPDDR5',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: true,
  },
  {
    id: 'Mac15,3',
    name: 'MacBook Pro (14-inch, Nov 2023)',
    processor: 'Apple M3',
    year: 2023,
    osMax: '0.0.0',
    ramGb: [8, 16, 24],
    diskGb: [512, 1000],
    upgradeable: false,
    ramSpeed: 'LPDDR5',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: true,
  },
  {
    id: 'Mac14,2',
    name: 'MacBook Air (M2, 2022)',
    processor: 'Apple M2',
    year: 2022,
    osMax: '0.0.0',
    ramGb: [8, 16],
    diskGb: [256, 512],
    upgradeable: false,
    ramSpeed: 'LPDDR5',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: true,
  },
  {
    id: 'MacBookAir10,1',
    name: 'MacBook Air (M1, 2020)',
    processor: 'Apple M1',
    year: 2020,
    osMax: '0.0.0',
    ramGb: [8, 16],
    diskGb: [256, 512],
    upgradeable: false,
    ramSpeed: 'LPDDR4X',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: true,
  },
  {
    id: 'iMac21,1',
    name: 'iMac (24-inch, M1, 2021)',
    processor: 'Apple M1',
    year: 2021,
    osMax: '0.0.0',
    ramGb: [8, 16],
    diskGb: [256, 512],
    upgradeable: false,
    ramSpeed: 'LPDDR4X',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: false,
  },
  {
    id: 'Mac14,3',
    name: 'Mac mini (2023)',
    processor: 'Apple M2',
    year: 2023,
    osMax: '0.0.0',
    ramGb: [8, 16, 24],
    diskGb: [256, 512],
    upgradeable: false,
    ramSpeed: 'LPDDR5',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: false,
  },
  {
    id: 'Mac13,1',
    name: 'Mac Studio (2022)',
    processor: 'Apple M1 Max',
    year: 2022,
    osMax: '0.0.0',
    ramGb: [32, 64],
    diskGb: [512, 1000, 2000],
    upgradeable: false,
    ramSpeed: 'LPDDR5',
    ramMax: null,
    smc: null,
    serial: 'apple',
    laptop: false,
  },
  {
    id: 'MacBookPro16,1',
    name: 'MacBook Pro (16-inch, 2019)',
    processor: '8-Core Intel Core i9 2.3 GHz',
    year: 2019,
    osMax: '15.1.1',
    ramGb: [16, 32],
    diskGb: [512, 1000],
    upgradeable: false,
    ramSpeed: 'DDR4 2667 MHz',
    ramMax: '64 GB',
    smc: '2.37f3',
    serial: 'apple',
    laptop: true,
  },
  {
    id: 'MacBookPro14,1',
    name: 'MacBook Pro (13-inch, 2017, Two Thunderbolt 3 ports)',
    processor: 'Dual-Core Intel Core i5 2.3 GHz',
    year: 2017,
    osMax: '13.7.1',
    ramGb: [8],
    diskGb: [128, 256],
    upgradeable: false,
    ramSpeed: 'LPDDR3 2133 MHz',
    ramMax: '16 GB',
    smc: '2.43f6',
    serial: 'apple',
    laptop: true,
  },
];

const WINDOWS_MODELS: ModelSpec[] = [
  {
    id: 'OptiPlex 7090',
    name: 'Dell OptiPlex 7090',
    processor: 'Intel Core i7-10700 @ 2.90GHz',
    year: 2021,
    osMax: '0.0.0',
    ramGb: [16, 32],
    diskGb: [256, 512],
    upgradeable: true,
    ramSpeed: 'DDR4 3200 MHz',
    ramMax: '128 GB',
    smc: null,
    serial: 'dell',
    laptop: false,
  },
  {
    id: 'Latitude 5420',
    name: 'Dell Latitude 5420',
    processor: 'Intel Core i5-1145G7 @ 2.60GHz',
    year: 2021,
    osMax: '0.0.0',
    ramGb: [8, 16],
    diskGb: [256, 512],
    upgradeable: true,
    ramSpeed: 'DDR4 3200 MHz',
    ramMax: '64 GB',
    smc: null,
    serial: 'dell',
    laptop: true,
  },
  {
    id: '21AH00BSUS',
    name: 'Lenovo ThinkPad T14 Gen 3',
    processor: 'Intel Core i7-1265U @ 1.80GHz',
    year: 2022,
    osMax: '0.0.0',
    ramGb: [16, 32],
    diskGb: [512],
    upgradeable: true,
    ramSpeed: 'DDR4 3200 MHz',
    ramMax: '48 GB',
    smc: null,
    serial: 'lenovo',
    laptop: true,
  },
  {
    id: 'HP EliteBook 840 G8 Notebook PC',
    name: 'HP EliteBook 840 G8',
    processor: 'Intel Core i5-1135G7 @ 2.40GHz',
    year: 2021,
    osMax: '0.0.0',
    ramGb: [8, 16],
    diskGb: [256, 512],
    upgradeable: true,
    ramSpeed: 'DDR4 3200 MHz',
    ramMax: '64 GB',
    smc: null,
    serial: 'hp',
    laptop: true,
  },
  {
    id: 'Surface Laptop 5',
    name: 'Microsoft Surface Laptop 5',
    processor: '12th Gen Intel Core i5-1235U',
    year: 2022,
    osMax: '0.0.0',
    ramGb: [8, 16],
    diskGb: [256, 512],
    upgradeable: false,
    ramSpeed: 'LPDDR5x',
    ramMax: null,
    smc: null,
    serial: 'microsoft',
    laptop: true,
  },
  {
    id: 'OptiPlex 3050',
    name: 'Dell OptiPlex 3050',
    processor: 'Intel Core i5-6500 @ 3.20GHz',
    year: 2017,
    osMax: '10.0.19045',
    ramGb: [8],
    diskGb: [256],
    upgradeable: true,
    ramSpeed: 'DDR4 2400 MHz',
    ramMax: '32 GB',
    smc: null,
    serial: 'dell',
    laptop: false,
  },
];

const LINUX_MODELS: ModelSpec[] = [
  {
    id: 'PowerEdge R650',
    name: 'Dell PowerEdge R650',
    processor: 'Intel Xeon Silver 4314 @ 2.40GHz',
    year: 2022,
    osMax: '0.0.0',
    ramGb: [64, 128],
    diskGb: [960, 1920],
    upgradeable: true,
    ramSpeed: 'DDR4 3200 MHz',
    ramMax: '2 TB',
    smc: null,
    serial: 'dell',
    laptop: false,
  },
  {
    id: 'ProLiant DL360 Gen10',
    name: 'HPE ProLiant DL360 Gen10',
    processor: 'Intel Xeon Gold 5218 @ 2.30GHz',
    year: 2020,
    osMax: '0.0.0',
    ramGb: [64, 192],
    diskGb: [960],
    upgradeable: true,
    ramSpeed: 'DDR4 2933 MHz',
    ramMax: '3 TB',
    smc: null,
    serial: 'hp',
    laptop: false,
  },
  {
    id: '11MNS00A00',
    name: 'Lenovo ThinkCentre M70q Gen 2',
    processor: 'Intel Core i5-11400T @ 1.30GHz',
    year: 2021,
    osMax: '0.0.0',
    ramGb: [16],
    diskGb: [512],
    upgradeable: true,
    ramSpeed: 'DDR4 3200 MHz',
    ramMax: '64 GB',
    smc: null,
    serial: 'lenovo',
    laptop: false,
  },
  {
    id: 'Standard PC (Q35 + ICH9, 2009)',
    name: 'KVM virtual machine',
    processor: 'AMD EPYC 7763 64-Core Processor (4 vCPU)',
    year: 2023,
    osMax: '0.0.0',
    ramGb: [4, 8, 16],
    diskGb: [80, 160],
    upgradeable: true,
    ramSpeed: null,
    ramMax: null,
    smc: null,
    serial: 'vm',
    laptop: false,
  },
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

const plugin = (
  name: string,
  slug: string,
  ok: string,
  warning: string,
  alert: string,
  info: string,
  visible = true,
): PluginSpec => ({
  name,
  slug,
  visible,
  details: { OK: ok, Warning: warning, Alert: alert, Informational: info },
});

const COMMON_PLUGINS: PluginSpec[] = [
  plugin(
    'Disk Space',
    'disk_space',
    'Boot volume has 41% free.',
    'Boot volume has 9% free (threshold 10%).',
    'Boot volume has 2% free. Applications may fail to save.',
    'Boot volume usage grew 12 GB in 7 days.',
  ),
  plugin(
    'SMART Status',
    'smart_status',
    'All disks verified.',
    'Disk0 reports 14 reallocated sectors.',
    'Disk0 SMART status: FAILING. Back up this computer now.',
    'SMART data not available for external disks.',
  ),
  plugin(
    'Agent Health',
    'agent_health',
    'Agent running, last check-in on time.',
    'Agent restarted 3 times in 24 hours.',
    'Agent could not write its cache.',
    'Agent updated to the latest version.',
    false,
  ),
];
const MAC_PLUGINS: PluginSpec[] = [
  plugin(
    'macOS Updates',
    'macos_updates',
    'No updates pending.',
    '2 updates pending for 9 days.',
    'Security update pending for 31 days.',
    'macOS 15.2 is available.',
  ),
  plugin(
    'Battery Health',
    'battery_health',
    'Battery condition Normal, 212 cycles.',
    'Battery condition Service Recommended, 1012 cycles.',
    'Battery is swelling or not charging.',
    'Battery maximum capacity 88%.',
  ),
  plugin(
    'FileVault',
    'filevault',
    'FileVault is on.',
    'FileVault is encrypting (64%).',
    'FileVault is off.',
    'Recovery key escrowed.',
  ),
  plugin(
    'Time Machine',
    'time_machine',
    'Last backup 2 hours ago.',
    'Last backup 6 days ago.',
    'No backup for 23 days.',
    'Backup disk 71% full.',
  ),
  plugin(
    'Gatekeeper and XProtect',
    'gatekeeper',
    'Gatekeeper enabled, XProtect current.',
    'XProtect definitions 9 days old.',
    'Gatekeeper disabled.',
    'XProtect updated today.',
  ),
  plugin(
    'Configuration Profiles',
    'config_profiles',
    'Expected profiles installed.',
    '1 profile expires in 12 days.',
    'MDM enrollment profile missing.',
    '4 profiles installed.',
    false,
  ),
];
const WINDOWS_PLUGINS: PluginSpec[] = [
  plugin(
    'Windows Update',
    'windows_update',
    'No updates pending.',
    '3 updates pending, reboot required.',
    'Cumulative update failed to install (0x800f0922).',
    'Feature update 24H2 available.',
  ),
  plugin(
    'Microsoft Defender',
    'defender',
    'Real-time protection on, signatures current.',
    'Signatures 5 days old.',
    'Threat detected and quarantined: Trojan:Win32/Wacatac.',
    'Quick scan completed.',
  ),
  plugin(
    'BitLocker',
    'bitlocker',
    'C: protected.',
    'BitLocker suspended until next reboot.',
    'C: not encrypted.',
    'Recovery key backed up.',
  ),
  plugin(
    'Event Log Errors',
    'event_log',
    'No critical events in 24 hours.',
    '17 application errors in 24 hours.',
    'Unexpected shutdown (Kernel-Power 41) twice today.',
    'Event log rotated.',
  ),
];
const LINUX_PLUGINS: PluginSpec[] = [
  plugin(
    'Package Updates',
    'package_updates',
    'All packages current.',
    '12 updates pending (3 security).',
    'Kernel security update pending for 35 days.',
    'Reboot scheduled for Sunday 03:00.',
  ),
  plugin(
    'Load Average',
    'load_average',
    'Load 0.42 0.51 0.47.',
    'Load 7.9 on 8 cores for 20 minutes.',
    'Load 31.2 on 8 cores.',
    'Load peak 5.1 during nightly backup.',
  ),
  plugin(
    'Memory',
    'memory',
    'Memory use 38%.',
    'Memory use 91%, swap in use.',
    'OOM killer invoked (postgres).',
    'Memory use peaked at 72%.',
  ),
  plugin(
    'RAID Status',
    'raid_status',
    'md0 clean [UU].',
    'md0 resyncing (43%).',
    'md0 degraded [U_].',
    'Monthly array check scheduled.',
  ),
  plugin(
    'SSH Configuration',
    'ssh_config',
    'Password login disabled.',
    'Root login permitted with key.',
    'Password login enabled for root.',
    '3 authorized keys.',
  ),
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
/** login names and e-mail addresses without accents or apostrophes (Siobhán O'Connor -> siobhan.oconnor) */
function ascii(s: string): string {
  let out = asciiCache.get(s);
  if (out === undefined) {
    out = s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/\u0142/g, 'l') // ł
      .replace(/\u0141/g, 'L') // Ł
      .replace(/[^A-Za-z0-9.@_-]/g, '');
    asciiCache.set(s, out);
  }
  return out;
}

function dayStart(sec: number): number {
  return sec - (sec % DAY);
}

/**
 * The one state each computer of the primary subscriber is in (README, Data). The seeded
 * problem is on a visible plugin; every other visible plugin is OK or Informational.
 */
export type Health =
  | 'ok'
  | 'alert'
  | 'warning'
  | 'expired_mute'
  | 'muted_timed'
  | 'muted_ticket'
  | 'muted_ignored'
  | 'missing'
  | 'tolerated'
  | 'silent';

/** A share of N computers, and the least count once the fleet has MIN_FROM computers. */
export interface Share<K extends string = string> {
  key: K;
  fraction: number;
  min: number;
}

/** Below this many computers the minimums are not applied (a 5-computer fleet is mostly OK). */
export const MIN_FROM = 20;

/** Exclusive health states; the rest of the fleet is 'ok'. Documented in README.md, Data. */
export const HEALTH_SHARES: readonly Share<Exclude<Health, 'ok'>>[] = [
  { key: 'alert', fraction: 0.04, min: 2 },
  { key: 'warning', fraction: 0.07, min: 2 },
  { key: 'expired_mute', fraction: 0.01, min: 1 },
  { key: 'muted_timed', fraction: 0.03, min: 2 },
  { key: 'muted_ticket', fraction: 0.02, min: 2 },
  { key: 'muted_ignored', fraction: 0.02, min: 2 },
  { key: 'missing', fraction: 0.05, min: 3 },
  { key: 'tolerated', fraction: 0.02, min: 1 },
  { key: 'silent', fraction: 0.02, min: 1 },
];

/** Flags drawn independently of the health state (the hidden group's computers are hidden too). */
export const FLAG_SHARES: readonly Share<'hidden' | 'pending_removal' | 'rekey_requested' | 'service_warning'>[] = [
  { key: 'hidden', fraction: 0.02, min: 1 },
  { key: 'pending_removal', fraction: 0.02, min: 1 },
  { key: 'rekey_requested', fraction: 0.015, min: 1 },
  { key: 'service_warning', fraction: 0.03, min: 1 },
];

/** Computers with a warranty or support contract on record (AppleCare, ProSupport, Premier). */
export const EXPIRATION_SHARE: Share = { key: 'expiration', fraction: 0.3, min: 6 };

/** How many of `n` a share asks for: round(fraction × n), at least `min` from MIN_FROM on, never above `left`. */
export function shareCount(share: Share, n: number, left: number): number {
  const want = Math.round(share.fraction * n);
  return Math.min(left, n >= MIN_FROM ? Math.max(share.min, want) : want);
}

/** 0..n-1 in an order fixed by the PRNG (Fisher–Yates). */
function shuffled(rng: Prng, n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    const t = out[i] as number;
    out[i] = out[j] as number;
    out[j] = t;
  }
  return out;
}

/** Largest-remainder apportionment: counts proportional to `weights` that add up to exactly n. */
export function apportion(weights: readonly number[], n: number): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total > 0 ? (w / total) * n : 0));
  const counts = exact.map(Math.floor);
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if ((weights[i] ?? 0) <= 0) continue;
    counts[i] = (counts[i] ?? 0) + 1;
    left--;
  }
  return counts;
}

/** What each computer index is, decided before any computer is built. */
interface Plan {
  group: number;
  health: Health;
  /** position among the computers of the same health state */
  rank: number;
  hidden: boolean;
  pendingRemoval: boolean;
  agentRemoved: boolean;
  rekey: boolean;
  serviceWarning: boolean;
}

function planFleet(rng: Prng, n: number): Plan[] {
  const plans: Plan[] = Array.from({ length: n }, () => ({
    group: 0,
    health: 'ok',
    rank: 0,
    hidden: false,
    pendingRemoval: false,
    agentRemoved: false,
    rekey: false,
    serviceWarning: false,
  }));
  const sizes = apportion(
    PRIMARY_GROUPS.map((g) => g.share),
    n,
  );
  const groupOrder = shuffled(rng, n);
  let at = 0;
  sizes.forEach((size, gi) => {
    for (let k = 0; k < size; k++) (plans[groupOrder[at++] as number] as Plan).group = gi;
  });
  const healthOrder = shuffled(rng, n);
  at = 0;
  for (const share of HEALTH_SHARES) {
    const count = shareCount(share, n, n - at);
    for (let k = 0; k < count; k++) {
      const plan = plans[healthOrder[at++] as number] as Plan;
      plan.health = share.key;
      plan.rank = k;
    }
  }
  for (const share of FLAG_SHARES) {
    const order = shuffled(rng, n);
    const count = shareCount(share, n, n);
    for (let k = 0; k < count; k++) {
      const plan = plans[order[k] as number] as Plan;
      if (share.key === 'hidden') plan.hidden = true;
      else if (share.key === 'pending_removal') {
        plan.pendingRemoval = true;
        // a quarter of them (at least one) have already reported the agent's removal
        plan.agentRemoved = k < Math.max(1, Math.round(count / 4));
      } else if (share.key === 'rekey_requested') plan.rekey = true;
      else plan.serviceWarning = true;
    }
  }
  return plans;
}

interface Ctx {
  rng: Prng;
  now: number;
  pluginResults: PluginResultRec[];
}

function makeGroup(ctx: Ctx, account: AccountId, spec: GroupSpec, i: number): GroupRec {
  const created = ctx.now - (900 - i * 83) * DAY - ctx.rng.int(0, DAY);
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

const OK_PLAN: Plan = {
  group: 0,
  health: 'ok',
  rank: 0,
  hidden: false,
  pendingRemoval: false,
  agentRemoved: false,
  rekey: false,
  serviceWarning: false,
};

function makeComputer(
  ctx: Ctx,
  account: AccountId,
  i: number,
  group: GroupRec,
  spec: GroupSpec,
  plan: Plan,
): ComputerRec {
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

  // Last reports: reporting computers within the last two days; the health state decides the rest.
  const isServer = platform === 'linux';
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
  const created = Math.min(lastReport - DAY, now - rng.int(30, 480) * DAY);

  const ram = rng.pick(model.ramGb);
  const disk = rng.pick(model.diskGb) * GB;
  const used = Math.floor(disk * (0.18 + rng.next() * 0.78));
  const manufactured = Date.UTC(model.year, rng.int(0, 11), rng.int(1, 28)) / 1000;
  const apple = model.serial === 'apple';
  const warrantyActive = manufactured > now - 3 * 365 * DAY;
  const serial = serialFor(rng, model.serial);

  return {
    uid: rng.uid('c_'),
    account,
    client_id: rng.uuid(),
    description:
      i % 7 === 0
        ? `${isServer ? `Rack 2, unit ${String(rng.int(1, 40))}` : `Desk ${String(rng.int(1, 60))}`}. ${rng.pick(['Shared login.', 'Do not reboot during office hours.', 'Loaner while the usual machine is repaired.', 'Handle with care: customer data.'])}`
        : null,
    agent_version: rng.pick(['4.3.2', '4.3.2', '4.3.1', '4.2.7']),
    last_report: lastReport,
    last_update: lastReport,
    registration_date: created,
    created_at: created,
    group: group.uid,
    computer_name: computerName,
    // every other custom name carries an apostrophe, which scripts must quote
    custom_name:
      i % 9 === 4 ? `${first} ${i % 18 === 13 ? "D'Amico" : last} (${model.laptop ? 'laptop' : 'desk'})` : null,
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
    config_description: apple
      ? `${model.name.replace(/ \(.*$/, '')} ${model.processor.replace(/^Apple /, '')}/${ram}GB/${rng.pick(model.diskGb)}GB`
      : null,
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
    report_if_missing: watched,
    report_missing_after: reportMissingAfter,
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

function makePluginResults(ctx: Ctx, computer: ComputerRec, plan: Plan): void {
  const { rng, now } = ctx;
  const pool = PLUGIN_POOLS[computer.platform];
  const count = rng.int(3, Math.min(8, pool.length));
  // stable partial shuffle: keep the catalogue order in the output
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(rng.int(0, pool.length - 1));
  const service = pool.findIndex((p) => !p.visible);
  if (plan.serviceWarning && service >= 0) chosen.add(service);
  const visible = [...chosen].filter((k) => pool[k]?.visible).sort((a, b) => a - b);
  // the one plugin that carries the computer's problem, if it has one
  const problem =
    plan.health === 'ok' || plan.health === 'missing' || plan.health === 'tolerated' || plan.health === 'silent'
      ? -1
      : rng.pick(visible);
  for (let k = 0; k < pool.length; k++) {
    if (!chosen.has(k)) continue;
    const spec = pool[k];
    if (!spec) continue;
    let status: PluginStatus = rng.chance(0.1) ? 'Informational' : 'OK';
    let mute: MuteRec | null = null;
    if (!spec.visible) status = plan.serviceWarning ? 'Warning' : 'OK';
    else if (k === problem) {
      switch (plan.health) {
        case 'alert':
          status = 'Alert';
          break;
        case 'warning':
          status = 'Warning';
          break;
        case 'expired_mute':
          // muted for a while, the mute has run out: reads as an unmuted Warning
          status = 'Warning';
          mute = { type: 'timed', until: now - rng.int(1, 10) * DAY, ticket_url: null };
          break;
        case 'muted_timed':
          status = rng.chance(0.5) ? 'Alert' : 'Warning';
          mute = { type: 'timed', until: now + rng.int(1, 14) * DAY + 6 * HOUR, ticket_url: null };
          break;
        case 'muted_ticket': {
          status = rng.chance(0.5) ? 'Alert' : 'Warning';
          const ticket = String(rng.int(4100, 9999));
          mute = { type: 'ticket', ticket_number: ticket, ticket_url: `https://helpdesk.example/tickets/${ticket}` };
          break;
        }
        case 'muted_ignored':
          status = rng.chance(0.5) ? 'Alert' : 'Warning';
          mute = { type: 'ignored' };
          break;
      }
    }
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

/** Days from today, spread evenly over the past and the next year (jittered within each slot). */
function spreadDays(rng: Prng, k: number, count: number): number {
  const slot = 730 / Math.max(1, count);
  return Math.floor(-365 + (k + rng.next()) * slot);
}

const SUPPORT: Partial<Record<ModelSpec['serial'], { maker: string; product: string }>> = {
  apple: { maker: 'Apple', product: 'AppleCare+ for Mac' },
  dell: { maker: 'Dell', product: 'Dell ProSupport Plus' },
  lenovo: { maker: 'Lenovo', product: 'Lenovo Premier Support' },
};
const SERIAL_KIND = new Map<string, ModelSpec['serial']>(
  [...MAC_MODELS, ...WINDOWS_MODELS, ...LINUX_MODELS].map((m) => [m.name, m.serial]),
);

function makeExpirations(
  ctx: Ctx,
  account: AccountId,
  groups: GroupRec[],
  computers: ComputerRec[],
  makers: CatalogRec[],
  products: CatalogRec[],
): ExpirationRec[] {
  const { rng, now } = ctx;
  const out: ExpirationRec[] = [];
  const today = dayStart(now);
  const add = (e: Omit<ExpirationRec, 'uid' | 'account' | 'created_at' | 'updated_at'>): void => {
    const created = Math.min(now - rng.int(20, 400) * DAY, (e.expires_at ?? now) - 30 * DAY);
    out.push({ uid: rng.uid('e_'), account, ...e, created_at: created, updated_at: created + rng.int(0, 10) * DAY });
  };

  // warranty and support contracts of computers, spread over the past and the next year
  const covered = computers.filter(
    (c) => c.serial_number !== null && SUPPORT[SERIAL_KIND.get(c.model_name) ?? 'vm'] !== undefined,
  );
  const order = shuffled(rng, covered.length);
  const count = shareCount(EXPIRATION_SHARE, computers.length, covered.length);
  const picked = order.slice(0, count).sort((x, y) => x - y);
  picked.forEach((idx, k) => {
    const c = covered[idx] as ComputerRec;
    const support = SUPPORT[SERIAL_KIND.get(c.model_name) ?? 'vm'];
    if (!support || c.serial_number === null) return;
    const days = spreadDays(rng, (k * 7) % count, count);
    add({
      license_key: c.serial_number,
      expires_at: today + days * DAY,
      expiration_manufacturer: findCatalog(makers, support.maker).uid,
      expiration_product: findCatalog(products, support.product).uid,
      group: c.group,
      computer: c.uid,
      renewable: support.maker !== 'Apple' || k % 2 === 0,
      notes: days < -30 && k % 3 === 0 ? 'Coverage lapsed; replacement planned for next budget.' : null,
    });
  });

  // licences of groups that have computers
  const used = new Set(computers.map((c) => c.group));
  const licensed = groups.filter((g) => !g.hidden && used.has(g.uid));
  const m365 = findCatalog(products, 'Microsoft 365 Business Premium').uid;
  const microsoft = findCatalog(makers, 'Microsoft').uid;
  licensed.forEach((g, k) => {
    const days = spreadDays(rng, k, licensed.length);
    add({
      license_key: `M365-${rng.chars(UPPER_ALNUM, 5)}-${rng.chars(UPPER_ALNUM, 5)}`,
      expires_at: today + days * DAY,
      expiration_manufacturer: microsoft,
      expiration_product: m365,
      group: g.uid,
      computer: null,
      renewable: true,
      notes: `${rng.int(5, 40)} seats, annual commitment.`,
    });
  });
  const byName = (name: string): GroupRec | undefined => licensed.find((g) => g.name === name);
  for (const [name, days] of [
    ['Acme Design', -10],
    ['Café Lumière', 45],
  ] as const) {
    const g = byName(name);
    if (g)
      add({
        license_key: `ADB-${rng.chars(UPPER_ALNUM, 12)}`,
        expires_at: today + days * DAY,
        expiration_manufacturer: findCatalog(makers, 'Adobe').uid,
        expiration_product: findCatalog(products, 'Adobe Creative Cloud All Apps').uid,
        group: g.uid,
        computer: null,
        renewable: true,
        notes: days < 0 ? 'Renewal invoice sent to finance.' : null,
      });
  }
  const eng = byName('Summit Engineering');
  if (eng) {
    add({
      license_key: `JB-${rng.chars(UPPER_ALNUM, 10)}`,
      expires_at: today + 60 * DAY,
      expiration_manufacturer: findCatalog(makers, 'JetBrains').uid,
      expiration_product: findCatalog(products, 'JetBrains All Products Pack').uid,
      group: eng.uid,
      computer: null,
      renewable: false,
      notes: null,
    });
    add({
      license_key: `WS22-${rng.chars(UPPER_ALNUM, 5)}-${rng.chars(UPPER_ALNUM, 5)}`,
      expires_at: today - 200 * DAY,
      expiration_manufacturer: microsoft,
      expiration_product: findCatalog(products, 'Windows Server 2022 Standard').uid,
      group: eng.uid,
      computer: null,
      renewable: false,
      notes: 'Perpetual licence; software assurance lapsed.',
    });
  }
  return out;
}

function makeNotes(ctx: Ctx, account: AccountId, groups: GroupRec[], computers: ComputerRec[]): NoteRec[] {
  const { rng, now } = ctx;
  const out: NoteRec[] = [];
  const add = (
    owner: { computer?: ComputerRec; group?: GroupRec },
    body: string,
    priv: boolean,
    email: boolean,
    report: boolean,
  ): void => {
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
  if (g1)
    add(
      { group: g1 },
      'HIPAA: never copy patient exports to laptops.\nEscalate encryption alerts the same day.',
      false,
      true,
      true,
    );
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
  users.push({
    ...base('Sam', 'Rivera', 'employee', true, false),
    restricted_group_uids: [...hiddenGroups, ...(g1 ? [g1.uid] : [])],
  });
  users.push({ ...base('Jordan', 'Lee', 'employee', false, false), restricted_group_uids: [] });
  users.push({
    ...base('Pat', 'Kim', 'end_user', false, false),
    permitted_group_uids: g0 ? [g0.uid] : [],
    last_signin: null,
  });
  users.push({
    ...base('Robin', 'Díaz', 'end_user', true, false),
    permitted_group_uids: [g1, g2].filter((g): g is GroupRec => g !== undefined).map((g) => g.uid),
  });
  return users;
}

/** Builds a fresh state. Pure: depends only on the options. */
export function seedState(opts: SeedOptions): StateData {
  if (!Number.isSafeInteger(opts.computers) || opts.computers < 0)
    throw new Error(`computers must be a non-negative integer, got ${opts.computers}`);
  const rng = new Prng(opts.seed);
  const ctx: Ctx = { rng, now: Math.floor(opts.nowMs / 1000), pluginResults: [] };

  // primary subscriber
  const groups = PRIMARY_GROUPS.map((spec, i) => makeGroup(ctx, PRIMARY_ACCOUNT, spec, i));
  const plans = planFleet(rng, opts.computers);
  const computers: ComputerRec[] = [];
  for (let i = 0; i < opts.computers; i++) {
    const plan = plans[i] as Plan;
    const computer = makeComputer(
      ctx,
      PRIMARY_ACCOUNT,
      i,
      groups[plan.group] as GroupRec,
      PRIMARY_GROUPS[plan.group] as GroupSpec,
      plan,
    );
    computers.push(computer);
    makePluginResults(ctx, computer, plan);
  }
  const makers = catalog(ctx, PRIMARY_ACCOUNT, MANUFACTURERS, 'em_');
  const products = catalog(ctx, PRIMARY_ACCOUNT, PRODUCTS, 'ep_');
  const expirations = makeExpirations(ctx, PRIMARY_ACCOUNT, groups, computers, makers, products);
  const notes = makeNotes(ctx, PRIMARY_ACCOUNT, groups, computers);
  const users = makeUsers(ctx, PRIMARY_ACCOUNT, groups, 'demo', 'sandbox.example');

  // second subscriber: a small separate data set whose items are 403 for the primary key
  const otherSpec: GroupSpec = {
    name: 'Contoso Labs',
    domain: 'contoso.example',
    code: 'CON',
    share: 1,
    description: 'Another subscriber.',
    hidden: false,
  };
  const otherGroup = makeGroup(ctx, OTHER_ACCOUNT, otherSpec, 1);
  const otherPlans: Plan[] = [OK_PLAN, { ...OK_PLAN, health: 'warning' }];
  const otherComputers = [0, 8].map((i, k) =>
    makeComputer(ctx, OTHER_ACCOUNT, i, otherGroup, otherSpec, otherPlans[k] as Plan),
  );
  otherComputers.forEach((c, k) => makePluginResults(ctx, c, otherPlans[k] as Plan));
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

/** The text a plugin result of this kind shows in this status (the catalogue's); undefined for a plugin not in it. */
export function pluginDetails(slug: string, status: PluginStatus): string | undefined {
  for (const pool of Object.values(PLUGIN_POOLS)) {
    const spec = pool.find((p) => p.slug === slug);
    if (spec) return spec.details[status];
  }
  return undefined;
}

/**
 * A computer enrolling now (the living fleet, src/sandbox/live.ts): made as the seed makes an
 * OK computer, in the group new machines are enrolled in ("Staging – new hires"), created and
 * reported at `nowSec`. `index` numbers its name; `rng` gives every value, uids included.
 */
export function enrolComputer(
  rng: Prng,
  groups: readonly GroupRec[],
  index: number,
  nowSec: number,
): { computer: ComputerRec; pluginResults: PluginResultRec[] } {
  const gi = PRIMARY_GROUPS.length - 1;
  const spec = PRIMARY_GROUPS[gi] as GroupSpec;
  const group =
    groups.find((g) => g.account === PRIMARY_ACCOUNT && g.name === spec.name) ??
    groups.find((g) => g.account === PRIMARY_ACCOUNT);
  if (!group) throw new Error('no group to enrol a computer in');
  const ctx: Ctx = { rng, now: nowSec, pluginResults: [] };
  const plan: Plan = { ...OK_PLAN, group: gi };
  const computer = makeComputer(ctx, PRIMARY_ACCOUNT, index, group, spec, plan);
  Object.assign(computer, { created_at: nowSec, registration_date: nowSec, last_report: nowSec, last_update: nowSec });
  makePluginResults(ctx, computer, plan);
  for (const result of ctx.pluginResults) result.last_run = nowSec;
  return { computer, pluginResults: ctx.pluginResults };
}
