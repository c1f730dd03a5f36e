import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, type Clock, DAY, errorOf, start } from './helpers.js';

interface Computer {
  uid: string;
  client_id: string;
  group: string;
  platform: string;
  last_report: number;
  created_at: number;
  hidden: boolean;
  missing: boolean;
  report_if_missing: boolean;
  report_missing_after: number;
  rekey_requested: boolean;
  pending_removal: boolean;
  serial_number: string | null;
  asset_id: string | null;
  reference_email: string | null;
  reference_email_computer: string | null;
  reference_email_group: string | null;
  plugin_results?: { muted: boolean; status: string }[];
  [k: string]: unknown;
}

/** Every field of the reference's Computer table (plugin_results only on expand; ard_field1..4 spelled as the samples spell them), plus the sample-only two. */
const COMPUTER_FIELDS = [
  'uid',
  'client_id',
  'svc_id',
  'description',
  'agent_version',
  'build_number',
  'last_report',
  'created_at',
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
  'estimated_manufacture_date',
  'care_eligibility',
  'warranty_status',
  'estimated_purchase_date',
  'config_description',
  'ram_installed',
  'ram_installed_in_bytes',
  'ram_speed',
  'ram_upgradeable',
  'ram_max_maker',
  'ram_max_actual',
  'boot_volume_capacity_in_bytes',
  'boot_volume_usage_in_bytes',
  'boot_volume_capacity',
  'boot_volume_usage',
  'boot_volume_usage_percent',
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
  'remote_a_unattended',
  'remote_b_url',
  'remote_c_url',
  'remote_d_url',
  'mdm_computer_id',
  'mdm_url',
  'pkgmgr_identifier',
  'internal_notes',
  'public_notes',
  'updates_enabled',
  'settings_enabled',
  'report_if_missing',
  'report_missing_after',
  'ignore_missing_until',
  'rekey_requested',
  'pending_removal',
  'agent_removed',
  'has_issue',
  'missing',
  'hidden',
  'platform',
  'beacon_reporting',
  'beacon_missing_threshold_in_minutes',
  'create_ticket_on_beacon_found',
  'last_update',
  'registration_date',
];

let sandbox: RunningSandbox;
let api: Api;
let clock: Clock;
let all: Computer[];

beforeAll(async () => {
  ({ sandbox, api, clock } = await start());
  all = (await api.get('/v2.5/computers', { per_page: 100 })).body;
});
afterAll(() => sandbox.close());

const list = async (query: Record<string, string | string[]>): Promise<Computer[]> => {
  const res = await api.get('/v2.5/computers', { per_page: 100, ...query });
  expect(res.status, JSON.stringify(query)).toBe(200);
  return res.body;
};

