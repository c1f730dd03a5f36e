/** Computers (api-v2.5, Endpoints > Computers). */
import { Attributes } from '../attributes.js';
import { invalidParameter, many, notFound, one, parseDate, unprocessable } from '../http.js';
import type { ComputerRec, Platform } from '../model.js';
import { activeMute, isMissing, renderComputer } from '../render.js';
import type { Reply, RequestContext, Router } from '../router.js';
import type { Store } from '../store.js';
import { byThenUid, checkOwner, listReply, queryEnum } from './common.js';

const STATUSES = ['visible', 'hidden', 'missing', 'pending_rekey', 'pending_removal', 'has_muted_plugin'] as const;
const ORDERS = ['last_reported_desc', 'reported_desc', 'created_desc'] as const;
const PLATFORMS: readonly Platform[] = ['mac', 'linux', 'windows'];
/** The listing repeats 15; the set is what matters (api-v2.5, Computers update). */
const BEACON_THRESHOLDS = [2, 5, 10, 15, 20, 30];

type Order = (typeof ORDERS)[number];

/**
 * Sorted lists per account and order, rebuilt only after a mutation (store.version), so that
 * paging through 10 000 computers does not sort on every request. Callers must not mutate them.
 */
const orderCache = new WeakMap<Store, { version: number; lists: Map<string, ComputerRec[]> }>();

function ordered(ctx: RequestContext, order: Order): readonly ComputerRec[] {
  const store = ctx.store;
  let entry = orderCache.get(store);
  if (!entry || entry.version !== store.version) {
    entry = { version: store.version, lists: new Map() };
    orderCache.set(store, entry);
  }
  const key = `${ctx.account}\u0000${order}`;
  let list = entry.lists.get(key);
  if (!list) {
    // reported_desc is listed beside last_reported_desc without a difference: both sort by last_report
    const sortKey = order === 'created_desc' ? (c: ComputerRec) => c.created_at : (c: ComputerRec) => c.last_report;
    list = store.computers.ofAccount(ctx.account).sort(byThenUid(sortKey, -1));
    entry.lists.set(key, list);
  }
  return list;
}

