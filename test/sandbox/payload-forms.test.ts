/**
 * Contract: every resource decodes with the field types of the reference's sample payloads
 * where a sample disagrees with the field table (a decimal as a string, muted_until beside
 * mute_until, ard_field1, integer times, uid-string arrays), and with the table's types
 * elsewhere (#13, item 1; README, Payload forms).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, DAY, NOW_SEC, allPages, start } from './helpers.js';

type Kind = 'string' | 'integer' | 'boolean' | 'decimal' | 'uids' | 'ref';
/** A field's type; every field may be null (api-v2.5 conventions 9) unless listed in NEVER_NULL. */
type Shape = Record<string, Kind>;

const str = (...keys: string[]): Shape => Object.fromEntries(keys.map((k) => [k, 'string' as const]));
const int = (...keys: string[]): Shape => Object.fromEntries(keys.map((k) => [k, 'integer' as const]));
const bool = (...keys: string[]): Shape => Object.fromEntries(keys.map((k) => [k, 'boolean' as const]));

const GROUP: Shape = {
  ...str(
    'uid',
    'slug',
    'name',
    'description',
    'group_url',
    'reference_email',
    'contact_email',
    'mac_installer_url',
    'windows_installer_url',
  ),
  ...bool('hidden', 'show_contact_menu', 'mac_installer_ready', 'windows_installer_ready'),
  ...int('visible_computer_count', 'hidden_computer_count', 'created_at'),
};

const COMPUTER: Shape = {
  ...str(
    'uid',
    'client_id',
    'svc_id',
    'description',
    'agent_version',
    'build_number',
    'group',
    'computer_name',
    'custom_name',
    'computer_url',
    'reference_email',
    'contact_email',
    'reference_email_computer',
    'reference_email_group',
    'last_user',
    'serial_number',
    'os_version',
    'os_version_number',
    'os_version_number_max',
    'model_identifier',
    'model_name',
    'maker_product_description',
    'product_description',
    'warranty_status',
    'config_description',
    'ram_installed',
    'ram_installed_in_bytes',
    'ram_speed',
    'ram_max_maker',
    'ram_max_actual',
    'boot_volume_capacity',
    'boot_volume_usage',
    'processor',
    'current_uptime',
    'smc_version',
    'primary_ip',
    'active_mac_address',
    'system_mac_address',
    'asset_id',
    'ard_field1',
    'ard_field2',
    'ard_field3',
    'ard_field4',
    'remote_a_id',
    'remote_a_release',
    'remote_b_url',
    'remote_c_url',
    'remote_d_url',
    'mdm_computer_id',
    'mdm_url',
    'pkgmgr_identifier',
    'internal_notes',
    'public_notes',
    'platform',
  ),
  ...int(
    'last_report',
    'last_update',
    'registration_date',
    'created_at',
    'estimated_manufacture_date',
    'estimated_purchase_date',
    'boot_volume_capacity_in_bytes',
    'boot_volume_usage_in_bytes',
    'report_missing_after',
    'ignore_missing_until',
    'beacon_missing_threshold_in_minutes',
  ),
  ...bool(
    'care_eligibility',
    'ram_upgradeable',
    'remote_a_unattended',
    'updates_enabled',
    'settings_enabled',
    'report_if_missing',
    'rekey_requested',
    'pending_removal',
    'agent_removed',
    'has_issue',
    'missing',
    'hidden',
    'beacon_reporting',
    'create_ticket_on_beacon_found',
  ),
  boot_volume_usage_percent: 'decimal',
};

const PLUGIN_RESULT: Shape = {
  ...str('uid', 'name', 'slug', 'status', 'details', 'mute_type', 'mute_description', 'ticket_number', 'ticket_url'),
  ...int('last_run', 'mute_until', 'muted_until'),
  ...bool('muted', 'visible'),
};

const EXPIRATION: Shape = {
  ...str('uid', 'license_key', 'expiration_manufacturer', 'expiration_product', 'group', 'computer', 'notes'),
  ...int('expires_at', 'created_at', 'updated_at'),
  ...bool('renewable'),
};

const CATALOG: Shape = { ...str('uid', 'slug', 'name'), ...int('created_at') };
const NOTE: Shape = {
  ...str('uid', 'computer', 'group', 'body'),
  ...int('created_at'),
  ...bool('private', 'include_in_email', 'include_in_report'),
};
const USER: Shape = {
  ...str('uid', 'email', 'firstname', 'lastname', 'role', 'last_subdomain'),
  ...int('last_signin', 'created_at'),
  ...bool('tfa_status', 'can_edit_contact_menu', 'can_access_billing'),
  restricted_group_uids: 'uids',
  permitted_group_uids: 'uids',
};