describe('GET /v2.5/computers', () => {
  it('returns every field of the reference, last_report as integer epoch seconds', () => {
    expect(all).toHaveLength(40);
    for (const c of all) {
      expect(Object.keys(c).sort()).toEqual([...COMPUTER_FIELDS].sort());
      expect(Number.isInteger(c.last_report)).toBe(true);
      expect(c.uid).toMatch(/^c_/);
      expect(c.svc_id).toBe(c.client_id);
      expect(c.build_number).toBe(c.agent_version);
      expect(c.maker_product_description).toBe(c.product_description);
      expect(c.contact_email).toBe(c.reference_email);
      expect(c.reference_email).toBe(c.reference_email_computer ?? c.reference_email_group);
      expect(['mac', 'linux', 'windows']).toContain(c.platform);
    }
  });

  it('sorts by last_report, most recent first, by default and with reported_desc', async () => {
    const reports = all.map((c) => c.last_report);
    expect(reports).toEqual([...reports].sort((a, b) => b - a));
    expect((await list({ order: 'last_reported_desc' })).map((c) => c.uid)).toEqual(all.map((c) => c.uid));
    expect((await list({ order: 'reported_desc' })).map((c) => c.uid)).toEqual(all.map((c) => c.uid));
  });

  it('sorts by created_at with order=created_desc', async () => {
    const created = (await list({ order: 'created_desc' })).map((c) => c.created_at);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(created).not.toEqual(all.map((c) => c.created_at));
  });

  it('refuses an unknown order or status with 400 naming the parameter', async () => {
    for (const [name, value] of [
      ['order', 'name_asc'],
      ['status', 'muted'],
      ['platform', 'bsd'],
      ['created_after', '2025-13-01'],
    ] as const) {
      const res = await api.get('/v2.5/computers', { [name]: value });
      expect(res.status, name).toBe(400);
      expect(errorOf(res).details).toContain(name);
    }
  });

  it('filters by each status', async () => {
    const cases: [string, (c: Computer) => boolean][] = [
      ['visible', (c) => !c.hidden],
      ['hidden', (c) => c.hidden],
      ['missing', (c) => c.missing],
      ['pending_rekey', (c) => c.rekey_requested],
      ['pending_removal', (c) => c.pending_removal],
    ];
    for (const [status, pred] of cases) {
      const got = await list({ status });
      expect(got.length, status).toBeGreaterThan(0);
      expect(
        got.map((c) => c.uid),
        status,
      ).toEqual(all.filter(pred).map((c) => c.uid));
    }
  });

  it('filters has_muted_plugin by the plugin results in force', async () => {
    const muted = await list({ status: 'has_muted_plugin' });
    expect(muted.length).toBeGreaterThan(0);
    const expanded = await list({ 'expand[]': 'plugin_results' });
    const expected = expanded.filter((c) => (c.plugin_results ?? []).some((p) => p.muted)).map((c) => c.uid);
    expect(muted.map((c) => c.uid)).toEqual(expected);
    expect(expected.length).toBeLessThan(40);
  });

  it('computes missing from report_if_missing, report_missing_after and the clock', async () => {
    const missing = all.filter((c) => c.missing);
    expect(missing.length).toBeGreaterThanOrEqual(3);
    const nowSec = clock.ms / 1000;
    for (const c of all) {
      expect(c.missing, c.uid).toBe(c.report_if_missing && nowSec - c.last_report > c.report_missing_after * DAY);
    }
    // some computers are silent a long time but not watched: never missing
    expect(all.some((c) => !c.report_if_missing && nowSec - c.last_report > 7 * DAY)).toBe(true);
    // a month later every watched computer is missing
    const saved = clock.ms;
    clock.advance(40 * DAY);
    try {
      const later = await list({ status: 'missing' });
      expect(later.map((c) => c.uid).sort()).toEqual(
        all
          .filter((c) => c.report_if_missing)
          .map((c) => c.uid)
          .sort(),
      );
    } finally {
      clock.ms = saved;
    }
  });

  it('filters by platform, single or repeated as platform[]', async () => {
    const macs = await list({ platform: 'mac' });
    expect(macs.length).toBeGreaterThan(0);
    expect(macs.map((c) => c.uid)).toEqual(all.filter((c) => c.platform === 'mac').map((c) => c.uid));
    const two = await list({ 'platform[]': ['linux', 'windows'] });
    expect(two.map((c) => c.uid)).toEqual(all.filter((c) => c.platform !== 'mac').map((c) => c.uid));
    for (const p of ['mac', 'linux', 'windows']) expect(all.some((c) => c.platform === p)).toBe(true);
  });

  it('filters by group_id given as uid or slug; an unknown group matches nothing', async () => {
    const groups = (await api.get('/v2.5/groups')).body as { uid: string; slug: string }[];
    const g = groups.find((x) => all.some((c) => c.group === x.uid)) as { uid: string; slug: string };
    const expected = all.filter((c) => c.group === g.uid).map((c) => c.uid);
    expect((await list({ group_id: g.uid })).map((c) => c.uid)).toEqual(expected);
    expect((await list({ group_id: g.slug })).map((c) => c.uid)).toEqual(expected);
    expect(await list({ group_id: 'g_nothing' })).toEqual([]);
  });

  it('filters by created_after (on or after that day, UTC)', async () => {
    const sorted = [...all].sort((a, b) => a.created_at - b.created_at);
    const mid = sorted[20] as Computer;
    const day = new Date(mid.created_at * 1000).toISOString().slice(0, 10);
    const start = Date.parse(`${day}T00:00:00Z`) / 1000;
    const got = await list({ created_after: day });
    expect(got.map((c) => c.uid)).toEqual(all.filter((c) => c.created_at >= start).map((c) => c.uid));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(40);
  });

  it('filters by serial_number and asset_id', async () => {
    const withSerial = all.find((c) => c.serial_number) as Computer;
    expect((await list({ serial_number: withSerial.serial_number as string })).map((c) => c.uid)).toEqual([
      withSerial.uid,
    ]);
    const withAsset = all.find((c) => c.asset_id) as Computer;
    expect((await list({ asset_id: withAsset.asset_id as string })).map((c) => c.uid)).toEqual([withAsset.uid]);
  });

  it('filters by reference e-mails: computer, group, or either', async () => {
    const own = all.find((c) => c.reference_email_computer) as Computer;
    const email = own.reference_email_computer as string;
    expect((await list({ reference_email_computer: email })).map((c) => c.uid)).toEqual([own.uid]);
    const groupEmail = own.reference_email_group as string;
    const byGroup = await list({ reference_email_group: groupEmail });
    expect(byGroup.map((c) => c.uid)).toEqual(
      all.filter((c) => c.reference_email_group === groupEmail).map((c) => c.uid),
    );
    expect((await list({ reference_email: email })).map((c) => c.uid)).toEqual([own.uid]);
    expect((await list({ reference_email: groupEmail })).map((c) => c.uid)).toEqual(byGroup.map((c) => c.uid));
  });

  it('combines filters', async () => {
    const got = await list({ platform: 'mac', status: 'visible' });
    expect(got.map((c) => c.uid)).toEqual(all.filter((c) => c.platform === 'mac' && !c.hidden).map((c) => c.uid));
  });
});

