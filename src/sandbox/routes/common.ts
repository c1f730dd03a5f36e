/** Helpers shared by the resource modules. */
import { forbidden, invalidParameter, notFound, one, paginate, parseBoolean, parsePagination } from '../http.js';
import type { AccountId } from '../model.js';
import type { Reply, RequestContext } from '../router.js';
import type { Collection } from '../collection.js';

interface Owned {
  uid: string;
  account: AccountId;
}

/** The item at a path uid: 404 when unknown, 403 when it belongs to another subscriber (api-v2.5, Authentication 4). */
export function ownedOr404<T extends Owned>(
  ctx: RequestContext,
  collection: Collection<T>,
  uid: string,
  label: string,
): T {
  const item = collection.get(uid);
  return checkOwner(ctx, item, uid, label);
}

/** DELETE of an item at a path uid: 404 or 403 as for a read, else gone and 204. */
export function deleteOwned<T extends Owned>(ctx: RequestContext, collection: Collection<T>, label: string): Reply {
  const item = ownedOr404(ctx, collection, ctx.path.uid ?? '', label);
  collection.remove(item.uid);
  ctx.store.commit({ removed: [item.uid] });
  return { status: 204 };
}

export function checkOwner<T extends Owned>(ctx: RequestContext, item: T | undefined, key: string, label: string): T {
  if (!item) throw notFound(`${label} ${key} not found`);
  if (item.account !== ctx.account) throw forbidden(`${label} ${key} belongs to another account`);
  return item;
}

/** One page of `all` with the pagination headers (api-v2.5, Limits). */
export function listReply<T>(ctx: RequestContext, all: readonly T[], render: (item: T) => unknown): Reply {
  const page = paginate(all, parsePagination(ctx.params));
  return { body: page.items.map(render), headers: page.headers };
}

/** A query flag such as include_private: true, yes or 1 enable it (api-v2.5, Notes). */
export function queryFlag(ctx: RequestContext, name: string): boolean | undefined {
  const raw = one(ctx.params, name);
  if (raw === undefined || raw === '') return undefined;
  const b = parseBoolean(raw);
  if (b === undefined) throw invalidParameter(name, 'must be true or false');
  return b;
}

/** A query value restricted to a fixed set; anything else is 400 :invalid_parameter. */
export function queryEnum<T extends string>(ctx: RequestContext, name: string, allowed: readonly T[]): T | undefined {
  const raw = one(ctx.params, name);
  if (raw === undefined || raw === '') return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw invalidParameter(name, `must be one of ${allowed.join(', ')}`);
  return raw as T;
}

/** Sort helper: by key, ties broken by uid so every ordering is total and stable. */
export function byThenUid<T extends { uid: string }>(
  key: (item: T) => number | string,
  direction: 1 | -1,
): (a: T, b: T) => number {
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -direction;
    if (ka > kb) return direction;
    return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
  };
}