/** Keys the table spells one way and the samples another: the sandbox sends only the samples' (or both, for the mute end). */
const TABLE_ONLY_SPELLINGS = ['ard_field_1', 'ard_field_2', 'ard_field_3', 'ard_field_4', 'included_in_report'];

function check(what: string, obj: Record<string, unknown>, shape: Shape, extra: string[] = []): void {
  for (const [key, value] of Object.entries(obj)) {
    if (extra.includes(key)) continue;
    const kind = shape[key];
    expect(kind, `${what}: unexpected key ${key}`).toBeDefined();
    if (value === null) continue;
    const where = `${what}.${key} = ${JSON.stringify(value)}`;
    switch (kind) {
      case 'string':
        expect(typeof value, where).toBe('string');
        break;
      case 'integer':
        expect(Number.isInteger(value), where).toBe(true);
        break;
      case 'boolean':
        expect(typeof value, where).toBe('boolean');
        break;
      case 'decimal':
        expect(value, where).toMatch(/^-?\d+\.\d+$/);
        break;
      case 'uids':
        expect(Array.isArray(value) && value.every((u) => typeof u === 'string' && u.startsWith('g_')), where).toBe(
          true,
        );
        break;
    }
  }
  for (const key of TABLE_ONLY_SPELLINGS) expect(Object.hasOwn(obj, key), `${what} has ${key}`).toBe(false);
}

let sandbox: RunningSandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await start());
});
afterAll(() => sandbox.close());

describe('payloads shaped as the reference samples', () => {
  it('computers: a string decimal, ard_field1..4, integer times, every table field present', async () => {
    const computers = (await allPages(api, '/v2.5/computers', { 'expand[]': 'plugin_results' })) as Record<
      string,
      unknown
    >[];
    for (const c of computers) {
      check(`computer ${String(c.client_id)}`, c, COMPUTER, ['plugin_results']);
      for (const key of Object.keys(COMPUTER)) expect(Object.hasOwn(c, key), `computer has ${key}`).toBe(true);
      for (const pr of c.plugin_results as Record<string, unknown>[])
        check(`plugin result ${String(pr.uid)}`, pr, PLUGIN_RESULT);
    }
    expect(computers.filter((c) => typeof c.boot_volume_usage_percent === 'string').length).toBe(computers.length);
    expect(computers.some((c) => c.ard_field1 !== null)).toBe(true);
  });

  it('a timed mute carries its end as muted_until as well as mute_until', async () => {
    const computers = (await allPages(api, '/v2.5/computers', { 'expand[]': 'plugin_results' })) as {
      plugin_results: Record<string, unknown>[];
    }[];
    const timed = computers.flatMap((c) => c.plugin_results).filter((pr) => pr.mute_type === 'timed_mute');
    expect(timed.length).toBeGreaterThanOrEqual(2);
    for (const pr of timed) {
      expect(pr.muted_until).toBe(pr.mute_until);
      expect(pr.muted_until as number).toBeGreaterThan(NOW_SEC);
    }
    const other = computers.flatMap((c) => c.plugin_results).find((pr) => pr.mute_type !== 'timed_mute' && pr.visible);
    const res = await api.send('PUT', `/v2.5/plugin_results/${String(other?.uid)}`, {
      'plugin_result[mute_type]': 'timed',
      'plugin_result[mute_until]': NOW_SEC + DAY,
    });
    expect(res.body).toMatchObject({ mute_type: 'timed_mute', mute_until: NOW_SEC + DAY, muted_until: NOW_SEC + DAY });
  });

  it('groups, expirations, catalogues, notes and users with the types of their samples', async () => {
    for (const g of (await allPages(api, '/v2.5/groups')) as Record<string, unknown>[])
      check(`group ${String(g.uid)}`, g, GROUP);
    for (const e of (await allPages(api, '/v2.5/expirations')) as Record<string, unknown>[])
      check(`expiration ${String(e.uid)}`, e, EXPIRATION);
    for (const path of ['/v2.5/expiration_manufacturers', '/v2.5/expiration_products']) {
      for (const m of (await allPages(api, path)) as Record<string, unknown>[])
        check(`${path} ${String(m.uid)}`, m, CATALOG);
    }
    for (const n of (await allPages(api, '/v2.5/notes', { include_private: 'true' })) as Record<string, unknown>[])
      check(`note ${String(n.uid)}`, n, NOTE);
    const users = (await allPages(api, '/v2.5/users')) as Record<string, unknown>[];
    for (const u of users) check(`user ${String(u.uid)}`, u, USER);
    expect(users.some((u) => Array.isArray(u.restricted_group_uids) && u.restricted_group_uids.length > 0)).toBe(true);
  });
});
