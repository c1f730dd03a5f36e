import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, type Clock, NOW_SEC, errorOf, start } from './helpers.js';

let sandbox: RunningSandbox;
let api: Api;
let clock: Clock;

beforeAll(async () => {
  ({ sandbox, api, clock } = await start());
});
afterAll(() => sandbox.close());

interface Group {
  uid: string;
  slug: string;
  name: string;
  hidden: boolean;
  visible_computer_count: number;
  hidden_computer_count: number;
  [k: string]: unknown;
}

const GROUP_FIELDS = [
  'uid',
  'slug',
  'name',
  'description',
  'group_url',
  'reference_email',
  'contact_email',
  'hidden',
  'show_contact_menu',
  'visible_computer_count',
  'hidden_computer_count',
  'mac_installer_ready',
  'mac_installer_url',
  'windows_installer_ready',
  'windows_installer_url',
  'created_at',
];

describe('GET /v2.5/groups', () => {
  it('lists groups sorted by name with every field of the reference', async () => {
    const res = await api.get('/v2.5/groups');
    expect(res.status).toBe(200);
    const groups = res.body as Group[];
    expect(groups.length).toBeGreaterThanOrEqual(4);
    const names = groups.map((g) => g.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    for (const g of groups) {
      expect(Object.keys(g).sort()).toEqual([...GROUP_FIELDS].sort());
      expect(g.uid).toMatch(/^g_/);
      expect(g.contact_email).toBe(g.reference_email);
    }
  });

  it('counts visible and hidden computers per group', async () => {
    const groups = (await api.get('/v2.5/groups')).body as Group[];
    const computers = (await api.get('/v2.5/computers', { per_page: 100 })).body as {
      group: string;
      hidden: boolean;
    }[];
    for (const g of groups) {
      expect(g.visible_computer_count).toBe(computers.filter((c) => c.group === g.uid && !c.hidden).length);
      expect(g.hidden_computer_count).toBe(computers.filter((c) => c.group === g.uid && c.hidden).length);
    }
    expect(groups.reduce((n, g) => n + g.visible_computer_count + g.hidden_computer_count, 0)).toBe(40);
  });

  it('filters by visibility', async () => {
    const all = (await api.get('/v2.5/groups')).body as Group[];
    const hidden = (await api.get('/v2.5/groups', { visibility: 'hidden' })).body as Group[];
    const visible = (await api.get('/v2.5/groups', { visibility: 'visible' })).body as Group[];
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.every((g) => g.hidden)).toBe(true);
    expect(visible.every((g) => !g.hidden)).toBe(true);
    expect(hidden.length + visible.length).toBe(all.length);
    const bad = await api.get('/v2.5/groups', { visibility: 'all' });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).details).toMatch(/visibility/);
  });
});

describe('GET /v2.5/groups/{uid}', () => {
  it('finds a group by uid and by slug', async () => {
    const first = ((await api.get('/v2.5/groups')).body as Group[])[0] as Group;
    expect((await api.get(`/v2.5/groups/${first.uid}`)).body).toEqual(first);
    expect((await api.get(`/v2.5/groups/${first.slug}`)).body).toEqual(first);
  });

  it('answers 404 for an unknown group', async () => {
    const res = await api.get('/v2.5/groups/g_doesnotexist');
    expect(res.status).toBe(404);
    expect(errorOf(res).details).toContain('g_doesnotexist');
  });
});

