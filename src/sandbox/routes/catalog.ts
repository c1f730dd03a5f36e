/**
 * Expiration manufacturers and expiration products: the same shape under two paths
 * (api-v2.5, Endpoints > Expiration manufacturers and expiration products).
 */
import { Attributes } from '../attributes.js';
import { unprocessable } from '../http.js';
import type { CatalogRec } from '../model.js';
import { uniqueSlug } from '../prng.js';
import { renderCatalog } from '../render.js';
import type { Reply, RequestContext, Router } from '../router.js';
import type { Collection } from '../collection.js';
import type { Store } from '../store.js';
import { byThenUid, deleteOwned, listReply, ownedOr404 } from './common.js';

const NAME_MAX = 191;

interface CatalogSpec {
  /** path segment */
  path: string;
  /** body key */
  resource: string;
  prefix: string;
  label: string;
  collection: (store: Store) => Collection<CatalogRec>;
}

const SPECS: CatalogSpec[] = [
  {
    path: 'expiration_manufacturers',
    resource: 'expiration_manufacturer',
    prefix: 'em_',
    label: 'Expiration manufacturer',
    collection: (s) => s.expirationManufacturers,
  },
  {
    path: 'expiration_products',
    resource: 'expiration_product',
    prefix: 'ep_',
    label: 'Expiration product',
    collection: (s) => s.expirationProducts,
  },
];

const byName = byThenUid<CatalogRec>((x) => x.name.toLowerCase(), 1);

function routesFor(router: Router, spec: CatalogSpec): void {
  const base = `/v2.5/${spec.path}`;
  const item = (ctx: RequestContext): CatalogRec =>
    ownedOr404(ctx, spec.collection(ctx.store), ctx.path.uid ?? '', spec.label);

  /** Names are unique per account (case-insensitive), like the slugs derived from them. */
  const readName = (ctx: RequestContext, self?: CatalogRec): string => {
    const attrs = Attributes.read(ctx, spec.resource, ['name'], ['name']);
    const name = attrs.nonBlank('name', NAME_MAX) as string;
    const clash = spec
      .collection(ctx.store)
      .items.some((x) => x !== self && x.account === ctx.account && x.name.toLowerCase() === name.toLowerCase());
    if (clash) throw unprocessable('name', 'has already been taken');
    return name;
  };
  const slugTaken = (ctx: RequestContext, self?: CatalogRec) => (slug: string) =>
    spec.collection(ctx.store).items.some((x) => x !== self && x.account === ctx.account && x.slug === slug);

  const list = (ctx: RequestContext): Reply => {
    const items = spec.collection(ctx.store).ofAccount(ctx.account).sort(byName);
    return listReply(ctx, items, renderCatalog);
  };
  const get = (ctx: RequestContext): Reply => ({ body: renderCatalog(item(ctx)) });
  const create = (ctx: RequestContext): Reply => {
    const name = readName(ctx);
    const rec: CatalogRec = {
      uid: ctx.store.newUid(spec.prefix),
      account: ctx.account,
      slug: uniqueSlug(name, slugTaken(ctx)),
      name,
      created_at: ctx.nowSec,
    };
    spec.collection(ctx.store).insert(rec);
    ctx.store.commit({ saved: [rec] });
    return { body: renderCatalog(rec) };
  };
  const update = (ctx: RequestContext): Reply => {
    const rec = item(ctx);
    const name = readName(ctx, rec);
    if (name !== rec.name) {
      rec.name = name;
      rec.slug = uniqueSlug(name, slugTaken(ctx, rec));
    }
    ctx.store.commit({ saved: [rec] });
    return { body: renderCatalog(rec) };
  };
  /** Expirations that name a deleted item keep its uid; expanding it gives null. */
  const remove = (ctx: RequestContext): Reply => deleteOwned(ctx, spec.collection(ctx.store), spec.label);

  router
    .add('GET', base, list)
    .add('POST', base, create)
    .add('GET', `${base}/:uid`, get)
    .add('PUT', `${base}/:uid`, update)
    .add('DELETE', `${base}/:uid`, remove);
}

export function catalogRoutes(router: Router): void {
  for (const spec of SPECS) routesFor(router, spec);
}
