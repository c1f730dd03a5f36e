/** The plugins that report on each platform, with the details each shows in each status. */
import type { Platform, PluginStatus } from '../model.js';

export interface PluginSpec {
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

export const PLUGIN_POOLS: Record<Platform, PluginSpec[]> = {
  mac: [...COMMON_PLUGINS, ...MAC_PLUGINS],
  windows: [...COMMON_PLUGINS, ...WINDOWS_PLUGINS],
  linux: [...COMMON_PLUGINS, ...LINUX_PLUGINS],
};

/** The text a plugin result of this kind shows in this status (the catalogue's); undefined for a plugin not in it. */
export function pluginDetails(slug: string, status: PluginStatus): string | undefined {
  for (const pool of Object.values(PLUGIN_POOLS)) {
    const spec = pool.find((p) => p.slug === slug);
    if (spec) return spec.details[status];
  }
  return undefined;
}