describe('POST /v2.5/groups/find_or_create', () => {
  it('returns the existing group with that exact name', async () => {
    const acme = ((await api.get('/v2.5/groups')).body as Group[]).find((g) => g.name === 'Acme Design') as Group;
    const before = (await api.get('/v2.5/groups')).body.length;
    const res = await api.send('POST', '/v2.5/groups/find_or_create', {
      'group[name]': 'Acme Design',
      'group[description]': 'ignored',
    });
    expect(res.status).toBe(200);
    expect(res.body.uid).toBe(acme.uid);
    expect(res.body.description).toBe(acme.description);
    expect((await api.get('/v2.5/groups')).body.length).toBe(before);
  });

  it('creates a group with a slug derived from the name (names are case-sensitive)', async () => {
    const res = await api.send('POST', '/v2.5/groups/find_or_create', {
      'group[name]': 'acme design',
      'group[description]': 'Lower-case twin',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'acme design',
      description: 'Lower-case twin',
      hidden: false,
      show_contact_menu: true,
      created_at: NOW_SEC,
    });
    expect(res.body.uid).toMatch(/^g_/);
    // acme-design is taken by "Acme Design"
    expect(res.body.slug).toBe('acme-design-2');
    const fancy = await api.send('POST', '/v2.5/groups/find_or_create', {
      'group[name]': '  Zürich & Co. — Lab #2 ',
      'group[show_contact_menu]': 'false',
    });
    expect(fancy.body.slug).toBe('zurich-co-lab-2');
    expect(fancy.body.show_contact_menu).toBe(false);
    expect(fancy.body.group_url).toContain('/zurich-co-lab-2');
    expect((await api.get('/v2.5/groups/zurich-co-lab-2')).body.uid).toBe(fancy.body.uid);
  });

  it('builds installers only when asked: mac ready after 20 s, windows after 60 s', async () => {
    const plain = await api.send('POST', '/v2.5/groups/find_or_create', { 'group[name]': 'No Installers' });
    expect(plain.body).toMatchObject({
      mac_installer_ready: false,
      windows_installer_ready: false,
      mac_installer_url: null,
      windows_installer_url: null,
    });

    const res = await api.send('POST', '/v2.5/groups/find_or_create', {
      'group[name]': 'Installer Test',
      'group[build_installers]': 'true',
    });
    const uid = res.body.uid as string;
    expect(res.body).toMatchObject({ mac_installer_ready: false, windows_installer_ready: false });
    expect(res.body.mac_installer_url).toMatch(/\.pkg$/);
    expect(res.body.windows_installer_url).toMatch(/\.msi$/);
    clock.advance(19);
    expect((await api.get(`/v2.5/groups/${uid}`)).body).toMatchObject({
      mac_installer_ready: false,
      windows_installer_ready: false,
    });
    clock.advance(1);
    expect((await api.get(`/v2.5/groups/${uid}`)).body).toMatchObject({
      mac_installer_ready: true,
      windows_installer_ready: false,
    });
    clock.advance(39);
    expect((await api.get(`/v2.5/groups/${uid}`)).body.windows_installer_ready).toBe(false);
    clock.advance(1);
    expect((await api.get(`/v2.5/groups/${uid}`)).body).toMatchObject({
      mac_installer_ready: true,
      windows_installer_ready: true,
    });
  });

  it('requires group[name]: 400 :missing_parameter', async () => {
    for (const form of [{}, { 'group[name]': '' }, { 'group[description]': 'no name' }]) {
      const res = await api.send('POST', '/v2.5/groups/find_or_create', form);
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: ':missing_parameter', title: 'Bad Request' });
      expect(errorOf(res).details).toContain('group[name]');
      expect(errorOf(res).attribute).toBeUndefined();
    }
  });

  it('refuses unknown attributes with 400 :unpermitted_parameter', async () => {
    for (const key of ['group[hidden]', 'group[reference_email]', 'groups[name]']) {
      const res = await api.send('POST', '/v2.5/groups/find_or_create', { 'group[name]': 'Unpermitted', [key]: 'x' });
      expect(res.status, key).toBe(400);
      expect(errorOf(res).code).toBe(':unpermitted_parameter');
      expect(errorOf(res).details).toContain(key);
    }
    expect(((await api.get('/v2.5/groups')).body as Group[]).some((g) => g.name === 'Unpermitted')).toBe(false);
  });

  it('answers a name over 255 characters with 500, at 255 it is fine', async () => {
    const over = await api.send('POST', '/v2.5/groups/find_or_create', { 'group[name]': 'n'.repeat(256) });
    expect(over.status).toBe(500);
    expect(errorOf(over)).toMatchObject({ code: ':internal_server_error', title: 'Internal Server Error' });
    const at = await api.send('POST', '/v2.5/groups/find_or_create', { 'group[name]': 'é'.repeat(255) });
    expect(at.status).toBe(200);
  });

  it('answers a bad boolean with 422 naming the attribute', async () => {
    const res = await api.send('POST', '/v2.5/groups/find_or_create', {
      'group[name]': 'Bool',
      'group[build_installers]': 'maybe',
    });
    expect(res.status).toBe(422);
    expect(errorOf(res)).toMatchObject({ attribute: 'build_installers', code: ':unprocessable_entity' });
  });
});

