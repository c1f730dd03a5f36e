/** Expirations (api-v2.5, Endpoints > Expirations). */
import { Attributes } from '../attributes.js';
import { invalidParameter, missingParameter, one, parseEpochOrDate, unprocessable } from '../http.js';
import type { CatalogRec, ComputerRec, ExpirationRec, GroupRec } from '../model.js';
import { renderExpiration } from '../render.js';
import type { Reply, RequestContext, Router } from '../router.js';
import type { Collection } from '../collection.js';
import { byThenUid, deleteOwned, listReply, ownedOr404, queryFlag } from './common.js';

const DAY = 86_400;
const ATTRIBUTES = [
  'license_key',
  'expires_at',
  'expiration_manufacturer_id',
  'expiration_product_id',
  'group_id',
  'computer_id',
  'renewable',
  'notes',
] as const;

function filterValue(ctx: RequestContext, name: string): string | undefined {
  const v = one(ctx.params, name);
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** uid or slug within the account; unknown values match nothing. */
function catalogKey(ctx: RequestContext, collection: Collection<CatalogRec>, key: string): string {
  const byUid = collection.get(key);
  if (byUid && byUid.account === ctx.account) return byUid.uid;
  return collection.items.find((x) => x.account === ctx.account && x.slug === key)?.uid ?? '\u0000none';
}

/** Computers have no slug: the filter takes the uid or, as the path of a computer does, the client id. */
function computerKey(ctx: RequestContext, key: string): string {
  const c = ctx.store.computers.get(key) ?? ctx.store.computerByClientId(key);
  return c && c.account === ctx.account ? c.uid : '\u0000none';
}

/** expires_at_end given as a date covers that whole day. */
function rangeBound(ctx: RequestContext, name: string, end: boolean): number {
  const raw = filterValue(ctx, name) as string;
  const value = parseEpochOrDate(raw);
  if (value === undefined) throw invalidParameter(name, 'must be a date (YYYY-MM-DD) or epoch seconds');
  return end && !/^-?\d+$/.test(raw) ? value + DAY - 1 : value;
}

const byExpiry = byThenUid<ExpirationRec>((e) => e.expires_at ?? Number.NEGATIVE_INFINITY, -1);

function list(ctx: RequestContext): Reply {
  const uid = filterValue(ctx, 'uid');
  const maker = filterValue(ctx, 'manufacturer');
  const product = filterValue(ctx, 'product');
  const group = filterValue(ctx, 'group');
  const computer = filterValue(ctx, 'computer');
  const licenseKey = filterValue(ctx, 'license_key');
  const renewable = queryFlag(ctx, 'renewable');
  const hasStart = filterValue(ctx, 'expires_at_start') !== undefined;
  const hasEnd = filterValue(ctx, 'expires_at_end') !== undefined;
  // each requires the other (api-v2.5, Expirations)
  if (hasStart && !hasEnd) throw missingParameter('expires_at_end');
  if (hasEnd && !hasStart) throw missingParameter('expires_at_start');
  const start = hasStart ? rangeBound(ctx, 'expires_at_start', false) : undefined;
  const end = hasEnd ? rangeBound(ctx, 'expires_at_end', true) : undefined;

  const makerUid = maker === undefined ? undefined : catalogKey(ctx, ctx.store.expirationManufacturers, maker);
  const productUid = product === undefined ? undefined : catalogKey(ctx, ctx.store.expirationProducts, product);
  const groupUid =
    group === undefined ? undefined : (ctx.store.groupByUidOrSlug(ctx.account, group)?.uid ?? '\u0000none');
  const computerUid = computer === undefined ? undefined : computerKey(ctx, computer);

  const matches = ctx.store.expirations.items.filter((e) => {
    if (e.account !== ctx.account) return false;
    if (uid !== undefined && e.uid !== uid) return false;
    if (makerUid !== undefined && e.expiration_manufacturer !== makerUid) return false;
    if (productUid !== undefined && e.expiration_product !== productUid) return false;
    if (groupUid !== undefined && e.group !== groupUid) return false;
    if (computerUid !== undefined && e.computer !== computerUid) return false;
    if (licenseKey !== undefined && e.license_key !== licenseKey) return false;
    if (renewable !== undefined && e.renewable !== renewable) return false;
    if (
      start !== undefined &&
      end !== undefined &&
      (e.expires_at === null || e.expires_at < start || e.expires_at > end)
    )
      return false;
    return true;
  });
  matches.sort(byExpiry);
  return listReply(ctx, matches, (e) => renderExpiration(ctx, e, ctx.expand));
}

function get(ctx: RequestContext): Reply {
  const e = ownedOr404(ctx, ctx.store.expirations, ctx.path.uid ?? '', 'Expiration');
  return { body: renderExpiration(ctx, e, ctx.expand) };
}

/** A uid in the body must name an item of the caller's account, else 422 on that attribute. */
function reference<T extends { uid: string; account: string }>(
  ctx: RequestContext,
  collection: Collection<T>,
  uid: string,
  attribute: string,
): T {
  const item = collection.get(uid);
  if (!item || item.account !== ctx.account) throw unprocessable(attribute, `does not name an existing item (${uid})`);
  return item;
}

interface Parsed {
  licenseKey: string | undefined;
  expiresAt: number | null | undefined;
  maker: CatalogRec | undefined;
  product: CatalogRec | undefined;
  group: GroupRec | undefined;
  computer: ComputerRec | undefined;
  renewable: boolean | undefined;
  notes: string | null | undefined;
}

function parse(ctx: RequestContext, attrs: Attributes): Parsed {
  const licenseKey = attrs.nonBlank('license_key', 191);
  const makerId = attrs.nonBlank('expiration_manufacturer_id', 191);
  const productId = attrs.nonBlank('expiration_product_id', 191);
  const groupId = attrs.text('group_id', 191);
  const computerId = attrs.text('computer_id', 191);
  const notes = attrs.text('notes', 65535);
  const expiresAt = attrs.date('expires_at');
  const renewable = attrs.bool('renewable');
  if (groupId && computerId)
    throw unprocessable('computer_id', 'cannot be given together with group_id: send one of them');
  return {
    licenseKey,
    expiresAt,
    maker:
      makerId === undefined
        ? undefined
        : reference(ctx, ctx.store.expirationManufacturers, makerId, 'expiration_manufacturer_id'),
    product:
      productId === undefined
        ? undefined
        : reference(ctx, ctx.store.expirationProducts, productId, 'expiration_product_id'),
    group: groupId ? reference(ctx, ctx.store.groups, groupId, 'group_id') : undefined,
    computer: computerId ? reference(ctx, ctx.store.computers, computerId, 'computer_id') : undefined,
    renewable,
    notes,
  };
}

function create(ctx: RequestContext): Reply {
  const attrs = Attributes.read(ctx, 'expiration', ATTRIBUTES, [
    'license_key',
    'expires_at',
    'expiration_manufacturer_id',
    'expiration_product_id',
  ]);
  const hasGroup = (attrs.raw('group_id') ?? '').trim() !== '';
  const hasComputer = (attrs.raw('computer_id') ?? '').trim() !== '';
  if (!hasGroup && !hasComputer) throw missingParameter('expiration[group_id] or expiration[computer_id]');
  const p = parse(ctx, attrs);
  if (p.expiresAt === null || p.expiresAt === undefined) throw unprocessable('expires_at', "can't be blank");
  const expiration: ExpirationRec = {
    uid: ctx.store.newUid('e_'),
    account: ctx.account,
    license_key: p.licenseKey as string,
    expires_at: p.expiresAt,
    expiration_manufacturer: (p.maker as CatalogRec).uid,
    expiration_product: (p.product as CatalogRec).uid,
    // an expiration created for a computer is related to that computer's group (api-v2.5)
    group: p.computer ? p.computer.group : (p.group as GroupRec).uid,
    computer: p.computer?.uid ?? null,
    renewable: p.renewable ?? false,
    notes: p.notes ?? null,
    created_at: ctx.nowSec,
    updated_at: ctx.nowSec,
  };
  ctx.store.expirations.insert(expiration);
  ctx.store.commit({ saved: [expiration] });
  return { body: renderExpiration(ctx, expiration, ctx.expand) };
}

/** Partial: only the attributes sent change (a sample update sends only notes). */
function update(ctx: RequestContext): Reply {
  const e = ownedOr404(ctx, ctx.store.expirations, ctx.path.uid ?? '', 'Expiration');
  const attrs = Attributes.read(ctx, 'expiration', ATTRIBUTES);
  const p = parse(ctx, attrs);
  if (p.licenseKey !== undefined) e.license_key = p.licenseKey;
  if (p.expiresAt !== undefined) e.expires_at = p.expiresAt;
  if (p.maker) e.expiration_manufacturer = p.maker.uid;
  if (p.product) e.expiration_product = p.product.uid;
  if (p.computer) {
    e.computer = p.computer.uid;
    e.group = p.computer.group;
  } else if (p.group) {
    // moving an expiration to a group detaches it from its computer
    e.group = p.group.uid;
    e.computer = null;
  }
  if (p.renewable !== undefined) e.renewable = p.renewable;
  if (p.notes !== undefined) e.notes = p.notes;
  e.updated_at = ctx.nowSec;
  ctx.store.commit({ saved: [e] });
  return { body: renderExpiration(ctx, e, ctx.expand) };
}

function remove(ctx: RequestContext): Reply {
  return deleteOwned(ctx, ctx.store.expirations, 'Expiration');
}

export function expirationRoutes(router: Router): void {
  router
    .add('GET', '/v2.5/expirations', list)
    .add('POST', '/v2.5/expirations', create)
    .add('GET', '/v2.5/expirations/:uid', get)
    .add('PUT', '/v2.5/expirations/:uid', update)
    .add('DELETE', '/v2.5/expirations/:uid', remove);
}