describe('GET /v2.5/computers/{client_id}', () => {
  it('finds a computer by client id', async () => {
    const c = all[3] as Computer;
    const res = await api.get(`/v2.5/computers/${c.client_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(c);
    expect(res.body.plugin_results).toBeUndefined();
  });

  it('does not take the c_ uid in the path (404 with a hint)', async () => {
    const c = all[0] as Computer;
    const res = await api.get(`/v2.5/computers/${c.uid}`);
    expect(res.status).toBe(404);
    expect(errorOf(res).details).toMatch(/client_id/);
  });

  it('adds plugin_results with expand[]=plugin_results, and expands group', async () => {
    const c = all[0] as Computer;
    const res = await api.get(`/v2.5/computers/${c.client_id}`, { 'expand[]': ['plugin_results', 'group'] });
    expect(res.body.plugin_results.length).toBeGreaterThanOrEqual(3);
    expect(res.body.plugin_results.length).toBeLessThanOrEqual(8);
    for (const pr of res.body.plugin_results) expect(pr.uid).toMatch(/^pr_/);
    expect(res.body.group).toMatchObject({ uid: c.group });
    expect(res.body.group.name).toEqual(expect.any(String));
  });
});

describe('PUT /v2.5/computers/{client_id}', () => {
  it('updates every supported attribute', async () => {
    const c = all[5] as Computer;
    const res = await api.send('PUT', `/v2.5/computers/${c.client_id}`, {
      'computer[asset_id]': 'ASSET-42',
      'computer[custom_name]': 'Reception Mac',
      'computer[description]': 'Front desk',
      'computer[reference_email]': 'desk@example.com',
      'computer[product_description]': 'Mac mini M2',
      'computer[estimated_manufacture_date]': '2022-03-15',
      'computer[beacon_reporting]': 'true',
      'computer[beacon_missing_threshold_in_minutes]': '20',
      'computer[create_ticket_on_beacon_found]': '1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uid: c.uid,
      asset_id: 'ASSET-42',
      custom_name: 'Reception Mac',
      description: 'Front desk',
      reference_email: 'desk@example.com',
      reference_email_computer: 'desk@example.com',
      product_description: 'Mac mini M2',
      maker_product_description: 'Mac mini M2',
      estimated_manufacture_date: Date.parse('2022-03-15T00:00:00Z') / 1000,
      beacon_reporting: true,
      beacon_missing_threshold_in_minutes: 20,
      create_ticket_on_beacon_found: true,
    });
    expect((await api.get(`/v2.5/computers/${c.client_id}`)).body).toEqual(res.body);
    expect((await list({ asset_id: 'ASSET-42' })).map((x) => x.uid)).toEqual([c.uid]);
  });

  it('changes only what is sent', async () => {
    const c = all[6] as Computer;
    const res = await api.send('PUT', `/v2.5/computers/${c.client_id}`, { 'computer[custom_name]': 'Only this' });
    expect(res.body).toEqual({ ...c, custom_name: 'Only this' });
  });

  it.each(['2', '5', '10', '15', '20', '30'])('accepts beacon threshold %s', async (v) => {
    const c = all[7] as Computer;
    const res = await api.send('PUT', `/v2.5/computers/${c.client_id}`, {
      'computer[beacon_missing_threshold_in_minutes]': v,
    });
    expect(res.status).toBe(200);
    expect(res.body.beacon_missing_threshold_in_minutes).toBe(Number(v));
  });

  it.each([
    ['computer[beacon_missing_threshold_in_minutes]', '7', 'beacon_missing_threshold_in_minutes'],
    ['computer[beacon_missing_threshold_in_minutes]', 'soon', 'beacon_missing_threshold_in_minutes'],
    ['computer[estimated_manufacture_date]', '2022-02-30', 'estimated_manufacture_date'],
    ['computer[beacon_reporting]', 'perhaps', 'beacon_reporting'],
  ])('answers 422 for %s=%s', async (key, value, attribute) => {
    const c = all[8] as Computer;
    const res = await api.send('PUT', `/v2.5/computers/${c.client_id}`, { [key]: value });
    expect(res.status).toBe(422);
    expect(errorOf(res)).toMatchObject({ attribute, code: ':unprocessable_entity', title: 'Unprocessable Entity' });
  });

  it.each([
    ['asset_id', 191],
    ['custom_name', 191],
    ['reference_email', 191],
    ['description', 65535],
    ['product_description', 65535],
  ])('answers 500 when %s is over %i characters, 200 at the limit', async (attr, limit) => {
    const c = all[9] as Computer;
    const over = await api.send('PUT', `/v2.5/computers/${c.client_id}`, {
      [`computer[${attr}]`]: 'x'.repeat(limit + 1),
    });
    expect(over.status).toBe(500);
    expect(errorOf(over).code).toBe(':internal_server_error');
    const at = await api.send('PUT', `/v2.5/computers/${c.client_id}`, { [`computer[${attr}]`]: 'x'.repeat(limit) });
    expect(at.status).toBe(200);
  });

  it('refuses attributes outside the supported list (400 :unpermitted_parameter)', async () => {
    const c = all[10] as Computer;
    for (const attr of ['hidden', 'computer_name', 'group']) {
      const res = await api.send('PUT', `/v2.5/computers/${c.client_id}`, { [`computer[${attr}]`]: 'x' });
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: ':unpermitted_parameter' });
    }
  });

  it('answers 404 for an unknown client id', async () => {
    expect((await api.send('PUT', '/v2.5/computers/NO-SUCH-ID', { 'computer[asset_id]': 'x' })).status).toBe(404);
  });
});
