import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type Api, start } from './helpers.js';

let sandbox: RunningSandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await start());
});
afterAll(() => sandbox.close());

const BASE = [
  'uid',
  'email',
  'firstname',
  'lastname',
  'tfa_status',
  'role',
  'can_edit_contact_menu',
  'can_access_billing',
  'last_subdomain',
  'last_signin',
  'created_at',
];

describe('GET /v2.5/users', () => {
  it('lists users of both roles, sorted by e-mail, with the role-specific group uid arrays', async () => {
    const res = await api.get('/v2.5/users');
    expect(res.status).toBe(200);
    const users = res.body as Record<string, unknown>[];
    expect(users.map((u) => u.email)).toEqual(users.map((u) => u.email as string).sort());
    expect(users.some((u) => u.role === 'employee')).toBe(true);
    expect(users.some((u) => u.role === 'end_user')).toBe(true);
    const groupUids = new Set((await api.get('/v2.5/groups')).body.map((g: { uid: string }) => g.uid));
    for (const u of users) {
      expect(u.uid).toMatch(/^u_/);
      const extra = u.role === 'employee' ? 'restricted_group_uids' : 'permitted_group_uids';
      expect(Object.keys(u).sort()).toEqual([...BASE, extra].sort());
      const list = u[extra] as string[];
      expect(Array.isArray(list)).toBe(true);
      for (const g of list) expect(groupUids.has(g)).toBe(true);
    }
    expect(users.some((u) => ((u.restricted_group_uids as string[] | undefined) ?? []).length > 0)).toBe(true);
    expect(users.some((u) => ((u.permitted_group_uids as string[] | undefined) ?? []).length > 0)).toBe(true);
  });

  it('pages with page defaulting to 1', async () => {
    const all = (await api.get('/v2.5/users')).body;
    const second = await api.get('/v2.5/users', { per_page: 2, page: 2 });
    expect(second.body).toEqual(all.slice(2, 4));
    expect(second.headers.get('x-page')).toBe('2');
  });
});