function filterValue(ctx: RequestContext, name: string): string | undefined {
  const v = one(ctx.params, name);
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

const sameText = (a: string | null | undefined, b: string): boolean => a != null && a.toLowerCase() === b.toLowerCase();

function list(ctx: RequestContext): Reply {
  const status = queryEnum(ctx, 'status', STATUSES);
  const order = queryEnum(ctx, 'order', ORDERS) ?? 'last_reported_desc';
  const platforms = many(ctx.params, 'platform', 'platform[]').filter((p) => p !== '');
  for (const p of platforms) {
    if (!(PLATFORMS as readonly string[]).includes(p))
      throw invalidParameter('platform', `must be one of ${PLATFORMS.join(', ')}`);
  }
  const createdAfterRaw = filterValue(ctx, 'created_after');
  let createdAfter: number | undefined;
  if (createdAfterRaw !== undefined) {
    createdAfter = parseDate(createdAfterRaw);
    if (createdAfter === undefined) throw invalidParameter('created_after', 'must be a date in YYYY-MM-DD');
  }
  const groupKey = filterValue(ctx, 'group_id');
  let groupUid: string | undefined;
  if (groupKey !== undefined) {
    // an unknown group (or one of another account) matches nothing
    groupUid = ctx.store.groupByUidOrSlug(ctx.account, groupKey)?.uid ?? '\u0000none';
  }
  const serial = filterValue(ctx, 'serial_number');
  const assetId = filterValue(ctx, 'asset_id');
  const refComputer = filterValue(ctx, 'reference_email_computer');
  const refGroup = filterValue(ctx, 'reference_email_group');
  const refAny = filterValue(ctx, 'reference_email');
  const groupRef = (c: ComputerRec): string | null => ctx.store.groups.get(c.group)?.reference_email ?? null;

  const all = ordered(ctx, order);
  const noFilter =
    status === undefined &&
    platforms.length === 0 &&
    createdAfter === undefined &&
    groupUid === undefined &&
    serial === undefined &&
    assetId === undefined &&
    refComputer === undefined &&
    refGroup === undefined &&
    refAny === undefined;
  const matches = noFilter
    ? all
    : all.filter((c) => {
        if (status !== undefined && !hasStatus(ctx, c, status)) return false;
        if (platforms.length > 0 && !platforms.includes(c.platform)) return false;
        if (createdAfter !== undefined && c.created_at < createdAfter) return false;
        if (groupUid !== undefined && c.group !== groupUid) return false;
        if (serial !== undefined && !sameText(c.serial_number, serial)) return false;
        if (assetId !== undefined && !sameText(c.asset_id, assetId)) return false;
        if (refComputer !== undefined && !sameText(c.reference_email, refComputer)) return false;
        if (refGroup !== undefined && !sameText(groupRef(c), refGroup)) return false;
        if (refAny !== undefined && !sameText(c.reference_email, refAny) && !sameText(groupRef(c), refAny))
          return false;
        return true;
      });
  return listReply(ctx, matches, (c) => renderComputer(ctx, c, ctx.expand));
}

function hasStatus(ctx: RequestContext, c: ComputerRec, status: (typeof STATUSES)[number]): boolean {
  switch (status) {
    case 'visible':
      return !c.hidden;
    case 'hidden':
      return c.hidden;
    case 'missing':
      return isMissing(c, ctx.nowSec);
    case 'pending_rekey':
      return c.rekey_requested;
    case 'pending_removal':
      return c.pending_removal;
    case 'has_muted_plugin':
      return ctx.store.resultsOf(c.uid).some((pr) => activeMute(pr, ctx.nowSec) !== null);
  }
}

/** The path value is the client id (api-v2.5); a c_ uid is not accepted, so a client that sends one fails loudly. */
function lookup(ctx: RequestContext): ComputerRec {
  const key = ctx.path.client_id ?? '';
  const computer = ctx.store.computerByClientId(key);
  if (!computer && ctx.store.computers.has(key)) {
    throw notFound(`Computer ${key} not found: the path takes the computer's client_id, not its uid`);
  }
  return checkOwner(ctx, computer, key, 'Computer');
}

function get(ctx: RequestContext): Reply {
  return { body: renderComputer(ctx, lookup(ctx), ctx.expand) };
}

function update(ctx: RequestContext): Reply {
  const computer = lookup(ctx);
  const attrs = Attributes.read(ctx, 'computer', [
    'asset_id',
    'custom_name',
    'description',
    'reference_email',
    'product_description',
    'estimated_manufacture_date',
    'beacon_reporting',
    'beacon_missing_threshold_in_minutes',
    'create_ticket_on_beacon_found',
  ]);
  const assetId = attrs.text('asset_id', 191);
  const customName = attrs.text('custom_name', 191);
  const description = attrs.text('description', 65535);
  const referenceEmail = attrs.text('reference_email', 191);
  const productDescription = attrs.text('product_description', 65535);
  const manufactured = attrs.date('estimated_manufacture_date');
  const beacon = attrs.bool('beacon_reporting');
  const threshold = attrs.integer('beacon_missing_threshold_in_minutes');
  if (threshold !== undefined && !BEACON_THRESHOLDS.includes(threshold)) {
    throw unprocessable('beacon_missing_threshold_in_minutes', `must be one of ${BEACON_THRESHOLDS.join(', ')}`);
  }
  const ticketOnFound = attrs.bool('create_ticket_on_beacon_found');

  if (assetId !== undefined) computer.asset_id = assetId;
  if (customName !== undefined) computer.custom_name = customName;
  if (description !== undefined) computer.description = description;
  if (referenceEmail !== undefined) computer.reference_email = referenceEmail;
  if (productDescription !== undefined) computer.product_description = productDescription;
  if (manufactured !== undefined) computer.estimated_manufacture_date = manufactured;
  if (beacon !== undefined) computer.beacon_reporting = beacon;
  if (threshold !== undefined) computer.beacon_missing_threshold_in_minutes = threshold;
  if (ticketOnFound !== undefined) computer.create_ticket_on_beacon_found = ticketOnFound;
  ctx.store.commit({ saved: [computer] });
  return { body: renderComputer(ctx, computer, ctx.expand) };
}

export function computerRoutes(router: Router): void {
  router
    .add('GET', '/v2.5/computers', list)
    .add('GET', '/v2.5/computers/:client_id', get)
    .add('PUT', '/v2.5/computers/:client_id', update);
}
