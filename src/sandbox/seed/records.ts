/** The smaller records of a subscriber: its groups, catalogue entries, notes and users. */
import {
  type AccountId,
  type CatalogRec,
  type ComputerRec,
  type GroupRec,
  type NoteRec,
  OTHER_ACCOUNT,
  type UserRec,
} from '../model.js';
import { slugify } from '../prng.js';
import { DAY, HOUR, type SeedContext } from './context.js';
import type { GroupSpec } from './groups.js';
import { ascii } from './values.js';

export function makeGroup(ctx: SeedContext, account: AccountId, spec: GroupSpec, i: number): GroupRec {
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

export function catalog(ctx: SeedContext, account: AccountId, names: string[], prefix: string): CatalogRec[] {
  return names.map((name, i) => ({
    uid: ctx.rng.uid(prefix),
    account,
    slug: slugify(name),
    name,
    created_at: ctx.now - (700 - i * 31) * DAY,
  }));
}

export function findCatalog(list: CatalogRec[], name: string): CatalogRec {
  const item = list.find((x) => x.name === name);
  if (!item) throw new Error(`seed: no catalogue entry ${name}`);
  return item;
}

export function makeNotes(
  ctx: SeedContext,
  account: AccountId,
  groups: GroupRec[],
  computers: ComputerRec[],
): NoteRec[] {
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

export function makeUsers(
  ctx: SeedContext,
  account: AccountId,
  groups: GroupRec[],
  subdomain: string,
  domain: string,
): UserRec[] {
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
