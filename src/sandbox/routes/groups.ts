/** Groups (api-v2.5, Endpoints > Groups). */
import { Attributes } from '../attributes.js';
import { unprocessable } from '../http.js';
import type { GroupRec } from '../model.js';
import { uniqueSlug } from '../prng.js';
import { renderGroup } from '../render.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { byThenUid, checkOwner, listReply, queryEnum } from './common.js';

const NAME_MAX = 255;
const DESCRIPTION_MAX = 65535;
const REFERENCE_EMAIL_MAX = 191;
/** "default set per company": the sandbox company shows the contact menu */
const COMPANY_SHOWS_CONTACT_MENU = true;

function byName(a: GroupRec, b: GroupRec): number {
  return byThenUid<GroupRec>((g) => g.name.toLowerCase(), 1)(a, b);
}

function list(ctx: RequestContext): Reply {
  const visibility = queryEnum(ctx, 'visibility', ['visible', 'hidden'] as const);
  const groups = ctx.store.groups.items.filter(
    (g) => g.account === ctx.account && (visibility === undefined || g.hidden === (visibility === 'hidden')),
  );
  groups.sort(byName);
  return listReply(ctx, groups, (g) => renderGroup(ctx, g));
}

/** A sample uses a slug in the uid position, so both are accepted. */
function lookup(ctx: RequestContext): GroupRec {
  const key = ctx.path.uid ?? '';
  const item =
    ctx.store.groups.get(key) ?? ctx.store.groups.items.find((g) => g.account === ctx.account && g.slug === key);
  return checkOwner(ctx, item, key, 'Group');
}

function get(ctx: RequestContext): Reply {
  return { body: renderGroup(ctx, lookup(ctx)) };
}

function slugTaken(ctx: RequestContext, except?: GroupRec): (slug: string) => boolean {
  return (slug) => ctx.store.groups.items.some((g) => g !== except && g.account === ctx.account && g.slug === slug);
}

/** Finds by exact (case-sensitive) name within the account; the other attributes only apply to a new group. */
function findOrCreate(ctx: RequestContext): Reply {
  const attrs = Attributes.read(
    ctx,
    'group',
    ['name', 'description', 'show_contact_menu', 'build_installers'],
    ['name'],
  );
  const name = attrs.nonBlank('name', NAME_MAX) as string;
  const description = attrs.text('description', DESCRIPTION_MAX);
  const showContactMenu = attrs.bool('show_contact_menu');
  const buildInstallers = attrs.bool('build_installers') ?? false;
  const existing = ctx.store.groups.items.find((g) => g.account === ctx.account && g.name === name);
  if (existing) return { body: renderGroup(ctx, existing) };

  const group: GroupRec = {
    uid: ctx.store.newUid('g_'),
    account: ctx.account,
    slug: uniqueSlug(name, slugTaken(ctx)),
    name,
    description: description ?? null,
    reference_email: null,
    hidden: false,
    show_contact_menu: showContactMenu ?? COMPANY_SHOWS_CONTACT_MENU,
    installers_requested_at_ms: buildInstallers ? ctx.nowMs : null,
    created_at: ctx.nowSec,
  };
  ctx.store.groups.insert(group);
  ctx.store.commit({ saved: [group] });
  return { body: renderGroup(ctx, group) };
}

/** name is required on update (api-v2.5); a new name re-derives the slug. */
function update(ctx: RequestContext): Reply {
  const group = lookup(ctx);
  const attrs = Attributes.read(
    ctx,
    'group',
    ['name', 'description', 'reference_email', 'show_contact_menu'],
    ['name'],
  );
  const name = attrs.nonBlank('name', NAME_MAX) as string;
  const description = attrs.text('description', DESCRIPTION_MAX);
  const referenceEmail = attrs.text('reference_email', REFERENCE_EMAIL_MAX);
  const showContactMenu = attrs.bool('show_contact_menu');
  if (ctx.store.groups.items.some((g) => g !== group && g.account === ctx.account && g.name === name)) {
    throw unprocessable('name', 'has already been taken');
  }
  if (name !== group.name) {
    group.name = name;
    group.slug = uniqueSlug(name, slugTaken(ctx, group));
  }
  if (description !== undefined) group.description = description;
  if (referenceEmail !== undefined) group.reference_email = referenceEmail;
  if (showContactMenu !== undefined) group.show_contact_menu = showContactMenu;
  ctx.store.commit({ saved: [group] });
  return { body: renderGroup(ctx, group) };
}

export function groupRoutes(router: Router): void {
  router
    .add('GET', '/v2.5/groups', list)
    .add('POST', '/v2.5/groups/find_or_create', findOrCreate)
    .add('GET', '/v2.5/groups/:uid', get)
    .add('PUT', '/v2.5/groups/:uid', update);
}