describe('PUT /v2.5/groups/{uid}', () => {
  it('updates name, description, reference_email and show_contact_menu; the slug follows the name', async () => {
    const g = (await api.send('POST', '/v2.5/groups/find_or_create', { 'group[name]': 'Rename Me' })).body as Group;
    const res = await api.send('PUT', `/v2.5/groups/${g.uid}`, {
      'group[name]': 'Renamed Group',
      'group[description]': 'New text',
      'group[reference_email]': 'ops@renamed.example',
      'group[show_contact_menu]': '0',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uid: g.uid,
      name: 'Renamed Group',
      slug: 'renamed-group',
      description: 'New text',
      reference_email: 'ops@renamed.example',
      contact_email: 'ops@renamed.example',
      show_contact_menu: false,
    });
    expect((await api.get(`/v2.5/groups/${g.uid}`)).body).toEqual(res.body);
    // description untouched when not sent
    const again = await api.send('PUT', `/v2.5/groups/renamed-group`, { 'group[name]': 'Renamed Group' });
    expect(again.body.description).toBe('New text');
  });

  it('requires group[name] (400) even for a partial change', async () => {
    const g = ((await api.get('/v2.5/groups')).body as Group[])[0] as Group;
    const res = await api.send('PUT', `/v2.5/groups/${g.uid}`, { 'group[description]': 'x' });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe(':missing_parameter');
  });

  it('answers 500 for a reference_email over 191 and a description over 65535', async () => {
    const g = ((await api.get('/v2.5/groups')).body as Group[])[0] as Group;
    const email = await api.send('PUT', `/v2.5/groups/${g.uid}`, {
      'group[name]': g.name,
      'group[reference_email]': `${'a'.repeat(180)}@example.com`,
    });
    expect(email.status).toBe(500);
    const desc = await api.send('PUT', `/v2.5/groups/${g.uid}`, {
      'group[name]': g.name,
      'group[description]': 'd'.repeat(65536),
    });
    expect(desc.status).toBe(500);
    const ok = await api.send('PUT', `/v2.5/groups/${g.uid}`, {
      'group[name]': g.name,
      'group[description]': 'd'.repeat(65535),
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a name another group has (422 on name) and unknown attributes (400)', async () => {
    const [a, b] = (await api.get('/v2.5/groups')).body as Group[];
    const dup = await api.send('PUT', `/v2.5/groups/${a?.uid}`, { 'group[name]': b?.name });
    expect(dup.status).toBe(422);
    expect(errorOf(dup).attribute).toBe('name');
    const bad = await api.send('PUT', `/v2.5/groups/${a?.uid}`, {
      'group[name]': a?.name,
      'group[build_installers]': 'true',
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe(':unpermitted_parameter');
  });

  it('answers 404 for an unknown group', async () => {
    expect((await api.send('PUT', '/v2.5/groups/g_unknown', { 'group[name]': 'x' })).status).toBe(404);
  });
});
